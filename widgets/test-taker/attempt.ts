/**
 * The attempt token this browser holds for a test (decision 031): made here when the learner presses Start,
 * sent with the start, which binds the attempt to it, and with every answer, focus-record event and
 * evaluation of the attempt. Kept in local storage, one entry per link, so that every tab of this browser
 * has it (the tab in charge writes: tab-charge.ts) and a reload, a lost connection or a tab closed and
 * opened again resumes the test; the link id alone, in another browser, writes nothing. An entry is kept
 * until a day after the test's deadline (the score shown again after a reload needs it), then dropped.
 * Without local storage (blocked, full) the token lives as long as the page.
 */
import { newAttemptToken } from '@shared/rules/attempt-token';

interface Entry {
  token: string;
  /** When it may be dropped (ms since the epoch); null until the start says the deadline. */
  until: number | null;
}

const PREFIX = 'waymark.attempt.';
const KEEP_AFTER_DEADLINE_MS = 24 * 3600_000;
/** An entry never told its deadline (a start that did not answer) is dropped after this long. */
const KEEP_UNTOLD_MS = 7 * 24 * 3600_000;

/** What the page keeps when local storage cannot (blocked, full). */
const fallback = new Map<string, Entry>();

const storage = (): Storage | null => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
};

function read(linkId: string): Entry | null {
  try {
    const raw = storage()?.getItem(PREFIX + linkId);
    if (raw) {
      const value = JSON.parse(raw) as Partial<Entry> & { made?: number };
      if (typeof value.token === 'string') return { token: value.token, until: value.until ?? null };
    }
  } catch {
    // unreadable: the page's own copy, if any
  }
  return fallback.get(linkId) ?? null;
}

function write(linkId: string, entry: Entry) {
  try {
    const s = storage();
    if (s) {
      s.setItem(PREFIX + linkId, JSON.stringify({ ...entry, made: Date.now() }));
      fallback.delete(linkId);
      return;
    }
  } catch {
    // blocked or full: the page's copy serves until it closes
  }
  fallback.set(linkId, entry);
}

/** The token this browser holds for the link's attempt, or null. */
export function attemptTokenOf(linkId: string): string | null {
  return read(linkId)?.token ?? null;
}

/**
 * The token to start the link with: the one this browser made for it already (a start whose answer was lost
 * is asked again with the same token, and is the same start), else a new one, kept first.
 */
export function tokenForStart(linkId: string): string {
  const held = read(linkId);
  if (held) return held.token;
  prune();
  const token = newAttemptToken();
  write(linkId, { token, until: null });
  return token;
}

/** A new token for the link, replacing any held (continuing here a test another browser holds). */
export function newTokenFor(linkId: string): string {
  prune();
  const token = newAttemptToken();
  write(linkId, { token, until: null });
  return token;
}

/** Keeps the link's token until a day after the test's deadline. */
export function keepUntilDeadline(linkId: string, deadlineAt: string | null) {
  const held = read(linkId);
  if (!held || !deadlineAt) return;
  write(linkId, { token: held.token, until: Date.parse(deadlineAt) + KEEP_AFTER_DEADLINE_MS });
}

/** Drops the entries of tests long over. */
export function prune(now = Date.now()) {
  const s = storage();
  if (!s) return;
  try {
    for (let i = s.length - 1; i >= 0; i--) {
      const key = s.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      let drop = true;
      try {
        const value = JSON.parse(s.getItem(key) ?? '') as Partial<Entry> & { made?: number };
        const until = value.until ?? (value.made ?? 0) + KEEP_UNTOLD_MS;
        drop = typeof value.token !== 'string' || until < now;
      } catch {
        // not ours to read: dropped
      }
      if (drop) s.removeItem(key);
    }
  } catch {
    // storage unavailable meanwhile: nothing to drop
  }
}
