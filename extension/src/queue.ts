/**
 * The offline queue: heartbeats wait in extension storage (which survives the service worker being stopped
 * and the browser restarting) until the server acknowledges them. Sent oldest first in batches of at most
 * 100; a failure waits longer each time (5 s doubling to 30 min, with jitter).
 */
import { MAX_BATCH } from '@shared/rules/heartbeats';
import { Heartbeat } from '@shared/schemas/activity';

export interface QueuedBeat {
  id: string;
  resourceId: string;
  url: string;
  time: number;
  tabActive: boolean;
  audible: boolean;
  /** The learner it belongs to: never sent with another learner's tokens. */
  user: string;
}

/** Where the queue lives: extension storage, or a Map in tests. */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

const KEY = 'queue';
/** Most heartbeats kept (about 40 hours of one tab); the oldest go first. */
export const MAX_QUEUED = 5000;
/**
 * Most bytes kept (as JSON, the way Chromium counts its 10 MB storage.local quota; Firefox has none for
 * storage.local): 5000 heartbeats of 2048-character addresses would not fit, so the oldest go first.
 */
export const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/** The newest heartbeats that fit in `bytes` (as a JSON array) and in MAX_QUEUED. */
function newestWithin(beats: readonly QueuedBeat[], bytes: number): QueuedBeat[] {
  let size = 2;
  let from = beats.length;
  while (from > 0 && beats.length - from < MAX_QUEUED) {
    const next = JSON.stringify(beats[from - 1]).length + 1;
    if (size + next > bytes) break;
    size += next;
    from--;
  }
  return beats.slice(from);
}

export class HeartbeatQueue {
  private chain: Promise<unknown> = Promise.resolve();
  constructor(private readonly store: KeyValueStore) {}

  /** Runs read-modify-write steps one at a time. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<QueuedBeat[]> {
    return (await this.store.get<QueuedBeat[]>(KEY)) ?? [];
  }

  add(beats: readonly QueuedBeat[]): Promise<number> {
    return this.serial(async () => {
      if (beats.length === 0) return (await this.read()).length;
      let kept = newestWithin([...(await this.read()), ...beats], MAX_QUEUED_BYTES);
      // a storage smaller than we count on refuses the write (a quota error): keep the newer half and retry
      for (;;) {
        try {
          await this.store.set(KEY, kept);
          return kept.length;
        } catch (err) {
          if (kept.length === 0) throw err;
          kept = kept.slice(Math.ceil(kept.length / 2));
        }
      }
    });
  }

  /** The oldest `n` heartbeats of a learner. */
  peek(user: string, n = MAX_BATCH): Promise<QueuedBeat[]> {
    return this.serial(async () => (await this.read()).filter((b) => b.user === user).slice(0, n));
  }

  remove(ids: ReadonlySet<string>): Promise<void> {
    return this.serial(async () => {
      await this.store.set(
        KEY,
        (await this.read()).filter((b) => !ids.has(b.id)),
      );
    });
  }

  /** Drops what belongs to anyone but `user` (another learner signed in on this browser). */
  keepOnly(user: string | null): Promise<void> {
    return this.serial(async () => {
      await this.store.set(
        KEY,
        (await this.read()).filter((b) => b.user === user),
      );
    });
  }

  size(user?: string): Promise<number> {
    return this.serial(async () => (await this.read()).filter((b) => !user || b.user === user).length);
  }
}

/** How a batch went. */
export type SendOutcome =
  | { kind: 'ok' }
  /** Offline, the server busy or failing: try again later. */
  | { kind: 'retry' }
  /** The server refused the batch as invalid (400). */
  | { kind: 'invalid' }
  /** The tokens no longer work. */
  | { kind: 'signed-out' };

export type FlushResult =
  | { kind: 'done'; sent: number }
  | { kind: 'retry'; sent: number }
  | { kind: 'signed-out'; sent: number };

/** Sends the learner's queue in batches until it is empty or a batch fails. */
export async function flushQueue(
  queue: HeartbeatQueue,
  user: string,
  send: (batch: Omit<QueuedBeat, 'user'>[]) => Promise<SendOutcome>,
): Promise<FlushResult> {
  let sent = 0;
  for (;;) {
    const batch = await queue.peek(user, MAX_BATCH);
    if (batch.length === 0) return { kind: 'done', sent };
    const body = batch.map(({ user: _user, ...beat }) => beat);
    const outcome = await send(body);
    if (outcome.kind === 'retry') return { kind: 'retry', sent };
    if (outcome.kind === 'signed-out') return { kind: 'signed-out', sent };
    if (outcome.kind === 'invalid') {
      // drop what our own schema refuses; if nothing, the batch as a whole cannot be fixed by resending
      const invalid = body.filter((b) => !Heartbeat.safeParse(b).success).map((b) => b.id);
      await queue.remove(new Set(invalid.length ? invalid : body.map((b) => b.id)));
      continue;
    }
    await queue.remove(new Set(body.map((b) => b.id)));
    sent += body.length;
  }
}

/** Wait before the next attempt after `failures` failures in a row: 5 s doubling to 30 min, 50–100 %. */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const base = Math.min(30 * 60_000, 5000 * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.5 + random() / 2));
}
