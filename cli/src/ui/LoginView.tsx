/**
 * `waymark login` at a terminal: the code to approve and a live waiting line, then who signed in.
 * LoginView draws one state; LoginApp runs the sign-in, moves through the states, lets Ctrl+C cancel, and
 * exits once the last state is drawn.
 */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { type Outcome, useCtrlC, useExitWhenDone } from './render';
import { Spinner } from './Spinner';

export interface LoginUser {
  name: string | null;
  email: string;
  role: string;
}

export type BrowserStatus = 'opening' | 'opened' | 'unavailable' | 'off';

export type LoginState =
  | { phase: 'starting'; server: string }
  | {
      phase: 'waiting';
      server: string;
      verificationUrl: string;
      userCode: string;
      /** Epoch milliseconds when the code stops working. */
      expiresAt: number;
      browser: BrowserStatus;
    }
  | { phase: 'signing-in'; server: string; email: string }
  | { phase: 'done'; server: string; user: LoginUser; deletionCanceled?: boolean }
  | { phase: 'failed'; server: string };

const remaining = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

function useNow(active: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

import { describeUser } from '../core/labels';

export { describeUser };

export function LoginView({ state }: { state: LoginState }) {
  const now = useNow(state.phase === 'waiting');
  switch (state.phase) {
    case 'starting':
      return <Spinner label={`Asking ${state.server} for a sign-in code…`} />;
    case 'waiting':
      return (
        <Box flexDirection="column">
          <Text>To sign in, open this page in a browser where you are signed in to Waymark:</Text>
          <Box marginLeft={2} marginY={1} flexDirection="column">
            <Text color="cyan" underline>
              {state.verificationUrl}
            </Text>
            <Text>
              and approve the code <Text bold>{state.userCode}</Text>
            </Text>
          </Box>
          {state.browser === 'opened' && <Text dimColor>Opened your browser.</Text>}
          {state.browser === 'unavailable' && (
            <Text dimColor>Could not open a browser here: open the link yourself.</Text>
          )}
          <Spinner
            label={`Waiting for approval (the code expires in ${remaining(state.expiresAt - now)}). Ctrl+C cancels.`}
          />
        </Box>
      );
    case 'signing-in':
      return <Spinner label={`Signing in to ${state.server} as ${state.email}…`} />;
    case 'done':
      return (
        <Box flexDirection="column">
          <Text>
            <Text color="green">✔</Text> Signed in to {state.server} as {describeUser(state.user)}
          </Text>
          {state.deletionCanceled && (
            <Text color="yellow">The scheduled deletion of this account has been cancelled.</Text>
          )}
        </Box>
      );
    case 'failed':
      return (
        // why goes to standard error, where scripts and people both find it
        <Text>
          <Text color="red">✖</Text> Not signed in.
        </Text>
      );
  }
}

export interface LoginAppProps {
  initial: LoginState;
  /** Does the sign-in, reporting each state; resolves with the final (done) state. */
  run: (update: (state: LoginState) => void) => Promise<Extract<LoginState, { phase: 'done' }>>;
  /** Ctrl+C: abort the sign-in (run then rejects). */
  onCancel: () => void;
}

export function LoginApp({ initial, run, onCancel }: LoginAppProps) {
  const [state, setState] = useState<LoginState>(initial);
  const [outcome, setOutcome] = useState<Outcome>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the sign-in runs once, when the view mounts
  useEffect(() => {
    let live = true;
    run((next) => live && setState(next)).then(
      (done) => {
        if (!live) return;
        setState(done);
        setOutcome({ ok: true });
      },
      (error: unknown) => {
        if (!live) return;
        setState({ phase: 'failed', server: initial.server });
        setOutcome({ error });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  useExitWhenDone(outcome);
  useCtrlC(onCancel, outcome === null);

  return <LoginView state={state} />;
}
