/**
 * The question bank through the authoring calls, without any UI: creating a checked question the way the
 * portal's editor does (create a draft, upload its images, save the whole question, which publishes it),
 * and reading questions back for export.
 */
import { readFileSync } from 'node:fs';
import type { Client } from '@shared/client/client';
import {
  adminSubjectList,
  createQuestion,
  deleteQuestion,
  getAssessment,
  imageSignedUrl,
  saveQuestion,
  tenantQuestionSearch,
  updateImagePath,
} from '@shared/contract/authoring';
import type { Question } from '@shared/schemas/assessment';
import type { Subject } from '@shared/schemas/lists';
import { CliError, ExitCode } from './errors';
import type { ImageSource, PreparedQuestion } from './question-file';

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

/** Uploads one image to a signed address; returns the path the question records. */
async function upload(
  deps: AuthoringDeps,
  questionId: string,
  source: Extract<ImageSource, { kind: 'file' }>,
  type: 'question' | 'option',
  optionIndex?: number,
): Promise<string> {
  const bytes = readFileSync(source.path);
  // the exact size is signed into the address, which then takes no other file
  const { data } = await deps.client.call(imageSignedUrl, {
    body: {
      type,
      questionId,
      fileType: source.fileType,
      size: bytes.length,
      ...(optionIndex === undefined ? {} : { optionIndex }),
    },
    signal: deps.signal,
  });
  let res: Response;
  try {
    res = await deps.fetch(data.url, {
      method: 'PUT',
      headers: { 'content-type': `image/${source.fileType}` },
      body: bytes,
      signal: deps.signal,
    });
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    throw new CliError(
      `The image ${source.path} could not be uploaded: ${(err as Error).message}`,
      ExitCode.unreachable,
      {
        cause: err,
      },
    );
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    throw new CliError(
      `The image ${source.path} was refused: ${body.message ?? `HTTP ${res.status}`}`,
      ExitCode.badInput,
    );
  }
  return data.path;
}

const pathOf = async (
  deps: AuthoringDeps,
  questionId: string,
  source: ImageSource,
  type: 'question' | 'option',
  optionIndex?: number,
) => (source.kind === 'url' ? source.url : upload(deps, questionId, source, type, optionIndex));

/**
 * Creates one question: a draft (inside the assessment when given), its images uploaded and recorded, then
 * the whole question saved and published. When a step fails the draft is deleted again, so a failed
 * question leaves nothing behind.
 */
export async function createCheckedQuestion(
  deps: AuthoringDeps,
  q: PreparedQuestion,
  assessmentId?: string,
): Promise<Question> {
  const { client, signal } = deps;
  const type = q.input.questionType ?? 'MCQ';
  const { data: created } = await client.call(createQuestion, {
    body: { questionType: type, ...(assessmentId ? { assessmentId } : {}) },
    signal,
  });
  const id = created.questionId;
  try {
    let questionImagePath: string | null = null;
    let options = q.input.options;
    const hasOptionImages = q.optionImages.length > 0;
    if (q.image || hasOptionImages) {
      if (q.image) questionImagePath = await pathOf(deps, id, q.image, 'question');
      if (hasOptionImages) {
        const paths: string[] = [];
        for (const [i, source] of q.optionImages.entries())
          paths.push(await pathOf(deps, id, source, 'option', i));
        options = options.map((o, i) => ({ ...o, value: paths[i] ?? o.value }));
      }
      await client.call(updateImagePath, {
        params: { id },
        body: {
          questionType: type,
          ...(questionImagePath ? { questionImagePath } : {}),
          ...(hasOptionImages ? { options: options.map((o) => ({ value: o.value })) } : {}),
        },
        signal,
      });
    }
    const { data: saved } = await client.call(saveQuestion, {
      params: { id },
      body: { ...q.input, questionImagePath, options },
      signal,
    });
    return saved;
  } catch (err) {
    // the draft is of no use half-made (and may sit in the assessment): remove it, even after Ctrl+C
    await client
      .call(deleteQuestion, { params: { id }, signal: AbortSignal.timeout(5000) })
      .catch(() => undefined);
    throw err;
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
