/**
 * Reports the test's focus record while it runs (POST /testlink/activity; the rules are
 * shared/rules/integrity.ts): the page left and back (window blur and focus, the tab hidden and shown),
 * a paste into an answer (its length only), a second tab of the test, the connection lost and back.
 * Events are sent one at a time in order, each with an id (sent twice, recorded once) and the page's time
 * of the event and of sending, so the server places an event that waited offline at its own time. A
 * failed send is retried with a growing pause, and at once when the browser is back online.
 */
import { ApiError } from '@shared/client/client';
import type { FocusEventType } from '@shared/rules/integrity';

export interface ActivityPayload {
  type: FocusEventType;
  timeStamp: number;
  sentAt: number;
  id: string;
  question?: number;
  chars?: number;
}

export interface ReporterOptions {
  send(event: ActivityPayload): Promise<unknown>;
  now?: () => number;
  retryDelays?: readonly number[];
}

const RETRY_DELAYS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;

const eventId = () =>
  (globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`)
    .replace(/[^A-Za-z0-9_-]/g, '')
    .slice(0, 40);

export class FocusReporter {
  readonly #o: ReporterOptions;
  readonly #queue: Omit<ActivityPayload, 'sentAt'>[] = [];
  #sending = false;
  #stopped = false;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #idle: (() => void)[] = [];

  constructor(options: ReporterOptions) {
    this.#o = options;
  }

  #now() {
    return this.#o.now?.() ?? Date.now();
  }

  record(type: FocusEventType, question?: number, chars?: number) {
    if (this.#stopped) return;
    this.#queue.push({
      type,
      timeStamp: this.#now(),
      id: eventId(),
      ...(question ? { question } : {}),
      ...(chars !== undefined ? { chars } : {}),
    });
    void this.#pump();
  }

  /** Events not sent yet. */
  pending(): number {
    return this.#queue.length;
  }

  /** Tries now (the browser is back online). */
  retryNow() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    void this.#pump();
  }

  /** Resolves once everything is sent, or after `timeoutMs`. */
  flush(timeoutMs = 1_500): Promise<void> {
    this.retryNow();
    if (this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, timeoutMs);
      this.#idle.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  stop() {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    for (const done of this.#idle.splice(0)) done();
  }

  async #pump() {
    if (this.#sending || this.#stopped || this.#timer) return;
    this.#sending = true;
    try {
      while (this.#queue.length > 0 && !this.#stopped) {
        const next = this.#queue[0]!;
        try {
          await this.#o.send({ ...next, sentAt: this.#now() });
          this.#queue.shift();
          this.#attempt = 0;
        } catch (err) {
          if (err instanceof ApiError && err.status < 500) {
            // refused (the test is over, or the event is bad): nothing to retry
            if (err.status === 409 || err.status === 410 || err.status === 403 || err.status === 404) {
              this.#queue.length = 0;
            } else this.#queue.shift();
            continue;
          }
          const delays = this.#o.retryDelays ?? RETRY_DELAYS;
          const delay = delays[Math.min(this.#attempt, delays.length - 1)] ?? 1_000;
          this.#attempt++;
          this.#timer = setTimeout(() => {
            this.#timer = null;
            void this.#pump();
          }, delay);
          return;
        }
      }
    } finally {
      this.#sending = false;
      if (this.#queue.length === 0) for (const done of this.#idle.splice(0)) done();
    }
  }
}

/** Whether the learner is on the test: its tab shown and its window focused. */
export const isPresent = () =>
  typeof document === 'undefined' || (document.visibilityState !== 'hidden' && document.hasFocus());
