import { ApiError, NetworkError } from '@shared/client/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnswerPayload } from './answers';
import { AnswerSaver, type SaveStatus } from './saver';

interface Pending {
  answer: AnswerPayload;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function harness(retryDelays = [1_000, 2_000]) {
  const sent: Pending[] = [];
  const statuses: SaveStatus[] = [];
  const fatal: ApiError[] = [];
  const saver = new AnswerSaver({
    send: (answer) =>
      new Promise<void>((resolve, reject) => {
        sent.push({ answer, resolve, reject });
      }),
    onStatus: (s) => statuses.push(s),
    onFatal: (e) => fatal.push(e),
    retryDelays,
  });
  return { saver, sent, statuses, fatal, last: () => statuses.at(-1)! };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

async function flushMicrotasks() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('saving answers as they are given', () => {
  it('debounces typing and sends the newest value', async () => {
    const h = harness();
    h.saver.put({ questionId: 'q', answer: 'k' }, 700);
    h.saver.put({ questionId: 'q', answer: 'ke' }, 700);
    h.saver.put({ questionId: 'q', answer: 'keys' }, 700);
    expect(h.sent).toHaveLength(0);
    expect(h.last().state).toBe('saving');
    vi.advanceTimersByTime(700);
    expect(h.sent.map((s) => s.answer)).toEqual([{ questionId: 'q', answer: 'keys' }]);
    h.sent[0]!.resolve();
    await flushMicrotasks();
    expect(h.last()).toEqual({ state: 'saved', unsaved: 0, retryAt: null });
  });

  it('keeps one request per question in flight; the newest value follows when it returns', async () => {
    const h = harness();
    h.saver.put({ questionId: 'q', answerId: 'a' });
    h.saver.put({ questionId: 'q', answerId: 'b' });
    h.saver.put({ questionId: 'q', answerId: 'c' });
    h.saver.put({ questionId: 'other', answerId: 'x' });
    expect(h.sent.map((s) => s.answer)).toEqual([
      { questionId: 'q', answerId: 'a' },
      { questionId: 'other', answerId: 'x' },
    ]);
    expect(h.saver.unsaved()).toHaveLength(2);
    h.sent[0]!.resolve();
    await flushMicrotasks();
    expect(h.sent.map((s) => s.answer).at(-1)).toEqual({ questionId: 'q', answerId: 'c' });
    h.sent[1]!.resolve();
    h.sent[2]!.resolve();
    await flushMicrotasks();
    expect(h.saver.unsaved()).toEqual([]);
    expect(h.last().state).toBe('saved');
  });

  it('retries a failed save with a growing pause, at once on retryNow, and keeps it unsaved meanwhile', async () => {
    const h = harness([1_000, 2_000]);
    h.saver.put({ questionId: 'q', answerId: 'a' });
    h.sent[0]!.reject(new NetworkError(new TypeError('offline')));
    await flushMicrotasks();
    expect(h.last().state).toBe('failed');
    expect(h.saver.unsaved()).toEqual([{ questionId: 'q', answerId: 'a' }]);
    vi.advanceTimersByTime(999);
    expect(h.sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(h.sent).toHaveLength(2);
    h.sent[1]!.reject(new ApiError(503, { statusCode: 503, error: 'Unavailable', message: 'busy' }));
    await flushMicrotasks();
    vi.advanceTimersByTime(1_999);
    expect(h.sent).toHaveLength(2);
    h.saver.retryNow();
    expect(h.sent).toHaveLength(3);
    h.sent[2]!.resolve();
    await flushMicrotasks();
    expect(h.last()).toEqual({ state: 'saved', unsaved: 0, retryAt: null });
  });

  it('stops for good when the test is over, and tells the page', async () => {
    const h = harness();
    h.saver.put({ questionId: 'q', answerId: 'a' });
    h.sent[0]!.reject(
      new ApiError(410, {
        statusCode: 410,
        error: 'Gone',
        message: 'completed',
        errorCode: 'TEST_COMPLETED',
      }),
    );
    await flushMicrotasks();
    expect(h.fatal.map((e) => e.errorCode)).toEqual(['TEST_COMPLETED']);
    h.saver.put({ questionId: 'q', answerId: 'b' });
    expect(h.sent).toHaveLength(1);
  });

  it('drops an answer the server refuses as it is, without retrying it', async () => {
    const h = harness();
    h.saver.put({ questionId: 'q', answerId: 'nope' });
    h.sent[0]!.reject(new ApiError(400, { statusCode: 400, error: 'Bad Request', message: 'answerId' }));
    await flushMicrotasks();
    vi.advanceTimersByTime(60_000);
    expect(h.sent).toHaveLength(1);
    expect(h.saver.unsaved()).toEqual([]);
  });

  it('flush sends what is being typed at once and resolves when everything is saved', async () => {
    const h = harness();
    h.saver.put({ questionId: 'q', answer: 'key' }, 700);
    const done = h.saver.flush();
    expect(h.sent).toHaveLength(1);
    h.sent[0]!.resolve();
    await flushMicrotasks();
    await expect(done).resolves.toBe(true);
  });
});

describe('a busy server (503 or 429 with Retry-After)', () => {
  const busy = (status: number, seconds: number) =>
    new ApiError(
      status,
      { statusCode: status, error: 'Busy', message: 'The server is busy, please try again shortly.' },
      seconds,
    );

  it('waits as long as Retry-After says before sending the answer again, and loses nothing', async () => {
    const h = harness([1_000, 2_000]);
    h.saver.put({ questionId: 'q', answerId: 'a' });
    h.sent[0]!.reject(busy(503, 10));
    await flushMicrotasks();
    expect(h.last()).toMatchObject({ state: 'failed', unsaved: 1, retryAt: Date.now() + 10_000 });
    vi.advanceTimersByTime(9_000);
    expect(h.sent).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(h.sent.map((s) => s.answer)).toEqual([
      { questionId: 'q', answerId: 'a' },
      { questionId: 'q', answerId: 'a' },
    ]);
    h.sent[1]!.resolve();
    await flushMicrotasks();
    expect(h.last()).toEqual({ state: 'saved', unsaved: 0, retryAt: null });
  });

  it('keeps an answer refused with 429 (too many requests) and sends it again, not dropping it', async () => {
    const h = harness([1_000, 2_000]);
    h.saver.put({ questionId: 'q', answerId: 'a' });
    h.sent[0]!.reject(busy(429, 3));
    await flushMicrotasks();
    expect(h.saver.unsaved()).toEqual([{ questionId: 'q', answerId: 'a' }]);
    vi.advanceTimersByTime(3_000);
    expect(h.sent).toHaveLength(2);
    h.sent[1]!.resolve();
    await flushMicrotasks();
    expect(h.saver.unsaved()).toEqual([]);
  });

  it('waits the longer of Retry-After and its own pause', async () => {
    const h = harness([5_000]);
    h.saver.put({ questionId: 'q', answerId: 'a' });
    h.sent[0]!.reject(busy(503, 1));
    await flushMicrotasks();
    vi.advanceTimersByTime(4_999);
    expect(h.sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(h.sent).toHaveLength(2);
  });
});
