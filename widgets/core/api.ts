/** The API client of the portal and of widgets on partner pages. */
import { type Client, createClient } from '@shared/client/client';
import { clearSession, sessionTokens } from './session';

let signedOutHandler: () => void = () => {
  if (typeof window !== 'undefined') window.location.assign('/');
};

/** The portal sets what happens when a refresh fails (sign out of the identity provider, go to the public site). */
export function onSignedOut(handler: () => void) {
  signedOutHandler = handler;
}

const apiBase = '/api';

function make(): Client {
  return createClient({
    baseUrl: apiBase,
    device: 'WEB_APP',
    tokens: sessionTokens,
    onSignedOut: () => {
      clearSession();
      signedOutHandler();
    },
    lock:
      typeof navigator !== 'undefined' && navigator.locks
        ? (fn) => navigator.locks.request('waymark-refresh', fn)
        : undefined,
  });
}

export const client: Client = make();
