/**
 * The learner's client for <wm-dashboard>: on a page of the Waymark origin, the portal's stored session
 * (localStorage, the same key and shape as widgets/core/session.ts) read without its zod schemas, so the
 * element file stays small; refreshes take the portal's lock, so a tab of the portal and the element never
 * rotate the same refresh token. On a partner's page, the session the page gave the element (its `session`
 * property), kept in memory and refreshed there.
 */
import { type Client, createClient, type StoredTokens, type TokenStore } from '@shared/client/client';

/** widgets/core/session.ts SESSION_KEY (session-client.test.ts keeps them equal). */
export const SESSION_KEY = 'waymark.session';

function read(): (StoredTokens & Record<string, unknown>) | null {
  try {
    const value = JSON.parse(globalThis.localStorage?.getItem(SESSION_KEY) ?? 'null') as Record<
      string,
      unknown
    > | null;
    if (value && typeof value.token === 'string' && typeof value.refreshToken === 'string') {
      return value as StoredTokens & Record<string, unknown>;
    }
  } catch {
    // no storage, or not ours
  }
  return null;
}

export const hasStoredSession = () => read() !== null;

const tokens: TokenStore = {
  get() {
    const s = read();
    return s ? { token: s.token, refreshToken: s.refreshToken } : null;
  },
  update(next) {
    const s = read();
    if (s) localStorage.setItem(SESSION_KEY, JSON.stringify({ ...s, ...next }));
  },
  clear() {
    localStorage.removeItem(SESSION_KEY);
  },
};

export function sessionClient(base: string): Client {
  return createClient({
    baseUrl: `${base.replace(/\/$/, '')}/api`,
    device: 'WEB_APP',
    tokens,
    lock:
      typeof navigator !== 'undefined' && navigator.locks
        ? (fn) => navigator.locks.request('waymark-refresh', fn)
        : undefined,
  });
}

/** The tokens a page gives <wm-dashboard> (its `session` property): the sign-in exchange's answer. */
export interface GivenSession {
  token: string;
  refreshToken: string;
}

/** The `session` property's value when it is one, else null (nothing set, or not a session). */
export function givenSession(value: unknown): GivenSession | null {
  if (!value || typeof value !== 'object') return null;
  const { token, refreshToken } = value as Record<string, unknown>;
  return typeof token === 'string' && token && typeof refreshToken === 'string' && refreshToken
    ? { token, refreshToken }
    : null;
}

/**
 * A client of a given session, held in memory only (never stored on the partner's origin): a refresh
 * rotates it in place; a refused one ends it and calls `onEnded`.
 */
export function givenSessionClient(base: string, session: GivenSession, onEnded: () => void): Client {
  let current: GivenSession | null = { ...session };
  return createClient({
    baseUrl: `${base.replace(/\/$/, '')}/api`,
    device: 'WEB_APP',
    tokens: {
      get: () => current,
      update(next) {
        current = { ...next };
      },
      clear() {
        current = null;
      },
    },
    onSignedOut: onEnded,
  });
}
