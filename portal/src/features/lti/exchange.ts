/**
 * The launch's one-time code, exchanged once (decision 045). The launch page hands it in the address's
 * fragment — never sent to a server — and it is taken off the address at once; the exchange is kept for the
 * page's life, so a second render (React's strict mode) does not spend the code twice. A learner's session
 * is kept in memory only (widgets/core/session.ts: `keepSessionInMemory`, set before the portal starts).
 */
import { ltiStartSession } from '@shared/contract/lti';
import { me } from '@shared/contract/profile';
import type { LtiSession } from '@shared/schemas/lti';
import { client } from '@widgets/core/api';
import { setSession } from '@widgets/core/session';
import type { z } from 'zod';

export type Launch = z.infer<typeof LtiSession>;

let exchange: Promise<Launch | null> | null = null;

/** The code and state of the address's fragment, taken off the address. */
function takeFragment(): { code: string; state: string | null } | null {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const code = fragment.get('code');
  if (window.location.hash) {
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }
  return code ? { code, state: fragment.get('state') } : null;
}

async function run(): Promise<Launch | null> {
  const handed = takeFragment();
  if (!handed) return null;
  const res = await client.call(ltiStartSession, {
    body: handed.state ? { code: handed.code, state: handed.state } : { code: handed.code },
  });
  const launch = res.data;
  if (launch.session) {
    const { token, refreshToken } = launch.session;
    const user = await client.call(me, { headers: { authorization: `Bearer ${token}` } });
    setSession({ token, refreshToken, user: user.data });
  }
  return launch;
}

/** The launch this page was opened with (null: no code, e.g. the page was reloaded). */
export function launchOfPage(): Promise<Launch | null> {
  exchange ??= run();
  return exchange;
}
