/** The API client of the portal and of widgets on partner pages. */
import { type Client, createClient } from '@shared/client/client';
import { interfaceLanguage } from './language';
import { clearSession, sessionTokens } from './session';

let signedOutHandler: () => void = () => {
  if (typeof window !== 'undefined') window.location.assign('/');
};

/** The portal sets what happens when a refresh fails (sign out of the identity provider, go to the public site). */
export function onSignedOut(handler: () => void) {
  signedOutHandler = handler;
}

const apiBase = '/api';

/**
 * Runs `fn` holding the Web Lock `name`; where the browser refuses locks to this page (SecurityError: a page
 * framed by another site with third-party storage blocked, as an LMS frames a launch), `fn` runs alone —
 * such a page shares its session with no other tab.
 */
export async function underLock<T>(
  locks: Pick<LockManager, 'request'>,
  name: string,
  fn: () => Promise<T>,
): Promise<T> {
  let ran = false;
  try {
    return (await locks.request(name, () => {
      ran = true;
      return fn();
    })) as T;
  } catch (err) {
    if (!ran && (err as Error)?.name === 'SecurityError') return fn();
    throw err;
  }
}

function make(): Client {
  return createClient({
    baseUrl: apiBase,
    device: 'WEB_APP',
    tokens: sessionTokens,
    language: () => interfaceLanguage.peek(),
    onSignedOut: () => {
      clearSession();
      signedOutHandler();
    },
    lock:
      typeof navigator !== 'undefined' && navigator.locks
        ? (fn) => underLock(navigator.locks, 'waymark-refresh', fn)
        : undefined,
  });
}

export const client: Client = make();
