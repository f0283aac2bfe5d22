import { ApiError, NetworkError } from '@shared/client/client';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LoadFailed } from './LoadFailed';

afterEach(cleanup);

const refused = new ApiError(404, { statusCode: 404, error: 'Not Found', message: 'Roadmap not found' });

describe('LoadFailed', () => {
  it("says the server's message in an error alert", () => {
    render(<LoadFailed error={refused} fallback="Couldn't load the roadmap" />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Roadmap not found');
    expect(alert.className).toBe('alert alert-error');
  });

  it('says the fallback when the server gave no message (a network failure), else Something Went Wrong', () => {
    render(<LoadFailed error={new NetworkError('offline')} fallback="Couldn't load the roadmap" />);
    expect(screen.getByRole('alert').textContent).toBe("Couldn't load the roadmap");
    cleanup();
    render(<LoadFailed error={new NetworkError('offline')} />);
    expect(screen.getByRole('alert').textContent).toBe('Something Went Wrong');
  });

  it("says the page's own words when given, with its class and shadow part", () => {
    render(
      <LoadFailed className="wm-review-error" part="error">
        <strong>Failed</strong> later
      </LoadFailed>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Failed later');
    expect(alert.className).toBe('wm-review-error');
    expect(alert.getAttribute('part')).toBe('error');
  });
});
