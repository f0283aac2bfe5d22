/**
 * The question bank through the authoring calls, without any UI: the subjects, and reading questions back
 * for export. Importing goes through shared/client/question-import.ts, as in the portal.
 */
import type { Client } from '@shared/client/client';
import { adminSubjectList, getAssessment, tenantQuestionSearch } from '@shared/contract/authoring';
import type { Question } from '@shared/schemas/assessment';
import type { Subject } from '@shared/schemas/lists';
import { EXPORT_LIMIT } from './limits';

/** The subjects with their topics, as the question editor offers them. */
export async function loadSubjects(client: Client, signal?: AbortSignal): Promise<Subject[]> {
  return (await client.call(adminSubjectList, { signal })).data;
}

/** The most questions one page of GET /tenant/question/search-list returns. */
export const SEARCH_LIMIT = 50;

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
