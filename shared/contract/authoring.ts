/**
 * Authoring: the question bank editor (admin paths, used by tenants and authors; only a question's creator
 * may change or delete it) and tenants' own assessments (build, then share with learners as custom tests).
 * Importing a bank of questions is in ./question-import.ts (published as `authoring.*` too).
 */
import { z } from 'zod';
import { DEFAULT_QUESTION_TYPE } from '../rules/question-types';
import { Question, QuestionFeedbackEntry, QuestionType } from '../schemas/assessment';
import { AssessmentNameInput, QuestionInput, ShareAssessmentInput } from '../schemas/authoring';
import { ImageSize } from '../schemas/award';
import { DateTime, envelope, errors, Id, Ok } from '../schemas/common';
import { entities } from '../schemas/entities';
import { Subject } from '../schemas/lists';
import { defineCall, defineRouter } from './define';

const AUTHORS = ['TENANT'] as const;
const idParam = z.object({ id: Id });

export const adminSubjectList = defineCall({
  method: 'GET',
  path: '/admin/subject/subject-list',
  summary: 'Subjects with topics, for the question editor.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  responses: { 200: envelope(z.array(Subject)), ...errors },
});

export const createQuestion = defineCall({
  method: 'POST',
  path: '/admin/question/create',
  summary:
    'Creates an empty question (status PREVIEW) owned by the caller; with assessmentId, it joins that assessment when first saved.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  body: z
    .object({ questionType: QuestionType.default(DEFAULT_QUESTION_TYPE), assessmentId: Id.optional() })
    .default({ questionType: DEFAULT_QUESTION_TYPE }),
  responses: { 200: envelope(z.object({ questionId: Id })), ...errors },
});

export const getQuestion = defineCall({
  method: 'GET',
  path: '/admin/question/{id}',
  summary: "A question as its author sees it (with correct answers). Others' questions only once published.",
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  params: idParam,
  responses: { 200: envelope(Question), ...errors },
});

export const saveQuestion = defineCall({
  method: 'PUT',
  path: '/admin/question/{id}',
  summary: 'Saves the whole question and publishes it (status PUBLISH). Only its creator.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  params: idParam,
  body: QuestionInput,
  responses: { 200: envelope(Question), ...errors },
});

export const deleteQuestion = defineCall({
  method: 'DELETE',
  path: '/admin/question/{id}',
  summary: 'Deletes a question. Only its creator; questions already used in tests are withdrawn instead.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  params: idParam,
  responses: { 200: Ok, ...errors },
});

export const changeQuestionType = defineCall({
  method: 'PUT',
  path: '/admin/question/{id}/change-type',
  summary:
    'Switches the question type. MCQ↔MSQ and MCQ_IMAGE↔MSQ_IMAGE keep the options (correct flags reset); other switches remove them.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  params: idParam,
  body: z.object({ questionType: QuestionType }),
  responses: { 200: envelope(Question), ...errors },
});

export const removeOption = defineCall({
  method: 'PUT',
  path: '/admin/question/{id}/remove-option/{optionId}',
  summary: 'Removes one saved option (at least two remain).',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  params: z.object({ id: Id, optionId: Id }),
  responses: { 200: envelope(Question), ...errors },
});

export const updateImagePath = defineCall({
  method: 'PUT',
  path: '/admin/question/update-imagepath/{id}',
  summary: 'Records uploaded images: the question image, or option images of an image question.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  params: idParam,
  body: z.object({
    questionType: QuestionType,
    questionImagePath: z.string().max(500).optional(),
    options: z
      .array(z.object({ _id: Id.optional(), value: z.string().max(500) }))
      .max(10)
      .optional(),
  }),
  responses: { 200: envelope(Question), ...errors },
});

export const deleteImage = defineCall({
  method: 'PUT',
  path: '/admin/question/{id}/delete-image',
  summary: 'Removes the question image (type question) or one option image (type option, optionIndex).',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  params: idParam,
  body: z.object({
    type: z.enum(['question', 'option']),
    fileType: z.string().max(20).optional(),
    optionIndex: z.number().int().min(0).max(9).optional(),
  }),
  responses: { 200: envelope(Question), ...errors },
});

export const deleteCode = defineCall({
  method: 'PUT',
  path: '/admin/question/delete-code/{questionId}',
  summary: 'Removes the code attached to a question.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  params: z.object({ questionId: Id }),
  responses: { 200: envelope(Question), ...errors },
});

export const imageSignedUrl = defineCall({
  method: 'POST',
  path: '/admin/question/signed-url',
  summary: 'An upload address for a question or option image (jpeg, png or webp), valid a few minutes.',
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  body: z.object({
    type: z.enum(['question', 'option']),
    questionId: Id,
    optionIndex: z.number().int().min(0).max(9).optional(),
    fileType: z.enum(['jpeg', 'jpg', 'png', 'webp'], { error: 'must be jpeg, png or webp' }),
    /**
     * The file's size in bytes (at most 2 MB). Signed into the address, which then takes exactly that
     * many bytes; required when the server stores files in S3.
     */
    size: ImageSize.optional(),
  }),
  responses: {
    200: envelope(z.object({ url: z.string(), path: z.string(), expiresAt: DateTime })),
    ...errors,
  },
});

export const questionFeedbackList = defineCall({
  method: 'GET',
  path: '/admin/feedback-question/{id}',
  summary: "Learners' feedback on a question, with its activity trail.",
  tags: ['authoring'],
  access: AUTHORS,
  scopes: ['questions:write'],
  params: idParam,
  responses: { 200: envelope(z.array(QuestionFeedbackEntry)), ...errors },
});

// ---- tenant assessments

export const AssessmentSummary = z.object({
  _id: Id,
  name: z.string(),
  tenantId: z.object({ _id: Id, name: z.string() }),
  createdAt: DateTime,
  questionCount: z.number().int(),
});
entities.add(AssessmentSummary, { id: 'AssessmentSummary' });

export const TenantAssessmentDetail = z.object({
  _id: Id,
  name: z.string(),
  tenantId: z.object({ _id: Id, name: z.string() }),
  createdAt: DateTime,
  questions: z.array(Question),
});
entities.add(TenantAssessmentDetail, { id: 'TenantAssessmentDetail' });

export const assessmentList = defineCall({
  method: 'GET',
  path: '/tenant/assessment/list',
  summary: "The tenant's assessments.",
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write'],
  responses: { 200: envelope(z.array(AssessmentSummary)), ...errors },
});

export const createAssessment = defineCall({
  method: 'POST',
  path: '/tenant/assessment/create',
  summary: 'Creates an empty assessment.',
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write'],
  body: AssessmentNameInput,
  responses: { 200: envelope(z.object({ _id: Id })), ...errors },
});

export const getAssessment = defineCall({
  method: 'GET',
  path: '/tenant/assessment/{assessmentId}',
  summary: 'An assessment with its questions (published ones: a draft joins when first saved).',
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write'],
  params: z.object({ assessmentId: Id }),
  responses: { 200: envelope(TenantAssessmentDetail), ...errors },
});

/** A pool learners' tests draw from, measured against what one test draws (decision 010). */
export const QuestionPool = z.object({
  /** The test that draws from it: a resource, section, final (ROADMAP) or subject test. */
  kind: z.enum(['RESOURCE', 'SECTION', 'ROADMAP', 'SUBJECT']),
  /** The resource, section, roadmap or subject. */
  id: Id,
  name: z.string(),
  /** The roadmap a resource or section belongs to. */
  context: z.string().nullable(),
  /** The language of its questions: a test draws from one language. */
  language: z.string(),
  /** Published questions in the pool. */
  questionCount: z.number().int(),
  /** Questions one test of this kind draws. */
  drawCount: z.number().int(),
  /** Whether a retake can be drawn entirely from questions the learner did not see the time before. */
  freshRetake: z.boolean(),
  /** Questions to add for that (0 when it can). */
  missing: z.number().int(),
});
entities.add(QuestionPool, { id: 'QuestionPool' });
export type QuestionPool = z.infer<typeof QuestionPool>;

export const assessmentQuestionPools = defineCall({
  method: 'GET',
  path: '/tenant/assessment/{assessmentId}/question-pools',
  summary: "The pools learners' tests draw from that this assessment's questions belong to, smallest first.",
  description:
    "For each question of the assessment: the subject test of its subject and the resource, section or final test it assesses. Each pool has its published questions and what one test draws; a pool under twice a test's draw cannot give a learner's retake questions they have not seen (`freshRetake` false, `missing` says how many to add).",
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write'],
  params: z.object({ assessmentId: Id }),
  responses: { 200: envelope(z.array(QuestionPool)), ...errors },
});

export const assignAssessmentUsers = defineCall({
  method: 'PUT',
  path: '/tenant/assessment/{id}/assign-users',
  summary:
    "Shares an assessment of at least 10 questions with the tenant's learners: each gets a custom test open from startTime for duration hours.",
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write'],
  params: idParam,
  body: ShareAssessmentInput,
  responses: {
    200: envelope(z.object({ created: z.number().int(), linkIds: z.array(z.string()) })),
    ...errors,
  },
});

export const addAssessmentQuestion = defineCall({
  method: 'PUT',
  path: '/tenant/assessment/{assessmentId}/add-question/{questionId}',
  summary: 'Adds a published question to the assessment (a draft is refused: it joins when first saved).',
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write'],
  params: z.object({ assessmentId: Id, questionId: Id }),
  responses: { 200: Ok, ...errors },
});

export const removeAssessmentQuestion = defineCall({
  method: 'PUT',
  path: '/tenant/assessment/{assessmentId}/remove-question/{questionId}',
  summary: 'Removes a question from the assessment.',
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write'],
  params: z.object({ assessmentId: Id, questionId: Id }),
  responses: { 200: Ok, ...errors },
});

export const tenantQuestion = defineCall({
  method: 'GET',
  path: '/tenant/question/{id}',
  summary: 'A question for the assessment builder.',
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write', 'questions:write'],
  params: idParam,
  responses: { 200: envelope(Question), ...errors },
});

export const tenantQuestionSearch = defineCall({
  method: 'GET',
  path: '/tenant/question/search-list',
  summary:
    'Searches published questions by text or tag; the text is lower-cased. The most recently changed first, `limit` a page; `page` (1-based) reads on.',
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write', 'questions:write'],
  query: z.object({
    searchText: z.string().trim().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
  }),
  responses: { 200: envelope(z.array(Question)), ...errors },
});

export const tenantQuestionRemove = defineCall({
  method: 'PUT',
  path: '/tenant/question/{id}',
  summary: 'Removes a question from an assessment (body assessmentId).',
  tags: ['tenant-assessment'],
  access: ['TENANT'],
  scopes: ['assessments:write'],
  params: idParam,
  body: z.object({ assessmentId: Id }),
  responses: { 200: Ok, ...errors },
});

/** The calls of a tenant's assessments (server/authoring/assessments.ts). */
export const tenantAssessmentsRouter = defineRouter({
  assessmentList,
  createAssessment,
  getAssessment,
  assessmentQuestionPools,
  assignAssessmentUsers,
  addAssessmentQuestion,
  removeAssessmentQuestion,
  tenantQuestionRemove,
});

/** The calls of the question editor (server/authoring/questions.ts). */
export const questionEditorRouter = defineRouter({
  adminSubjectList,
  createQuestion,
  getQuestion,
  saveQuestion,
  deleteQuestion,
  changeQuestionType,
  removeOption,
  updateImagePath,
  deleteImage,
  deleteCode,
  imageSignedUrl,
  questionFeedbackList,
  tenantQuestion,
  tenantQuestionSearch,
});
