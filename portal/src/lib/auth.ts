/**
 * The portal's sign-in and sign-out: the identity provider signs the person in, the server exchanges its
 * ID token for Waymark's session, the extension is told, and the person goes where the rules say.
 */

import { signal } from '@preact/signals-react';
import { ApiError } from '@shared/client/client';
import { logout, signInWithFirebase, socketToken } from '@shared/contract/auth';
import { me } from '@shared/contract/profile';
import type { Role } from '@shared/schemas/common';
import type { User } from '@shared/schemas/user';
import { client } from '@widgets/core/api';
import { extensionReady, signInExtension, signOutExtension } from '@widgets/core/extension';
import { clearSession, session, setSession, updateUser } from '@widgets/core/session';
import { toast } from '@widgets/ui/Toast';
import type { User as FirebaseUser } from 'firebase/auth';
import { currentTranslator } from './i18n';

/** 'loading' until the current user is known; null when nobody is signed in. */
export const currentUser = signal<User | null | 'loading'>(session.peek() ? 'loading' : null);

session.subscribe((s) => {
  if (!s) currentUser.value = null;
  else if (currentUser.peek() !== 'loading') currentUser.value = s.user;
});

/** Fetches the signed-in person once at start (the guard shows a loader meanwhile). */
export async function loadCurrentUser(): Promise<void> {
  if (!session.peek()) {
    currentUser.value = null;
    return;
  }
  try {
    const res = await client.call(me);
    updateUser(res.data);
    currentUser.value = res.data;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      clearSession();
      currentUser.value = null;
    } else {
      // offline or server trouble: keep the stored profile so the portal stays usable
      currentUser.value = session.peek()?.user ?? null;
    }
  }
}

export function isVerifiedIdentity(user: FirebaseUser): boolean {
  return user.emailVerified || user.providerData.some((p) => p.providerId === 'microsoft.com');
}

/** Exchanges the identity provider's token for Waymark's session. Throws ApiError on refusal. */
export async function exchangeToken(user: FirebaseUser, opts: { role?: Role; tenantId?: string } = {}) {
  const token = await user.getIdToken(true);
  const res = await client.call(signInWithFirebase, {
    body: { token, role: opts.role, tenantId: opts.tenantId, device: 'WEB_APP' },
  });
  const { user: waymarkUser, token: accessToken, refreshToken, deletionCanceled } = res.data;
  setSession({ token: accessToken, refreshToken, user: waymarkUser });
  currentUser.value = waymarkUser;
  if (deletionCanceled) {
    const { t } = currentTranslator();
    toast(t('auth.deletionCanceled'), { kind: 'success', title: t('auth.deletionCanceledTitle') });
  }
  return waymarkUser;
}

/** Hands the learner's extension its own tokens. */
export async function connectExtension(): Promise<boolean> {
  try {
    const status = await extensionReady();
    if (!status.isPresent) return false;
    const browserType = /firefox/i.test(navigator.userAgent) ? 'firefox' : 'chrome';
    const device = browserType === 'firefox' ? 'FIREFOX_EXTENSION' : 'CHROME_EXTENSION';
    const res = await client.call(socketToken, {
      query: {
        device,
        deviceInfo: JSON.stringify({ browserType, userAgent: navigator.userAgent.slice(0, 300) }),
      },
    });
    return (await signInExtension(res.data, `${window.location.origin}/api`)) === 'LOGIN-SUCCESS';
  } catch {
    return false;
  }
}

/**
 * Signs out of Waymark, the identity provider and the extension, then goes to the public site. The page
 * learns it is signed out only at the end, in the same moment the public site is asked for: ended before the
 * identity provider's sign-out (which loads its SDK), the page redirected itself to / and then loaded / again
 * when that finished — a second navigation that overtook whatever the person had opened meanwhile.
 */
export async function signOutEverywhere(opts: { navigate?: boolean } = {}) {
  const s = session.peek();
  if (s) {
    try {
      await client.call(logout, { body: { refreshToken: s.refreshToken, device: 'WEB_APP' } });
    } catch {
      // the session ends locally whatever the server says
    }
  }
  if (s?.user.role === 'USER') await signOutExtension().catch(() => undefined);
  await signOutProvider();
  if (opts.navigate !== false) window.location.assign('/');
  clearSession();
  currentUser.value = null;
}

/** Signs out of the identity provider only (after a refused sign-in). */
export async function signOutProvider() {
  try {
    // loaded on demand: the identity provider's SDK is not part of every page
    await (await import('./firebase')).signOutOfProvider();
  } catch {
    // not signed in to the provider
  }
}
