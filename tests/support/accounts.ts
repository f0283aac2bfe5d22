/**
 * Fresh accounts for a spec of its own: a verified e-mail/password account made through the Auth
 * emulator's REST API, signed up with POST /api/login/sign-in-with-firebase and its basic profile saved,
 * with a typed API client (shared/client/client.ts) that refreshes the server's 6-second tokens. No spec
 * signs in as the demo accounts of the seed, so none depends on the seed's activity or on another spec.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { type Client, createClient, type StoredTokens } from '../../shared/client/client';
import { signInWithFirebase } from '../../shared/contract/auth';
import { basicProfile } from '../../shared/contract/profile';
import type { Device } from '../../shared/schemas/common';
import type { Session } from '../../shared/schemas/user';
import { runEmulator, uniqueEmail } from './emulator';

/** The password of every account a spec makes. */
export const PASSWORD = 'Str0ng!Pass';

/** The server of this run (started by the global setup). */
export const baseUrl = () => {
  const url = process.env.WAYMARK_E2E_BASE_URL;
  if (!url) throw new Error('WAYMARK_E2E_BASE_URL is not set: run the tests through Playwright');
  return url;
};

/** A client of its own for one session and device; it refreshes (and keeps) the rotated tokens. */
export function apiClient(tokens: StoredTokens | null, device: Device = 'WEB_APP'): Client {
  let current = tokens;
  return createClient({
    baseUrl: `${baseUrl()}/api`,
    device,
    tokens: {
      get: () => current,
      update: (t) => {
        current = t;
      },
      clear: () => {
        current = null;
      },
    },
  });
}

/**
 * A new session of an account that the emulator knows: an ID token from the emulator exchanged for
 * Waymark's tokens. With `role`, a first sign-in registers the person.
 */
export async function signIn(
  email: string,
  opts: { password?: string; role?: 'USER' | 'TENANT'; device?: Device } = {},
): Promise<{ api: Client; session: Session }> {
  const device = opts.device ?? 'WEB_APP';
  const idToken = await runEmulator().idToken(email, opts.password ?? PASSWORD);
  const signedIn = (
    await apiClient(null, device).call(signInWithFirebase, {
      body: { token: idToken, role: opts.role, device },
    })
  ).data;
  const session = { token: signedIn.token, refreshToken: signedIn.refreshToken, user: signedIn.user };
  return { api: apiClient({ token: session.token, refreshToken: session.refreshToken }, device), session };
}

let phones = Date.now() % 1e9;
/** An Indian mobile number (ten digits) that no other account of this run uses. */
export const uniquePhone = () => `9${String(++phones % 1e9).padStart(9, '0')}`;

export interface Account {
  id: string;
  email: string;
  password: string;
  name: string;
  role: 'USER' | 'TENANT';
  /** The mobile number of the basic profile (ten digits). */
  phone: string;
  /** The account's own API session (WEB_APP). */
  api: Client;
}

/**
 * A new verified account signed up as a learner (`USER`, the default) or a mentor (`TENANT`, 'I am' a
 * mentor), its basic profile saved: it signs in straight to /my-roadmaps (or /portal/users).
 */
export async function newAccount(
  opts: { role?: 'USER' | 'TENANT'; prefix?: string; name?: string } = {},
): Promise<Account> {
  const role = opts.role ?? 'USER';
  const email = uniqueEmail(opts.prefix ?? (role === 'TENANT' ? 'mentor' : 'learner'));
  const name = opts.name ?? (role === 'TENANT' ? 'Test Mentor' : 'Test Learner');
  await runEmulator().createAccount(email, PASSWORD, { verified: true, displayName: name });
  const { api, session } = await signIn(email, { role });
  const phone = uniquePhone();
  await api.call(basicProfile, {
    query: { page: 'basic_profile_page' },
    body: { name, phoneNumber: phone, phoneCountry: 'IN', ...(role === 'TENANT' ? { iam: 'MENTOR' } : {}) },
  });
  return { id: session.user._id, email, password: PASSWORD, name, role, phone, api };
}

/**
 * A browser context whose portal is signed in as the account: a session of its own, stored the way the
 * portal stores it (for tests that are not about signing in).
 */
export async function signedInContext(
  browser: Browser,
  account: Pick<Account, 'email' | 'password'>,
  opts: { width?: number } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: opts.width ?? 1280, height: 900 },
  });
  const page = await context.newPage();
  const { session } = await signIn(account.email, { password: account.password });
  await page.goto('/privacy_policy');
  await page.evaluate((s) => localStorage.setItem('waymark.session', JSON.stringify(s)), session);
  return { context, page };
}
