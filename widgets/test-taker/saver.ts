/**
 * Saves each answer on the server as it is given (PUT /testlink/{id}/answer): typing is debounced, one
 * request per question is in flight at a time and the newest value always wins, a failed save is retried
 * with a growing pause (and at once when the browser comes back online), and what is not saved yet can
 * be kept by the page (session storage) so a reload loses nothing. A server shedding load (503, or 429)
 * is waited for as long as its Retry-After says, with the answer kept (issue 15).
 */
import { ApiError } from '@shared/client/client';
import type { AnswerPayload } from './answers';

export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

export interface SaveStatus {
  state: SaveState;
  /** Answers not confirmed by the server yet. */
  unsaved: number;
  /** When failed: the next attempt, in ms since the epoch. */
  retryAt: number | null;
}

export interface SaverOptions {
  send(answer: AnswerPayload): Promise<unknown>;
  /** Every change of the status. */
  onStatus?(status: SaveStatus): void;
  /** The test cannot take answers any more (time up, completed, expired, not yours): saving stops. */
  onFatal?(error: ApiError): void;
  /** Pauses before the attempts after a failure (ms); the last one repeats. */
  retryDelays?: readonly number[];
}

export const RETRY_DELAYS = [1_000, 2_000, 5_000, 10_000, 20_000] as const;
/** Typing is saved this long after the last key. */
export const TYPING_DEBOUNCE_MS = 700;

/** Refusals that end saving: the test is over, not started, gone, or someone else's. */
export const isFatal = (err: unknown): err is ApiError =>
  err instanceof ApiError && [403, 404, 409, 410].includes(err.status);
/** The server is busy (shedding load, or too many requests): the answer is kept and sent again later. */
export const isBusy = (err: unknown): err is ApiError =>
  err instanceof ApiError && (err.status === 503 || err.status === 429);
/** A refusal of this one answer (it is dropped; retrying would not help). */
const isRejected = (err: unknown) =>
  err instanceof ApiError && err.status >= 400 && err.status < 500 && !isBusy(err);

export class AnswerSaver {
  readonly #opts: SaverOptions;
  /** The newest value of each question not confirmed yet. */
  readonly #wanted = new Map<string, AnswerPayload>();
  readonly #sending = new Set<string>();
  readonly #failed = new Set<string>();
  readonly #typing = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #idle: (() => void)[] = [];
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  #retryAt: number | null = null;
  #attempt = 0;
  #saved = false;
  #stopped = false;

  constructor(opts: SaverOptions) {
    this.#opts = opts;
  }

  /** Saves an answer now, or after `delayMs` without a newer value (typing). */
  put(answer: AnswerPayload, delayMs = 0) {
    if (this.#stopped) return;
    const id = answer.questionId;
    this.#wanted.set(id, answer);
    this.#failed.delete(id);
    const timer = this.#typing.get(id);
    if (timer) clearTimeout(timer);
    this.#typing.delete(id);
    if (delayMs > 0) {
      this.#typing.set(
        id,
        setTimeout(() => {
          this.#typing.delete(id);
          void this.#send(id);
        }, delayMs),
      );
      this.#report();
    } else void this.#send(id);
  }

  /** Sends what is waiting (typing, failed) at once; resolves true when everything is saved. */
  flush(timeoutMs = 5_000): Promise<boolean> {
    for (const [id, timer] of this.#typing) {
      clearTimeout(timer);
      this.#typing.delete(id);
      void this.#send(id);
    }
    this.retryNow();
    if (this.#busy() === false) return Promise.resolve(this.#wanted.size === 0);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.#wanted.size === 0), timeoutMs);
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve(this.#wanted.size === 0);
      });
    });
  }

  /** Retries the failed answers now (the Retry button, the browser coming back online). */
  retryNow() {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#retryAt = null;
    const failed = [...this.#failed];
    this.#failed.clear();
    for (const id of failed) void this.#send(id);
  }

  /** The answers the server has not confirmed yet. */
  unsaved(): AnswerPayload[] {
    return [...this.#wanted.values()];
  }

  status(): SaveStatus {
    const unsaved = this.#wanted.size;
    if (this.#failed.size > 0) return { state: 'failed', unsaved, retryAt: this.#retryAt };
    if (this.#sending.size > 0 || this.#typing.size > 0) return { state: 'saving', unsaved, retryAt: null };
    return { state: this.#saved ? 'saved' : 'idle', unsaved, retryAt: null };
  }

  /** Stops every timer; nothing more is sent. */
  stop() {
    this.#stopped = true;
    for (const timer of this.#typing.values()) clearTimeout(timer);
    this.#typing.clear();
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#settleWaiters();
  }

  #busy() {
    return this.#sending.size > 0 || this.#typing.size > 0;
  }

  async #send(id: string) {
    // the request in flight sends the newest value when it returns
    if (this.#stopped || this.#sending.has(id)) return;
    const answer = this.#wanted.get(id);
    if (!answer) return;
    this.#sending.add(id);
    this.#report();
    try {
      await this.#opts.send(answer);
      if (this.#wanted.get(id) === answer) this.#wanted.delete(id);
      this.#saved = true;
      this.#attempt = 0;
    } catch (err) {
      if (isFatal(err)) {
        this.stop();
        this.#sending.delete(id);
        this.#report();
        this.#opts.onFatal?.(err);
        return;
      }
      if (isRejected(err)) {
        // this answer was refused as it is: a newer one may still come
        if (this.#wanted.get(id) === answer) this.#wanted.delete(id);
      } else if (this.#wanted.get(id) === answer) {
        this.#failed.add(id);
        this.#scheduleRetry(isBusy(err) ? (err.retryAfter ?? 0) * 1000 : 0);
      }
    } finally {
      this.#sending.delete(id);
    }
    const newer = this.#wanted.get(id);
    if (newer && newer !== answer && !this.#typing.has(id) && !this.#failed.has(id)) void this.#send(id);
    this.#report();
    if (!this.#busy()) this.#settleWaiters();
  }

  /** The next attempt after the growing pause, or after what the server asked for when that is longer. */
  #scheduleRetry(serverAsksMs = 0) {
    if (this.#retryTimer || this.#stopped) return;
    const delays = this.#opts.retryDelays ?? RETRY_DELAYS;
    const delay = Math.max(serverAsksMs, delays[Math.min(this.#attempt, delays.length - 1)] ?? 1_000);
    this.#attempt++;
    this.#retryAt = Date.now() + delay;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.retryNow();
    }, delay);
  }

  #settleWaiters() {
    for (const done of this.#idle.splice(0)) done();
  }

  #report() {
    this.#opts.onStatus?.(this.status());
  }
}
