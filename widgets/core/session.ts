/**
 * The signed-in session, shared by the portal and every widget on a page: a signal backed by localStorage
 * ({token, refreshToken, user}), kept in step across tabs through the storage event.
 */
import { signal } from '@preact/signals-react';
import type { StoredTokens, TokenStore } from '@shared/client/client';
import { Session, type User } from '@shared/schemas/user';

export const SESSION_KEY = 'waymark.session';

/**
 * A page framed by an LMS (an LTI launch, decision 045) keeps its session in memory only: its storage may be
 * blocked or partitioned there, and where it is not, the launch's limited session must neither replace
 * nor read the person's own Waymark session of the first-party site.
 */
let memoryOnly = false;

function read(): Session | null {
  if (memoryOnly) return null;
  try {
    const raw = globalThis.localStorage?.getItem(SESSION_KEY);
    if (!raw) return null;
    const parsed = Session.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const session = signal<Session | null>(read());

function write(next: Session | null) {
  session.value = next;
  if (memoryOnly) return;
  try {
    if (next) localStorage.setItem(SESSION_KEY, JSON.stringify(next));
    else localStorage.removeItem(SESSION_KEY);
  } catch {
    // storage unavailable (private mode): the session lives in memory only
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === SESSION_KEY && !memoryOnly) session.value = read();
  });
}

/** From now on this page's session lives in memory only, starting empty (see `memoryOnly`). */
export function keepSessionInMemory() {
  memoryOnly = true;
  session.value = null;
}

export function setSession(next: Session) {
  write(next);
}

export function updateUser(user: User) {
  const current = session.peek();
  if (current) write({ ...current, user });
}

export function clearSession() {
  write(null);
}

/** The client's view of the session: tokens only. Reads storage each time so tabs share refreshed tokens. */
export const sessionTokens: TokenStore = {
  get(): StoredTokens | null {
    const s = read() ?? session.peek();
    return s ? { token: s.token, refreshToken: s.refreshToken } : null;
  },
  update(tokens) {
    const current = read() ?? session.peek();
    if (current) write({ ...current, ...tokens });
  },
  clear() {
    write(null);
  },
};
