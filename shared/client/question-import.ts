/**
 * Importing checked questions through the authoring calls, the same in the CLI and the portal: which of
 * them the server already has (POST /admin/question/import/check), images uploaded to signed addresses
 * (POST /admin/question/import/signed-url, then a PUT), and the batch import (POST /admin/question/import),
 * which creates each question whole in one transaction. `runQuestionImport` runs a plan: its questions
 * through the shared pool (pool.ts), the uploads through a limiter of their own, the writes in batches
 * under the server's body limit. No UI: the CLI and the portal draw the outcome.
 */

import pLimit from 'p-limit';
import type { z } from 'zod';
import { type CallSuccess, JSON_BODY_LIMIT } from '../contract/define';
import {
  IMPORT_BATCH,
  IMPORT_CHECK_BATCH,
  type ImportQuestionItem,
  importCheck,
  importQuestions,
  importSignedUrl,
} from '../contract/question-import';
import type { ImageSource, PreparedQuestion } from '../formats/check';
import { fingerprintOf, importPayload, type Sha256, sourceKeyOf } from '../formats/prepare';
import type { Place } from '../formats/record';
import { ApiError, type Client, NetworkError, waitOutBusy } from './client';
import { type EachResult, type PoolOutcome, runEach } from './pool';

export type CheckStatus = 'new' | 'unchanged' | 'changed';
export type ImportItem = z.input<typeof ImportQuestionItem>;
export type ImportOutcome = CallSuccess<typeof importQuestions>['data'][number];

/** Which of these questions the caller already has (1,000 a request). */
export async function checkImported(
  client: Client,
  items: readonly { key: string; fingerprint: string }[],
  signal?: AbortSignal,
): Promise<Map<string, { status: CheckStatus; questionId: string | null }>> {
  const out = new Map<string, { status: CheckStatus; questionId: string | null }>();
  for (let i = 0; i < items.length; i += IMPORT_CHECK_BATCH) {
    const { data } = await client.call(importCheck, {
      body: {
        items: items.slice(i, i + IMPORT_CHECK_BATCH).map(({ key, fingerprint }) => ({ key, fingerprint })),
      },
      signal,
    });
    for (const r of data) out.set(r.key, { status: r.status, questionId: r.questionId });
  }
  return out;
}

/**
 * A question of the file with what the server already has of it — or `duplicate`: the same question
 * (same source key, same content) as one before it in the file, which is imported once, by that one.
 */
export interface PlannedQuestion {
  q: PreparedQuestion;
  key: string;
  fingerprint: string;
  known: CheckStatus | 'duplicate';
  questionId: string | null;
  /** For a duplicate: where the first of them is. */
  duplicateOf?: Place;
}

/** The source keys planned so far in one file, with where each first was (planImport across windows). */
export type PlannedKeys = Map<string, Place>;

const placeOf = (q: PreparedQuestion): Place => ({
  line: q.line,
  ...(q.item ? { item: q.item } : {}),
  ...(q.part ? { part: q.part } : {}),
});

/**
 * Fingerprints every question and asks the server which it has. A question whose key an earlier one of
 * the file has (`seen`, kept across the windows of a file) is a duplicate and is not asked about: the dry
 * run and the import both say so, and the file's first such question is the one imported.
 */
export async function planImport(
  client: Client,
  questions: readonly PreparedQuestion[],
  sha256: Sha256,
  signal?: AbortSignal,
  seen: PlannedKeys = new Map(),
): Promise<PlannedQuestion[]> {
  const planned: PlannedQuestion[] = [];
  for (const q of questions) {
    const fingerprint = await fingerprintOf(q, sha256);
    const key = sourceKeyOf(q, fingerprint);
    const first = seen.get(key);
    if (first)
      planned.push({ q, key, fingerprint, known: 'duplicate', questionId: null, duplicateOf: first });
    else {
      seen.set(key, placeOf(q));
      planned.push({ q, key, fingerprint, known: 'new', questionId: null });
    }
  }
  const asked = planned.filter((p) => p.known !== 'duplicate');
  const known = asked.length ? await checkImported(client, asked, signal) : new Map();
  for (const p of asked) {
    const k = known.get(p.key);
    if (k) {
      p.known = k.status;
      p.questionId = k.questionId;
    }
  }
  return planned;
}

/** Whether importing a planned question writes it: a new one, or a changed one with update. */
export const writesQuestion = (p: PlannedQuestion, update: boolean) =>
  p.known === 'new' || (p.known === 'changed' && update);

/** Whether a planned question is sent at all: one to write, or one to add to the assessment. */
export const sendsQuestion = (p: PlannedQuestion, update: boolean, assessmentId?: string) =>
  p.known !== 'duplicate' && (writesQuestion(p, update) || Boolean(assessmentId));

/** Why an image could not be uploaded: the upload address was not reached, or the upload was refused. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly reason: 'unreachable' | 'refused',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UploadError';
  }
}

export interface UploadDeps {
  client: Client;
  /** The fetch for the PUT to the signed address (undici's in the CLI, the window's in the portal). */
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal;
}

/** Uploads one image for an import to a signed address; returns the key the import names it by. */
export async function uploadImportImage(
  deps: UploadDeps,
  source: Extract<ImageSource, { kind: 'bytes' }>,
): Promise<string> {
  const bytes = source.load() as Uint8Array<ArrayBuffer>;
  // the exact size is signed into the address, which then takes no other file
  const { data } = await deps.client.call(importSignedUrl, {
    body: { fileType: source.fileType, size: bytes.byteLength },
    signal: deps.signal,
  });
  let res: Response;
  try {
    // a PUT to the same address is safe to repeat: a busy server's 503 is waited out as a call's would be
    res = await waitOutBusy(
      () =>
        deps.fetch(data.url, {
          method: 'PUT',
          headers: { 'content-type': `image/${source.fileType}` },
          body: bytes,
          ...(deps.signal ? { signal: deps.signal } : {}),
        }),
      deps.client.options.busy,
      `PUT the image ${source.ref}`,
      deps.signal,
    );
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    throw new UploadError(
      `The image ${source.ref} could not be uploaded: ${(err as Error).message}`,
      'unreachable',
      { cause: err },
    );
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    throw new UploadError(
      `The image ${source.ref} was refused: ${body.message ?? `HTTP ${res.status}`}`,
      'refused',
    );
  }
  return data.key;
}

/**
 * The most a batch's questions may weigh, in bytes of JSON: the server's limit of a JSON body, less room
 * for the rest of the body (`assessmentId`, `update`, the brackets).
 */
const MAX_BATCH_BYTES = JSON_BODY_LIMIT - 1024;
const utf8 = new TextEncoder();

/**
 * Sends import items in batches: an item waits until its batch is full (by count, or by its size in bytes
 * as the server counts them) or a moment has passed, so many items in flight go in few requests. A batch
 * under way is not aborted by a cancel: each of its questions is created whole or not at all either way,
 * and letting it finish means what was done is reported.
 */
class ImportBatcher {
  private pending: {
    item: ImportItem;
    resolve: (o: ImportOutcome) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private bytes = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly client: Client,
    private readonly options: { assessmentId?: string; update: boolean; size?: number; waitMs?: number },
  ) {}

  add(item: ImportItem): Promise<ImportOutcome> {
    return new Promise((resolve, reject) => {
      // UTF-8, as the server's limit counts: a question in Greek or Chinese weighs two or three bytes a letter
      const bytes = utf8.encode(JSON.stringify(item)).byteLength + 1;
      if (this.pending.length && this.bytes + bytes > MAX_BATCH_BYTES) this.flush();
      this.pending.push({ item, resolve, reject });
      this.bytes += bytes;
      if (this.pending.length >= (this.options.size ?? IMPORT_BATCH)) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.waitMs ?? 25);
    });
  }

  private flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    this.bytes = 0;
    if (!batch.length) return;
    this.client
      .call(importQuestions, {
        body: {
          ...(this.options.assessmentId ? { assessmentId: this.options.assessmentId } : {}),
          update: this.options.update,
          questions: batch.map((b) => b.item),
        },
      })
      .then(
        ({ data }) => {
          for (const [i, b] of batch.entries()) b.resolve(data[i]!);
        },
        (err) => {
          for (const b of batch) b.reject(err);
        },
      );
  }
}

/**
 * Imports one planned question: one the server has is left as it is (and only added to the assessment, in
 * the same call); one to write has its images uploaded first (`upload`, which may bound how many run at
 * once), then goes to the batch import with their keys.
 */
async function importPlanned(
  p: PlannedQuestion,
  opts: {
    batcher: ImportBatcher;
    update: boolean;
    assessmentId?: string;
    upload: (source: Extract<ImageSource, { kind: 'bytes' }>) => Promise<string>;
  },
): Promise<ImportOutcome> {
  if (p.known === 'duplicate') throw new Error('a duplicate of the file is imported by its first copy');
  if (!writesQuestion(p, opts.update)) {
    if (!opts.assessmentId)
      return { key: p.key, status: p.known as 'unchanged' | 'changed', questionId: p.questionId };
    return opts.batcher.add({ key: p.key, fingerprint: p.fingerprint, question: p.q.input });
  }
  const uploads: { question?: string; options?: (string | null)[] } = {};
  if (p.q.image?.kind === 'bytes') uploads.question = await opts.upload(p.q.image);
  if (p.q.optionImages.some((o) => o?.kind === 'bytes')) {
    uploads.options = [];
    for (const [i, source] of p.q.optionImages.entries())
      uploads.options[i] = source?.kind === 'bytes' ? await opts.upload(source) : null;
  }
  return opts.batcher.add({
    key: p.key,
    fingerprint: p.fingerprint,
    question: importPayload(p.q),
    ...(uploads.question || uploads.options ? { uploads } : {}),
  });
}

/** Questions in flight for each request the run may make at once: enough to fill the import's batches. */
const QUESTIONS_PER_REQUEST = 50;

/** What became of a planned question in a run: the server's outcome, a duplicate, or what a dry run would do. */
export interface ImportResult {
  key: string;
  status: ImportOutcome['status'] | 'duplicate' | 'wouldCreate' | 'wouldUpdate';
  questionId: string | null;
  field?: string;
  message?: string;
}

/** One question settled (completion order): its outcome, or the error its call or upload ended in. */
export interface ImportProgress {
  planned: PlannedQuestion;
  /** Its place in the plan. */
  index: number;
  outcome: PoolOutcome<ImportResult>;
  /** Questions settled so far, this one included. */
  done: number;
}

export interface QuestionImportOptions {
  /** Rewrite questions changed since they were imported (else they are left as they are: `changed`). */
  update: boolean;
  /** Add every question to this assessment too. */
  assessmentId?: string;
  /** Write nothing: each result says what the import would do (`wouldCreate`, `wouldUpdate`, …). */
  dryRun?: boolean;
  /**
   * Requests at once: image uploads at most this many, and this many times 50 questions in flight, so each
   * batch import goes full.
   */
  concurrency: number;
  /** The fetch for the PUT to a signed address (undici's in the CLI, the window's in the portal). */
  fetch: typeof globalThis.fetch;
  /** Stops starting questions and aborts uploads under way; a batch under way finishes (ImportBatcher). */
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
  /** Further errors that stop the run (the CLI's own signed-out and interrupted errors), beside stopsImport's. */
  isFatal?: (error: unknown) => boolean;
  /** The batches' size and wait (tests); IMPORT_BATCH and 25 ms by default. */
  batch?: { size?: number; waitMs?: number };
}

/**
 * Whether an error stops the whole run: signed out, the server or the storage unreachable, or stopped — the
 * questions after it would fail alike. Any other error (a batch refused) fails its own questions only.
 */
function stopsImport(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 401;
  if (error instanceof UploadError) return error.reason === 'unreachable';
  return error instanceof NetworkError || (error instanceof Error && error.name === 'AbortError');
}

/**
 * Runs a plan (planImport's questions, an array or produced window by window): a duplicate and, in a dry
 * run, every question are told at once; the others are imported (importPlanned) through the pool. A 503
 * with Retry-After is waited out by the client, for the calls and the uploads alike. Each question is told
 * to onProgress as it settles; the result says what stopped the run, if anything (questions not started
 * are never told).
 */
export async function runQuestionImport(
  client: Client,
  plan: Iterable<PlannedQuestion> | AsyncIterable<PlannedQuestion>,
  options: QuestionImportOptions,
): Promise<EachResult & { done: number }> {
  const { update, assessmentId, signal } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const batcher = new ImportBatcher(client, {
    ...(assessmentId ? { assessmentId } : {}),
    update,
    ...options.batch,
  });
  const uploads = pLimit(concurrency);
  const deps: UploadDeps = { client, fetch: options.fetch, ...(signal ? { signal } : {}) };
  const upload = (source: Extract<ImageSource, { kind: 'bytes' }>) =>
    uploads(() => uploadImportImage(deps, source));

  const importOne = async (p: PlannedQuestion): Promise<ImportResult> => {
    // the same in a dry run and in the import: the file's first copy is the one imported
    if (p.known === 'duplicate') return { key: p.key, status: 'duplicate', questionId: null };
    if (options.dryRun) {
      // what is not written is as the server has it: unchanged, or changed and left without --update
      const as = p.known as 'unchanged' | 'changed';
      const status = writesQuestion(p, update) ? (p.known === 'new' ? 'wouldCreate' : 'wouldUpdate') : as;
      return { key: p.key, status, questionId: p.questionId };
    }
    return importPlanned(p, { batcher, update, upload, ...(assessmentId ? { assessmentId } : {}) });
  };

  let done = 0;
  const result = await runEach(plan, importOne, {
    concurrency: concurrency * QUESTIONS_PER_REQUEST,
    ...(signal ? { signal } : {}),
    isFatal: (error) => stopsImport(error) || options.isFatal?.(error) === true,
    onSettled: (planned, index, outcome) => {
      done++;
      options.onProgress?.({ planned, index, outcome, done });
    },
  });
  return { ...result, done };
}
