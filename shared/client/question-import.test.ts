/**
 * The question import's runner (runQuestionImport), the CLI's and the portal's, against a scripted server
 * (a fetch stand-in, never our server): how many requests run at once, each question's outcome paired with
 * it whatever order the batches answer in, a busy server waited out, a stop that starts nothing new, the
 * progress counts, and batches under the server's body limit in bytes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../contract/define';
import type { PreparedQuestion } from '../formats/check';
import type { ImportedQuestionInput } from '../schemas/authoring';
import { createClient } from './client';
import { type ImportProgress, type PlannedQuestion, runQuestionImport } from './question-import';

const BASE = 'http://api.test/api';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

interface Script {
  /** Answers the batch import before it creates anything (a 503 with Retry-After: 0, say). */
  importAnswer?: (n: number) => Response | null;
  /** Answers an upload before it is taken. */
  putAnswer?: (n: number) => Response | null;
  /** How long a batch import takes, by its number (from 0). */
  importDelay?: (n: number) => number;
  putDelay?: number;
}

/** The server's side: signed addresses, uploads, batch imports that create every question sent. */
function scriptedServer(script: Script = {}) {
  const seen = { imports: 0, puts: 0, batches: [] as { keys: string[]; bytes: number }[], signed: 0 };
  let uploading = 0;
  let peakUploads = 0;
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    if (init.method === 'PUT') {
      const n = seen.puts++;
      const early = script.putAnswer?.(n);
      if (early) return early;
      uploading++;
      peakUploads = Math.max(peakUploads, uploading);
      await sleep(script.putDelay ?? 2);
      uploading--;
      return new Response(null, { status: 200 });
    }
    const body = JSON.parse(String(init.body));
    if (url.endsWith('/admin/question/import/signed-url')) {
      const key = `imports/k${seen.signed++}`;
      return json(200, { data: { url: `http://storage.test/${key}`, key, expiresAt: 'x' } });
    }
    if (url.endsWith('/admin/question/import')) {
      const n = seen.imports++;
      const early = script.importAnswer?.(n);
      if (early) return early;
      const keys = (body.questions as { key: string }[]).map((q) => q.key);
      seen.batches.push({ keys, bytes: new TextEncoder().encode(String(init.body)).byteLength });
      await sleep(script.importDelay?.(seen.batches.length - 1) ?? 1);
      return json(200, {
        data: keys.map((key) => ({
          key,
          status: body.update ? 'updated' : 'created',
          questionId: `id-${key}`,
        })),
      });
    }
    return json(404, { message: `no ${url}` });
  }) as typeof globalThis.fetch;
  return { fetch, seen, peakUploads: () => peakUploads };
}

const clientOf = (fetch: typeof globalThis.fetch) =>
  createClient({ baseUrl: BASE, device: 'CLI', fetch, busy: { attempts: 2 } });

function planned(
  n: number,
  options: { known?: PlannedQuestion['known']; image?: boolean; text?: string } = {},
): PlannedQuestion {
  const q: PreparedQuestion = {
    line: n,
    input: {
      questionType: 'MCQ',
      question: options.text ?? `Question ${n}`,
      options: [{ value: 'a', isCorrect: true }],
    } as unknown as ImportedQuestionInput,
    image: options.image
      ? {
          kind: 'bytes',
          ref: `q${n}.png`,
          fileType: 'png',
          size: 4,
          load: () => new Uint8Array([1, 2, 3, 4]),
        }
      : null,
    optionImages: [],
    subjectName: 'Programming',
    topicName: 'JavaScript',
  };
  return { q, key: `k${n}`, fingerprint: 'f'.repeat(64), known: options.known ?? 'new', questionId: null };
}

const many = (count: number, options?: Parameters<typeof planned>[1]) =>
  Array.from({ length: count }, (_, i) => planned(i + 1, options));

describe('runQuestionImport', () => {
  it('uploads at most `concurrency` images at once', async () => {
    const server = scriptedServer({ putDelay: 5 });
    const { fatal, done } = await runQuestionImport(clientOf(server.fetch), many(30, { image: true }), {
      update: false,
      concurrency: 3,
      fetch: server.fetch,
    });
    expect(fatal).toBeUndefined();
    expect(done).toBe(30);
    expect(server.seen.puts).toBe(30);
    expect(server.peakUploads()).toBe(3);
  });

  it('pairs each question with its own outcome, whatever order the batches answer in', async () => {
    // the first batch answers last
    const server = scriptedServer({ importDelay: (n) => (n === 0 ? 40 : 1) });
    const events: ImportProgress[] = [];
    await runQuestionImport(clientOf(server.fetch), many(30), {
      update: false,
      concurrency: 1,
      fetch: server.fetch,
      batch: { size: 10, waitMs: 0 },
      onProgress: (e) => events.push(e),
    });
    expect(server.seen.batches.map((b) => b.keys.length)).toEqual([10, 10, 10]);
    expect(events[0]!.planned.key).not.toBe('k1');
    for (const e of events) {
      expect(e.outcome).toEqual({
        ok: true,
        value: { key: e.planned.key, status: 'created', questionId: `id-${e.planned.key}` },
      });
      expect(e.index).toBe(Number(e.planned.key.slice(1)) - 1);
    }
  });

  it('waits out a busy server (503 with Retry-After) for the batch and the uploads alike', async () => {
    const busy = () => json(503, { message: 'busy' }, { 'retry-after': '0' });
    const server = scriptedServer({
      importAnswer: (n) => (n === 0 ? busy() : null),
      putAnswer: (n) => (n === 0 ? busy() : null),
    });
    const events: ImportProgress[] = [];
    const { fatal } = await runQuestionImport(clientOf(server.fetch), many(3, { image: true }), {
      update: false,
      concurrency: 2,
      fetch: server.fetch,
      onProgress: (e) => events.push(e),
    });
    expect(fatal).toBeUndefined();
    expect(server.seen.imports).toBe(2);
    expect(server.seen.puts).toBe(4);
    expect(events.map((e) => e.outcome.ok && e.outcome.value.status)).toEqual([
      'created',
      'created',
      'created',
    ]);
  });

  it('starts nothing new once stopped, and says so', async () => {
    const server = scriptedServer();
    const controller = new AbortController();
    const plan = many(500);
    const { fatal, done } = await runQuestionImport(clientOf(server.fetch), plan, {
      update: false,
      concurrency: 1,
      fetch: server.fetch,
      signal: controller.signal,
      batch: { size: 10, waitMs: 0 },
      onProgress: () => controller.abort(new Error('Stop')),
    });
    expect((fatal as Error).message).toBe('Stop');
    const sent = server.seen.batches.flatMap((b) => b.keys);
    // the questions in flight when it stopped (50 for each request at once), and no other
    expect(sent.length).toBeLessThanOrEqual(50);
    expect(done).toBeLessThanOrEqual(sent.length);
    expect(done).toBeGreaterThan(0);
  });

  it('stops at a refused session, and a failed batch fails its own questions only', async () => {
    const server = scriptedServer({
      importAnswer: (n) => (n === 0 ? json(400, { message: 'questions: too many' }) : null),
    });
    const events: ImportProgress[] = [];
    const { fatal, done } = await runQuestionImport(clientOf(server.fetch), many(20), {
      update: false,
      concurrency: 1,
      fetch: server.fetch,
      batch: { size: 10, waitMs: 0 },
      onProgress: (e) => events.push(e),
    });
    expect(fatal).toBeUndefined();
    expect(done).toBe(20);
    expect(events.filter((e) => !e.outcome.ok)).toHaveLength(10);

    const signedOut = scriptedServer({
      importAnswer: () => json(401, { message: 'Your session has expired.' }),
    });
    const stopped = await runQuestionImport(clientOf(signedOut.fetch), many(200), {
      update: false,
      concurrency: 1,
      fetch: signedOut.fetch,
      batch: { size: 10, waitMs: 0 },
    });
    expect(stopped.fatal).toMatchObject({ status: 401 });
    expect(stopped.done).toBe(0);
    expect(signedOut.seen.imports).toBeLessThanOrEqual(5);
  });

  it('tells each question once, counts that add up, in a dry run as in the import', async () => {
    const plan = [
      planned(1),
      planned(2, { known: 'unchanged' }),
      planned(3, { known: 'changed' }),
      planned(4, { known: 'duplicate' }),
      planned(5),
    ];
    for (const dryRun of [true, false]) {
      const server = scriptedServer();
      const events: ImportProgress[] = [];
      const { done } = await runQuestionImport(clientOf(server.fetch), plan, {
        update: false,
        dryRun,
        concurrency: 2,
        fetch: server.fetch,
        onProgress: (e) => events.push(e),
      });
      expect(done).toBe(plan.length);
      expect(events.map((e) => e.done)).toEqual([1, 2, 3, 4, 5]);
      const byKey = Object.fromEntries(
        events.map((e) => [e.planned.key, e.outcome.ok && e.outcome.value.status]),
      );
      expect(byKey).toEqual(
        dryRun
          ? { k1: 'wouldCreate', k2: 'unchanged', k3: 'changed', k4: 'duplicate', k5: 'wouldCreate' }
          : { k1: 'created', k2: 'unchanged', k3: 'changed', k4: 'duplicate', k5: 'created' },
      );
      expect(server.seen.batches.flatMap((b) => b.keys)).toEqual(dryRun ? [] : ['k1', 'k5']);
    }
  });

  it("keeps every batch under the server's body limit in bytes, whatever the script", async () => {
    // 5,000 characters of Chinese: 15,000 bytes of UTF-8 each, 100 of them 1.5 MB
    const text = '问题'.repeat(2500);
    const server = scriptedServer();
    const { done } = await runQuestionImport(clientOf(server.fetch), many(150, { text }), {
      update: false,
      concurrency: 4,
      fetch: server.fetch,
    });
    expect(done).toBe(150);
    expect(server.seen.batches.flatMap((b) => b.keys)).toHaveLength(150);
    for (const b of server.seen.batches) expect(b.bytes).toBeLessThanOrEqual(JSON_BODY_LIMIT);
  });
});
