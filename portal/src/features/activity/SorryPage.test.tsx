import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../testing/render';

const call = vi.fn(async () => ({ data: { ok: true } }));
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [])) } }));

const { default: SorryPage } = await import('./SorryPage');

function renderPage() {
  return renderPortal(<SorryPage />, {
    url: '/sorry-to-see-you-go',
    routes: { '/thanks': <p>thanks page</p> },
  });
}
afterEach(() => {
  call.mockClear();
});

describe("'Sorry to see you go'", () => {
  it('asks for a reason and an e-mail address', async () => {
    renderPage();
    const email = screen.getByLabelText(/^Email/);
    fireEvent.focus(email);
    fireEvent.input(email, { target: { value: 'x' } });
    fireEvent.input(email, { target: { value: '' } });
    fireEvent.blur(email);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('At least one Reason should be Selected')).toBeTruthy();
    expect(screen.getByText('Please enter email id')).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
  });

  it("needs the text of 'other' and a valid address, then sends and thanks", async () => {
    renderPage();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Other' }));
    fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please enter other')).toBeTruthy();
    expect(screen.getByText('Invalid email address')).toBeTruthy();
    fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: 'a@example.com' } });
    fireEvent.input(screen.getByRole('textbox', { name: /^Other/ }), { target: { value: 'Too slow' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('thanks page')).toBeTruthy();
    expect(call).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect((call.mock.calls[0] as unknown[])[1]).toEqual({
        body: { emailId: 'a@example.com', reason: ['other'], other: 'Too slow', message: '' },
      }),
    );
  });
});
