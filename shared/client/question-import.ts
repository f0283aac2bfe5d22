/**
 * Importing checked questions through the authoring calls, the same in the CLI and the portal: which of
 * them the server already has (POST /admin/question/import/check), images uploaded to signed addresses
 * (POST /admin/question/import/signed-url, then a PUT), and the batch import (POST /admin/question/import),
 * which creates each question whole in one transaction. No UI: the CLI and the portal draw the outcome.
 */

import type { z } from 'zod';
import {
  IMPORT_BATCH,
  IMPORT_CHECK_BATCH,
  type ImportQuestionItem,
  importCheck,
  importQuestions,
  importSignedUrl,
} from '../contract/authoring';
import type { CallSuccess } from '../contract/define';
import type { ImageSource, PreparedQuestion } from '../formats/check';
import { fingerprintOf, importPayload, type Sha256, sourceKeyOf } from '../formats/prepare';
import type { Place } from '../formats/record';
import { type Client, waitOutBusy } from './client';

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

/** The largest request body the server takes is 1 MB: batches stay under this. */
const MAX_BATCH_BYTES = 900_000;

/**
 * Sends import items in batches: an item waits until its batch is full (by count or size) or a moment has
 * passed, so many items in flight go in few requests. A batch under way is not aborted by a cancel: each of
 * its questions is created whole or not at all either way, and letting it finish means what was done is
 * reported.
 */
export class ImportBatcher {
  private pending: {
    item: ImportItem;
    bytes: number;
    resolve: (o: ImportOutcome) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private bytes = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly client: Client,
    private readonly options: { assessmentId?: string; update: boolean; batchSize?: number; waitMs?: number },
  ) {}

  add(item: ImportItem): Promise<ImportOutcome> {
    return new Promise((resolve, reject) => {
      const bytes = JSON.stringify(item).length + 2;
      if (this.pending.length && this.bytes + bytes > MAX_BATCH_BYTES) this.flush();
      this.pending.push({ item, bytes, resolve, reject });
      this.bytes += bytes;
      if (this.pending.length >= (this.options.batchSize ?? IMPORT_BATCH)) this.flush();
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
export async function importPlanned(
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
