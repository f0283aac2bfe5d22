import type { CallDef } from '@shared/contract/define';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../testing/render';

const SUBJECT = '00000000-0000-4000-8000-000000000001';
let links: unknown[] = [];
let createFails = false;
const call = vi.fn(async (def: CallDef, _args?: unknown) => {
  if (def.path === '/testlink/list') return { data: links };
  if (def.path === '/subject/list') return { data: [{ _id: SUBJECT, name: 'JavaScript', topics: [] }] };
  if (def.path === '/testlink/create') {
    if (createFails) {
      const { ApiError } = await import('@shared/client/client');
      throw new ApiError(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'There are no questions for this subject yet. Please try another one later.',
        field: 'subject',
      });
    }
    return { data: { testLinkId: 'new-link-0123456789' } };
  }
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({ client: { call: (def: CallDef, args?: unknown) => call(def, args) } }));

const { default: AssessmentsPage } = await import('./AssessmentsPage');

const tab = {
  closed: false,
  opener: {},
  location: { href: '' },
  document: { title: '', body: {} },
  close: vi.fn(),
};
beforeEach(() => {
  links = [];
  createFails = false;
  tab.location.href = '';
  vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
});
afterEach(() => {
  call.mockClear();
  vi.restoreAllMocks();
});

function renderPage() {
  return renderPortal(<AssessmentsPage />, {
    url: '/assesments',
    routes: { '/all-roadmaps': <p>all roadmaps page</p> },
  });
}

describe('/assesments', () => {
  it('without links: the empty text and a Select a Roadmap link to /all-roadmaps', async () => {
    renderPage();
    expect(
      await screen.findByText('You can take assessment once you assign yourself a roadmap.'),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your Assessment Links', level: 1 })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Select a Roadmap' }));
    expect(await screen.findByText('all roadmaps page')).toBeTruthy();
  });

  describe('the subject test creator', () => {
    async function openCreator() {
      renderPage();
      await screen.findByText(/You can take assessment/);
      fireEvent.click(screen.getByRole('button', { name: 'Take a Subject Test' }));
      const dialog = await screen.findByRole('dialog');
      await waitFor(() => expect(within(dialog).getByRole('option', { name: 'JavaScript' })).toBeTruthy());
      return dialog;
    }

    it('asks for a subject and whether the learner is looking for a job', async () => {
      const dialog = await openCreator();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create Test' }));
      expect(await within(dialog).findByText('Please select a subject')).toBeTruthy();
      expect(within(dialog).getByText('Please tell us whether you are looking for a job')).toBeTruthy();
      expect(window.open).not.toHaveBeenCalled();
      expect(call.mock.calls.some(([def]) => def.path === '/testlink/create')).toBe(false);
      // choosing clears the message
      fireEvent.change(within(dialog).getByRole('combobox', { name: /Subject/ }), {
        target: { value: SUBJECT },
      });
      await waitFor(() => expect(within(dialog).queryByText('Please select a subject')).toBeNull());
    });

    it('offers Yes, No and In Future', async () => {
      const dialog = await openCreator();
      const group = within(dialog).getByRole('group', { name: /Are you currently looking for job\?/ });
      expect(
        within(group)
          .getAllByRole('radio')
          .map((r) => (r as HTMLInputElement).value),
      ).toEqual(['YES', 'NO', 'IN FUTURE']);
      expect(within(group).getByRole('radio', { name: 'In Future' })).toBeTruthy();
    });

    it('creates a SUBJECT link, opens /test/{testLinkId} in the tab opened at the click, and reloads the table', async () => {
      const dialog = await openCreator();
      fireEvent.change(within(dialog).getByRole('combobox', { name: /Subject/ }), {
        target: { value: SUBJECT },
      });
      fireEvent.click(within(dialog).getByRole('radio', { name: 'In Future' }));
      const listed = call.mock.calls.filter(([def]) => def.path === '/testlink/list').length;
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create Test' }));
      // the tab is opened synchronously, before the request resolves
      expect(window.open).toHaveBeenCalledWith('', '_blank');
      await waitFor(() => expect(tab.location.href).toBe('/test/new-link-0123456789'));
      const create = call.mock.calls.find(([def]) => def.path === '/testlink/create');
      expect(create?.[1]).toEqual({
        body: { type: 'SUBJECT', subject: SUBJECT, lookingForJob: 'IN FUTURE' },
      });
      await waitFor(() =>
        expect(call.mock.calls.filter(([def]) => def.path === '/testlink/list').length).toBe(listed + 1),
      );
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    });

    it("shows the server's refusal on its field and closes the unused tab", async () => {
      createFails = true;
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const dialog = await openCreator();
      fireEvent.change(within(dialog).getByRole('combobox', { name: /Subject/ }), {
        target: { value: SUBJECT },
      });
      fireEvent.click(within(dialog).getByRole('radio', { name: 'No' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create Test' }));
      expect(
        await within(dialog).findByText(
          'There are no questions for this subject yet. Please try another one later.',
        ),
      ).toBeTruthy();
      expect(tab.close).toHaveBeenCalled();
      expect(error).toHaveBeenCalledWith('Something went wrong', expect.anything());
    });
  });
});
