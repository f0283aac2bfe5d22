/**
 * Sending the offline queue to POST /activity/heartbeats: every 2 minutes or once 20 heartbeats wait (the
 * server's cost is per request; nothing reads today's time sooner except the popup, which sends first), at
 * once on sign-in and sign-out, in batches of ≤ 100 (queue.ts), after a failure with backoff — an alarm
 * wakes the background for the next attempt.
 */
import { ApiError, NetworkError } from '@shared/client/client';
import { sendHeartbeats } from '@shared/contract/activity';
import { backoffMs, flushQueue, type HeartbeatQueue, type KeyValueStore } from './queue';
import type { Session } from './session';

export const SEND_EVERY_MS = 120_000;
export const SEND_WHEN_QUEUED = 20;

interface FlushState {
  failures: number;
  nextAttemptAt: number;
  /** When the queue was last emptied, unix ms. */
  lastSentAt?: number;
}

export interface SenderOptions {
  store: KeyValueStore;
  queue: HeartbeatQueue;
  session: Session;
  /** Wakes the background at `when` (unix ms) to try again: an alarm. */
  retryAt: (when: number) => Promise<void>;
  /** The server refused the tokens. */
  onRefused: () => Promise<void>;
  /** Resolves once the session is loaded from storage. */
  ready?: Promise<void>;
  now?: () => number;
}

export class Sender {
  private flushing: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(private readonly o: SenderOptions) {
    this.now = o.now ?? Date.now;
  }

  private async state(): Promise<FlushState> {
    return (await this.o.store.get<FlushState>('flushState')) ?? { failures: 0, nextAttemptAt: 0 };
  }

  /** Forgets earlier failures (a new sign-in). */
  async reset() {
    await this.o.store.set('flushState', { failures: 0, nextAttemptAt: 0 });
  }

  /** Sends when it is time to (see above). */
  async whenDue() {
    await this.o.ready;
    const user = this.o.session.auth?.uuid;
    if (!user) return;
    const state = await this.state();
    if (
      this.now() - (state.lastSentAt ?? 0) >= SEND_EVERY_MS ||
      (await this.o.queue.size(user)) >= SEND_WHEN_QUEUED
    ) {
      await this.flush();
    }
  }

  /** Sends everything now (one flush at a time: a second call waits for the one running). */
  flush(): Promise<void> {
    this.flushing ??= this.run().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async run() {
    await this.o.ready;
    const c = this.o.session.api();
    const user = this.o.session.auth?.uuid;
    if (!c || !user) return;
    const state = await this.state();
    if (this.now() < state.nextAttemptAt) {
      await this.o.retryAt(state.nextAttemptAt);
      return;
    }
    const result = await flushQueue(this.o.queue, user, async (batch) => {
      try {
        await c.call(sendHeartbeats, { body: { heartbeats: batch } });
        return { kind: 'ok' };
      } catch (err) {
        if (err instanceof NetworkError) return { kind: 'retry' };
        if (err instanceof ApiError) {
          if (err.status === 400) return { kind: 'invalid' };
          if (err.status === 401 || err.status === 403) return { kind: 'signed-out' };
        }
        return { kind: 'retry' };
      }
    });
    if (result.kind === 'retry') {
      const failures = state.failures + 1;
      const nextAttemptAt = this.now() + backoffMs(failures);
      await this.o.store.set('flushState', { failures, nextAttemptAt });
      await this.o.retryAt(nextAttemptAt);
    } else if (result.kind === 'signed-out') {
      await this.o.onRefused();
    } else {
      await this.o.store.set('flushState', { failures: 0, nextAttemptAt: 0, lastSentAt: this.now() });
    }
  }
}
