/**
 * The question bank through the authoring calls, without any UI: importing checked questions through the
 * batch import (images uploaded to signed addresses first, then each question created whole on the
 * server), and reading questions back for export.
 */
import type { Client } from '@shared/client/client';
import {
  adminSubjectList,
  getAssessment,
  IMPORT_BATCH,
  IMPORT_CHECK_BATCH,
  type ImportQuestionItem,
  importCheck,
  importQuestions,
  importSignedUrl,
  tenantQuestionSearch,
} from '@shared/contract/authoring';
import type { CallSuccess } from '@shared/contract/define';
import type { Question } from '@shared/schemas/assessment';
import type { Subject } from '@shared/schemas/lists';
import type { z } from 'zod';
import { CliError, ExitCode } from './errors';
import type { ImageSource } from './question-file';

export interface AuthoringDeps {
  client: Client;
  /** undici's fetch, for uploads to the signed addresses. */
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal;
}

/** The subjects with their topics, as the question editor offers them. */
export async function loadSubjects(client: Client, signal?: AbortSignal): Promise<Subject[]> {
  return (await client.call(adminSubjectList, { signal })).data;
}

/** Uploads one image for an import to a signed address; returns the key the import names it by. */
export async function uploadForImport(
  deps: AuthoringDeps,
  source: Extract<ImageSource, { kind: 'bytes' }>,
): Promise<string> {
  const { data } = await deps.client.call(importSignedUrl, {
    body: { fileType: source.fileType },
    signal: deps.signal,
  });
  let res: Response;
  try {
    res = await deps.fetch(data.url, {
      method: 'PUT',
      headers: { 'content-type': `image/${source.fileType === 'jpeg' ? 'jpeg' : source.fileType}` },
      body: source.load() as Uint8Array<ArrayBuffer>,
      signal: deps.signal,
    });
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    throw new CliError(
      `The image ${source.ref} could not be uploaded: ${(err as Error).message}`,
      ExitCode.unreachable,
      {
        cause: err,
      },
    );
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    throw new CliError(
      `The image ${source.ref} was refused: ${body.message ?? `HTTP ${res.status}`}`,
      ExitCode.badInput,
    );
  }
  return data.key;
}

export type CheckStatus = 'new' | 'unchanged' | 'changed';

/** Which of these questions the caller already has (POST /admin/question/import/check, 1,000 at a time). */
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

export type ImportItem = z.input<typeof ImportQuestionItem>;
export type ImportOutcome = CallSuccess<typeof importQuestions>['data'][number];

/** The largest request body the server takes is 1 MB: batches stay under this. */
const MAX_BATCH_BYTES = 900_000;

/**
 * Sends import items in batches (POST /admin/question/import): an item waits until its batch is full (by
 * count or size) or a moment has passed, so many items in flight go in few requests. A batch under way is
 * not aborted by Ctrl+C: each of its questions is created whole or not at all either way, and letting it
 * finish means what was done is reported.
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

/** The most questions one page of GET /tenant/question/search-list returns. */
export const SEARCH_LIMIT = 50;
/** The most questions an export reads from the search, page by page. */
export const EXPORT_LIMIT = 10_000;

export interface ExportSource {
  assessmentId?: string;
  searchText?: string;
  /** Only the caller's own questions (their id). */
  mine?: string;
}

/** The questions to export, and whether the server's search limit may have cut the list short. */
export async function loadQuestionsForExport(
  client: Client,
  source: ExportSource,
  signal?: AbortSignal,
): Promise<{ questions: Question[]; truncated: boolean }> {
  let questions: Question[];
  let truncated = false;
  if (source.assessmentId) {
    questions = (await client.call(getAssessment, { params: { assessmentId: source.assessmentId }, signal }))
      .data.questions;
    if (source.searchText) {
      const text = source.searchText.toLowerCase();
      questions = questions.filter((q) => q.question.toLowerCase().includes(text) || q.tags.includes(text));
    }
  } else {
    // page by page until a short page; a question changed meanwhile moves to the front and may come twice
    const found = new Map<string, Question>();
    for (let page = 1; ; page++) {
      const batch = (
        await client.call(tenantQuestionSearch, {
          query: {
            limit: SEARCH_LIMIT,
            page,
            ...(source.searchText ? { searchText: source.searchText } : {}),
          },
          signal,
        })
      ).data;
      for (const q of batch) found.set(q._id, q);
      if (batch.length < SEARCH_LIMIT) break;
      if (page * SEARCH_LIMIT >= EXPORT_LIMIT) {
        truncated = true;
        break;
      }
    }
    questions = [...found.values()];
  }
  if (source.mine) questions = questions.filter((q) => q.createdBy?._id === source.mine);
  return { questions, truncated };
}
