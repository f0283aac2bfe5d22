import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginApp, type LoginState, LoginView } from './LoginView';

const server = 'http://127.0.0.1:8080';
const user = { name: 'Asha Learner', email: 'learner@waymark.local', role: 'USER' };
const waiting = (
  browser: 'opening' | 'opened' | 'unavailable' | 'off',
): Extract<LoginState, { phase: 'waiting' }> => ({
  phase: 'waiting',
  server,
  verificationUrl: `${server}/cli-login?code=QY8T-JEQ2`,
  userCode: 'QY8T-JEQ2',
  expiresAt: Date.now() + 600_000,
  browser,
});

afterEach(() => vi.useRealTimers());

describe('the login view', () => {
  it('says it is asking the server for a code', () => {
    const { lastFrame } = render(<LoginView state={{ phase: 'starting', server }} />);
    expect(lastFrame()).toContain(`Asking ${server} for a sign-in code…`);
  });

  it('shows the link and the code to approve, and how long the code lasts', () => {
    const { lastFrame } = render(<LoginView state={waiting('opened')} />);
    const frame = lastFrame()!;
    expect(frame).toContain(`${server}/cli-login?code=QY8T-JEQ2`);
    expect(frame).toContain('approve the code QY8T-JEQ2');
    expect(frame).toContain('Opened your browser.');
    expect(frame).toMatch(/Waiting for approval \(the code expires in (10:00|9:59)\)\. Ctrl\+C cancels\./);
  });

  it('tells the person to open the link when no browser could be opened', () => {
    expect(render(<LoginView state={waiting('unavailable')} />).lastFrame()).toContain(
      'Could not open a browser here: open the link yourself.',
    );
    expect(render(<LoginView state={waiting('off')} />).lastFrame()).not.toContain('browser here');
  });

  it('counts the time left down', async () => {
    vi.useFakeTimers({
      now: new Date('2026-01-01T10:00:00Z'),
      toFake: ['Date', 'setInterval', 'clearInterval'],
    });
    const { lastFrame } = render(
      <LoginView state={{ ...waiting('off'), expiresAt: Date.now() + 125_000 }} />,
    );
    expect(lastFrame()).toContain('expires in 2:05');
    await vi.advanceTimersByTimeAsync(5_000);
    // Ink throttles its renders on real timers
    await vi.waitFor(() => expect(lastFrame()).toContain('expires in 2:00'));
  });

  it('shows who signed in, and a cancelled account deletion', () => {
    const frame = render(
      <LoginView state={{ phase: 'done', server, user, deletionCanceled: true }} />,
    ).lastFrame()!;
    expect(frame).toContain(`✔ Signed in to ${server} as Asha Learner <learner@waymark.local> (USER)`);
    expect(frame).toContain('The scheduled deletion of this account has been cancelled.');
  });

  it('shows signing in with e-mail and password', () => {
    const frame = render(
      <LoginView state={{ phase: 'signing-in', server, email: 'learner@waymark.local' }} />,
    ).lastFrame();
    expect(frame).toContain(`Signing in to ${server} as learner@waymark.local…`);
  });
});

describe('the login app', () => {
  it('moves from the code to the signed-in line and keeps that last frame', async () => {
    let approve: () => void = () => {};
    const { lastFrame, frames } = render(
      <LoginApp
        initial={{ phase: 'starting', server }}
        onCancel={() => {}}
        run={async (update) => {
          update(waiting('opened'));
          await new Promise<void>((r) => {
            approve = r;
          });
          return { phase: 'done', server, user };
        }}
      />,
    );
    await vi.waitFor(() => expect(lastFrame()).toContain('approve the code QY8T-JEQ2'));
    approve();
    await vi.waitFor(() => expect(lastFrame()).toContain(`✔ Signed in to ${server} as Asha Learner`));
    expect(frames.some((f) => f.includes('Asking'))).toBe(true);
  });

  it('shows "Not signed in." when the sign-in fails', async () => {
    const { lastFrame } = render(
      <LoginApp
        initial={{ phase: 'signing-in', server, email: 'learner@waymark.local' }}
        onCancel={() => {}}
        run={() => Promise.reject(new Error('Wrong e-mail or password.'))}
      />,
    );
    await vi.waitFor(() => expect(lastFrame()).toContain('✖ Not signed in.'));
  });

  it('cancels the sign-in on Ctrl+C', async () => {
    const controller = new AbortController();
    const { lastFrame, stdin } = render(
      <LoginApp
        initial={{ phase: 'starting', server }}
        onCancel={() => controller.abort()}
        run={(update) => {
          update(waiting('off'));
          return new Promise((_, reject) =>
            controller.signal.addEventListener('abort', () => reject(new Error('Sign-in cancelled.'))),
          );
        }}
      />,
    );
    await vi.waitFor(() => expect(lastFrame()).toContain('Ctrl+C cancels'));
    stdin.write('\u0003');
    await vi.waitFor(() => expect(lastFrame()).toContain('✖ Not signed in.'));
    expect(controller.signal.aborted).toBe(true);
  });
});
