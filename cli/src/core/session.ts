/**
 * The signed-in session, kept in the user's config folder: $XDG_CONFIG_HOME/waymark/session.json, or
 * ~/.config/waymark/session.json. The folder is 0700 and the file 0600 (it holds a refresh token); every
 * write replaces the file atomically. Tokens are re-read from disk on every request and a refresh runs under
 * a lock file, so two `waymark` processes never rotate the same refresh token (which the server would take
 * for theft and answer by revoking the session).
 */
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredTokens, TokenStore } from '@shared/client/client';

/** What the CLI keeps of the user: enough to say who is signed in without a request. */
export interface SessionUser {
  _id: string;
  email: string;
  role: string;
  name: string | null;
  [field: string]: unknown;
}

export interface Session {
  server: string;
  token: string;
  refreshToken: string;
  user: SessionUser;
  savedAt?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, minLength = 0): v is string => typeof v === 'string' && v.length >= minLength;

/**
 * The session a file holds, or null when it is not one (hand-checked rather than with zod: every command
 * reads the session, and zod's evaluation would be most of `waymark whoami`'s start-up).
 */
export function parseSession(value: unknown): Session | null {
  if (!isObject(value) || !isText(value.server) || !isText(value.token, 1) || !isText(value.refreshToken, 1))
    return null;
  const user = value.user;
  if (!isObject(user) || !isText(user._id) || !isText(user.email) || !isText(user.role)) return null;
  if (user.name !== null && !isText(user.name)) return null;
  if (value.savedAt !== undefined && !isText(value.savedAt)) return null;
  return {
    server: value.server,
    token: value.token,
    refreshToken: value.refreshToken,
    user: { ...user, _id: user._id, email: user.email, role: user.role, name: user.name },
    ...(value.savedAt === undefined ? {} : { savedAt: value.savedAt }),
  };
}

export function configDir(env: Record<string, string | undefined> = process.env, home = homedir()): string {
  const xdg = env.XDG_CONFIG_HOME;
  // the XDG spec says a relative path is invalid and must be ignored
  const base = xdg?.startsWith('/') ? xdg : join(home, '.config');
  return join(base, 'waymark');
}

export const sessionFile = (env: Record<string, string | undefined> = process.env, home = homedir()) =>
  join(configDir(env, home), 'session.json');

const LOCK_STALE_MS = 30_000;
const LOCK_WAIT_MS = 15_000;

/** Temporary files made by this process (their names must not repeat within it). */
let tempFiles = 0;

export class SessionStore {
  constructor(readonly file: string) {}

  /** The stored session, or null when there is none (or it cannot be read: the person signs in again). */
  load(): Session | null {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return null;
    }
    try {
      return parseSession(JSON.parse(text));
    } catch {
      return null;
    }
  }

  save(session: Session): void {
    const dir = dirname(this.file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const body = `${JSON.stringify({ ...session, savedAt: new Date().toISOString() }, null, 2)}\n`;
    // unique to this process and save (opened with 'wx' in a folder only the owner may write): no need for
    // node:crypto, whose loading every command would pay for at start (~10 ms)
    const temp = `${this.file}.${process.pid}.${Date.now().toString(36)}${(++tempFiles).toString(36)}.tmp`;
    writeFileSync(temp, body, { mode: 0o600, flag: 'wx' });
    try {
      // the umask may have narrowed the mode: make it exactly owner read and write
      chmodSync(temp, 0o600);
      renameSync(temp, this.file);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
  }

  /** Deletes the session; true when there was one. */
  clear(): boolean {
    try {
      rmSync(this.file);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The token store the shared client uses for this session: it reads the file on every request (another
   * process may have refreshed), saves rotated tokens, and deletes the file when a refresh is refused.
   */
  tokenStore(session: Session): TokenStore {
    let known = session;
    return {
      get: (): StoredTokens | null => {
        const current = this.load();
        if (!current || current.server !== known.server) return null;
        known = current;
        return { token: current.token, refreshToken: current.refreshToken };
      },
      update: (tokens: StoredTokens) => {
        const current = this.load();
        const base = current && current.server === known.server ? current : known;
        known = { ...base, token: tokens.token, refreshToken: tokens.refreshToken };
        this.save(known);
      },
      clear: () => {
        // only the session whose refresh was refused, not one a later `waymark login` saved meanwhile
        const current = this.load();
        if (current && current.refreshToken === known.refreshToken) this.clear();
      },
    };
  }

  /** Runs fn while holding the session's lock file (exclusive across processes). */
  async lock<T>(fn: () => Promise<T>): Promise<T> {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const lockFile = `${this.file}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    let fd: number | null = null;
    while (fd === null) {
      try {
        fd = openSync(lockFile, 'wx', 0o600);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        if (isStale(lockFile) || Date.now() > deadline) {
          // a process that died holding the lock: take it over
          rmSync(lockFile, { force: true });
          continue;
        }
        await sleep(50);
      }
    }
    try {
      return await fn();
    } finally {
      closeSync(fd);
      rmSync(lockFile, { force: true });
    }
  }
}

function isStale(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false;
  }
}
