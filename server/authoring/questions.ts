/**
 * The question editor's calls (shared/contract/authoring.ts questionEditorRouter), each a call to the
 * editor's service (editor.ts) or to who may read a question (access.ts).
 */
import { questionEditorRouter } from '@shared/contract/authoring';
import type { FastifyInstance } from 'fastify';
import type { StorageAdapter } from '../adapters/storage';
import type { Db } from '../db/client';
import { ok, serve } from '../http/routes';
import { loadSubjects } from '../lists/lists';
import type { QuestionCounts } from '../questions/load';
import { readableQuestion } from './access';
import {
  changeQuestionType,
  createQuestion,
  deleteCode,
  deleteImage,
  deleteQuestion,
  type Editor,
  feedbackOfQuestion,
  questionImageUpload,
  removeOption,
  saveQuestion,
  searchQuestions,
  updateImagePath,
} from './editor';

export function questionRoutes(
  app: FastifyInstance,
  deps: { db: Db; storage: StorageAdapter; questionCounts: QuestionCounts },
) {
  const { db, questionCounts } = deps;
  const editor: Editor = deps;
  serve(app, questionEditorRouter, {
    adminSubjectList: async () => ok({ data: await loadSubjects(db) }),
    createQuestion: async ({ body, caller }) =>
      ok({ data: { questionId: await createQuestion(editor, body, caller) } }),
    getQuestion: async ({ params, caller }) =>
      ok({ data: await readableQuestion(db, params.id, caller, questionCounts) }),
    saveQuestion: async ({ params, body, caller }) =>
      ok({ data: await saveQuestion(editor, params.id, body, caller) }),
    async deleteQuestion({ params, caller }) {
      await deleteQuestion(editor, params.id, caller);
      return ok({ data: { ok: true } });
    },
    changeQuestionType: async ({ params, body, caller }) =>
      ok({ data: await changeQuestionType(editor, params.id, body, caller) }),
    removeOption: async ({ params, caller }) =>
      ok({ data: await removeOption(editor, params.id, params.optionId, caller) }),
    updateImagePath: async ({ params, body, caller }) =>
      ok({ data: await updateImagePath(editor, params.id, body, caller) }),
    deleteImage: async ({ params, body, caller }) =>
      ok({ data: await deleteImage(editor, params.id, body, caller) }),
    deleteCode: async ({ params, caller }) =>
      ok({ data: await deleteCode(editor, params.questionId, caller) }),
    imageSignedUrl: async ({ body, caller }) => ok({ data: await questionImageUpload(editor, body, caller) }),
    questionFeedbackList: async ({ params, caller }) =>
      ok({ data: await feedbackOfQuestion(editor, params.id, caller) }),
    tenantQuestion: async ({ params, caller }) =>
      ok({ data: await readableQuestion(db, params.id, caller, questionCounts) }),
    tenantQuestionSearch: async ({ query }) => ok({ data: await searchQuestions(editor, query) }),
  });
}
