/**
 * Who is signed in: the extension tokens the portal handed over (GET /login/socket-token), kept in
 * storage.local and refreshed with POST /login/refresh for this device like any client's; the API client
 * that uses them; the tracked resources of that learner; and the end of it — forgetting the tokens, and
 * revoking them on the server with the contract's POST /login/logout.
 */
import { ApiError, type Client, createClient, type StoredTokens } from '@shared/client/client';
import { trackedResources } from '@shared/contract/activity';
import { logout } from '@shared/contract/auth';
import type { Device } from '@shared/schemas/common';
import { type TrackedList, TrackedResources } from './resources';
import type { Store } from './storage';

export interface Auth {
  token: string;
  refreshToken: string;
  /** The learner's id. */
  uuid: string;
  /** e.g. http://127.0.0.1:8080/api */
  apiBase: string;
  portalOrigin: string;
  device: Device;
  user: { name: string | null; email: string } | null;
}

/** What the portal hands over with SIGN-IN (the answer of GET /login/socket-token, and where the API is). */
export interface SignInPayload {
  extensionAccessToken: string;
  extensionRefreshToken: string;
  uuid: string;
  apiBase: string;
}

export function isSignIn(p: unknown): p is SignInPayload {
  const o = p as Partial<SignInPayload> | null;
  return (
    !!o &&
    typeof o.extensionAccessToken === 'string' &&
    typeof o.extensionRefreshToken === 'string' &&
    typeof o.uuid === 'string' &&
    typeof o.apiBase === 'string'
  );
}

/** The device the tokens were issued for (the access token says; refresh must name the same). */
export function deviceOf(token: string, fallback: Device): Device {
  try {
    const part = token.split('.')[1] ?? '';
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { dev?: string };
    if (json.dev === 'CHROME_EXTENSION' || json.dev === 'FIREFOX_EXTENSION') return json.dev;
  } catch {
    // not a JWT we can read
  }
  return fallback;
}

/**
 * The session a SIGN-IN from a portal page of `origin` starts, or null when its payload is not one: tokens
 * go only to the server of the page that handed them over.
 */
export function authFrom(payload: unknown, origin: string, fallback: Device): Auth | null {
  if (!isSignIn(payload)) return null;
  let apiBase: URL;
  try {
    apiBase = new URL(payload.apiBase);
  } catch {
    return null;
  }
  if (apiBase.origin !== origin) return null;
  return {
    token: payload.extensionAccessToken,
    refreshToken: payload.extensionRefreshToken,
    uuid: payload.uuid,
    apiBase: apiBase.toString().replace(/\/$/, ''),
    portalOrigin: origin,
    device: deviceOf(payload.extensionAccessToken, fallback),
    user: null,
  };
}

export interface SessionOptions {
  /** Runs when the server no longer accepts the tokens (a refresh failed). */
  onRevoked: () => void;
  fetch?: typeof fetch;
}

export class Session {
  auth: Auth | null = null;
  readonly tracked = new TrackedResources();
  private client: { key: string; client: Client } | null = null;

  constructor(
    private readonly store: Store,
    private readonly options: SessionOptions,
  ) {}

  async load() {
    this.auth = (await this.store.get<Auth>('auth')) ?? null;
    this.tracked.set(await this.store.get<TrackedList>('tracked'));
  }

  async save(next: Auth | null) {
    this.auth = next;
    if (next) await this.store.set('auth', next);
    else await this.store.remove('auth');
  }

  /** The API client with this session's tokens (null when signed out). */
  api(): Client | null {
    const auth = this.auth;
    if (!auth) return null;
    const key = `${auth.apiBase}|${auth.device}|${auth.uuid}`;
    if (this.client?.key === key) return this.client.client;
    const client = createClient({
      baseUrl: auth.apiBase,
      device: auth.device,
      fetch: this.options.fetch,
      tokens: {
        get: (): StoredTokens | null =>
          this.auth ? { token: this.auth.token, refreshToken: this.auth.refreshToken } : null,
        update: (t: StoredTokens) => {
          if (this.auth) void this.save({ ...this.auth, ...t });
        },
        clear: () => this.options.onRevoked(),
      },
    });
    this.client = { key, client };
    return client;
  }

  /**
   * Asks the server which resources to track (and the learner's name for the popup). Offline, the list
   * kept stays; 'refused' when the server refuses the tokens (403).
   */
  async refreshTracked(): Promise<'ok' | 'offline' | 'refused' | 'signed-out'> {
    const c = this.api();
    if (!c) return 'signed-out';
    try {
      const res = await c.call(trackedResources);
      const list: TrackedList = { resources: res.data.resources, fetchedAt: Date.now() };
      this.tracked.set(list);
      await this.store.set('tracked', list);
      const { name, email } = res.data.user;
      if (this.auth) await this.save({ ...this.auth, user: { name, email } });
      return 'ok';
    } catch (err) {
      // offline, or the server failing: keep the list we have
      return err instanceof ApiError && err.status === 403 ? 'refused' : 'offline';
    }
  }

  /** Forgets the tokens and the tracked resources (they were this learner's). */
  async forget() {
    await this.save(null);
    await this.store.remove('tracked');
    this.tracked.set(undefined);
  }

  /** Ends this device's session on the server too (POST /login/logout of the contract). */
  async revoke(auth: Auth): Promise<void> {
    const client = createClient({ baseUrl: auth.apiBase, device: auth.device, fetch: this.options.fetch });
    await client.call(logout, { body: { refreshToken: auth.refreshToken, device: auth.device } });
  }
}
