/**
 * Assessments: test links at four levels, taking a test (questions without correctness data, answers saved
 * as given, the server's clock), evaluation on the server, the answers view, question feedback, and the
 * upload of an image to local storage. The award pages' calls are in ./awards.ts.
 * A test link id is an unguessable capability: /test/{linkId} and the award pages open without signing in.
 */
import { z } from 'zod';
import { ATTEMPT_TOKEN_HEADER, ATTEMPT_TOKEN_PATTERN } from '../rules/attempt-token';
import {
  Answer,
  LookingForJob,
  QuestionFeedbackInput,
  TakerQuestion,
  TestActivityInput,
  TestLink,
  TestStatus,
  TestType,
  TestView,
} from '../schemas/assessment';
import { IMAGE_TYPES_ALLOWED } from '../schemas/authoring';
import { MAX_IMAGE_BYTES } from '../schemas/award';
import { DateTime, ErrorBody, envelope, errors, Id, Ok, UnixSecondsInput } from '../schemas/common';
import { entities } from '../schemas/entities';
import { defineCall, defineRouter } from './define';

export const LinkIdParam = z.object({
  id: z
    .string()
    .min(10, 'is not a test link id')
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'is not a test link id'),
});

/**
 * An attempt token (decision 031): 32 random bytes the taking browser made, in base64url; the document
 * describes the header by examples/parameters.json.
 */
const AttemptToken = z
  .string()
  .regex(ATTEMPT_TOKEN_PATTERN, 'must be 32 random bytes in base64url (43 characters)');

/** The start's header: the token the attempt is bound to (required). */
export const AttemptStartHeaders = z.object({ [ATTEMPT_TOKEN_HEADER]: AttemptToken });
/** A write's header: the attempt's token (without it, or with another, the write is refused with 403). */
export const AttemptWriteHeaders = z.object({ [ATTEMPT_TOKEN_HEADER]: AttemptToken.optional() });
/** The Ready page's header: when given, the answer says whether it is the attempt's (`attemptHeld`). */
const AttemptReadHeaders = AttemptWriteHeaders;

/** The refusals of a write that does not carry the attempt's token, as the summaries of the calls name them. */
const ATTEMPT_REFUSALS =
  ' Refused with 403 ATTEMPT_TOKEN_REQUIRED without the attempt token (X-Attempt-Token) and ATTEMPT_TOKEN_INVALID with another one: the attempt is written by the browser that started it (decision 031).';

/** The body of POST /testlink/create, by type. */
export const CreateTestLinkInput = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('RESOURCE'), assignedRoadmapId: Id, sectionId: Id, resourceId: Id }),
    z.object({ type: z.literal('SECTION'), assignedRoadmapId: Id, sectionId: Id }),
    z.object({ type: z.literal('ROADMAP'), assignedRoadmapId: Id }),
    z.object({
      type: z.literal('SUBJECT'),
      subject: Id.describe('subject id'),
      lookingForJob: LookingForJob.describe('Are you currently looking for job?'),
    }),
  ],
  { error: 'type must be RESOURCE, SECTION, ROADMAP or SUBJECT' },
);
entities.add(CreateTestLinkInput, { id: 'CreateTestLinkInput' });

export const createTestLink = defineCall({
  method: 'POST',
  path: '/testlink/create',
  summary:
    'Creates a test link for a resource, a section, a roadmap (final) or a subject; questions are drawn and frozen now.',
  tags: ['testlink'],
  access: ['USER'],
  rateLimit: 'strict',
  body: CreateTestLinkInput,
  responses: { 200: envelope(z.object({ testLinkId: z.string() })), ...errors },
});

export const generateResourceTestLink = defineCall({
  method: 'POST',
  path: '/testlink/resource/{id}/generate',
  summary: 'Creates a test link for one resource by its id (the link sent to a learner, e.g. by message).',
  tags: ['testlink'],
  access: ['USER'],
  rateLimit: 'strict',
  params: z.object({ id: Id }),
  query: z.object({ send: z.enum(['email']).optional() }),
  responses: { 200: envelope(z.object({ testLinkId: z.string(), emailed: z.boolean() })), ...errors },
});

export const testLinkList = defineCall({
  method: 'GET',
  path: '/testlink/list',
  summary: "The learner's test links, newest first.",
  tags: ['testlink'],
  access: ['USER'],
  query: z.object({ assignedRoadmapId: Id.optional() }),
  responses: { 200: envelope(z.array(TestLink)), ...errors },
});

/** What the test page needs: questions without correctness data, saved answers and the server's clock. */
export const TakerTest = z.object({
  linkId: z.string(),
  type: TestType,
  status: TestStatus,
  subject: z.object({ name: z.string() }).nullable(),
  title: z.string(),
  questions: z.object({ questions: z.array(TakerQuestion) }),
  answers: z.array(Answer),
  questionCount: z.number().int(),
  timeLimitMinutes: z.number().int(),
  startedAt: DateTime.nullable(),
  deadlineAt: DateTime.nullable(),
  serverTime: DateTime,
  isCompleted: z.boolean(),
  /**
   * Whether the request carried the token of the attempt (X-Attempt-Token): its writes will be accepted.
   * False before the start, and for a test started (or continued) in another browser.
   */
  attemptHeld: z.boolean(),
  /** A link of a tenant's sandbox (decision 041): the page says so; its award is no credential. */
  sandbox: z.boolean(),
});
entities.add(TakerTest, { id: 'TakerTest' });

/**
 * A link that cannot be taken now, answered as data (`closed=state`): the refusal the test page would
 * otherwise get as an error — LINK_EXPIRED, TEST_COMPLETED or ASSESSMENT_NOT_YET_STARTED, with its status.
 */
export const ClosedTestLink = z.object({
  linkId: z.string(),
  closed: ErrorBody,
  sandbox: z.boolean(),
});
entities.add(ClosedTestLink, { id: 'ClosedTestLink' });

export const testLinkQuestions = defineCall({
  method: 'GET',
  path: '/testlink/assessment/{id}',
  summary:
    "Loads a test by its link id (no sign-in needed; another person's token is refused with 403). Errors carry errorCode LINK_EXPIRED (410), TEST_COMPLETED (410) or ASSESSMENT_NOT_YET_STARTED (403, before a custom test's start) with a message; with `closed=state` those three answer 200 with the same error as data (`closed`), so a page showing that screen logs no failed request. With the attempt token (X-Attempt-Token), `attemptHeld` says whether it is the started attempt's.",
  tags: ['testlink'],
  access: 'optional',
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  params: LinkIdParam,
  headers: AttemptReadHeaders,
  query: z.object({
    device: z.enum(['WEB', 'MOBILE']).default('WEB'),
    closed: z.enum(['error', 'state']).default('error'),
  }),
  responses: { 200: envelope(z.union([TakerTest, ClosedTestLink])), ...errors, 410: ErrorBody },
});

export const verifyTestLink = defineCall({
  method: 'PUT',
  path: '/testlink/verify/{id}',
  summary:
    "Starts the test: the server records the start and the deadline, and binds the attempt to the token in X-Attempt-Token (32 random bytes the browser made; decision 031). Idempotent with that token once started. A started test with another token is refused with 403 ATTEMPT_TOKEN_INVALID, unless the caller is the link's learner, signed in: the attempt then moves to this token and the other browser's writes are refused from then on.",
  tags: ['testlink'],
  access: 'optional',
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  params: LinkIdParam,
  headers: AttemptStartHeaders,
  responses: { 200: envelope(TakerTest), ...errors, 410: ErrorBody },
});

export const saveAnswer = defineCall({
  method: 'PUT',
  path: '/testlink/{id}/answer',
  summary: `Saves one answer as it is given (replaces the previous answer to that question).${ATTEMPT_REFUSALS}`,
  tags: ['testlink'],
  access: 'optional',
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  params: LinkIdParam,
  headers: AttemptWriteHeaders,
  body: Answer.omit({ roadmapId: true }),
  responses: { 200: Ok, ...errors, 410: ErrorBody },
});

export const testActivity = defineCall({
  method: 'POST',
  path: '/testlink/activity',
  summary: `One event of the test's focus record while it runs: the page left (BLUR) or back (FOCUS), a paste into an answer (PASTE, its length only), the test opened in a second tab (SECOND_TAB, SECOND_TAB_CLOSED), the connection lost and back (OFFLINE, ONLINE). Stored with the server's time; an event with an id already stored is recorded once. The tier and timeline built from them are context, not proof (shared/rules/integrity.ts).${ATTEMPT_REFUSALS}`,
  tags: ['testlink'],
  access: 'optional',
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  headers: AttemptWriteHeaders,
  body: TestActivityInput,
  responses: { 200: Ok, ...errors, 410: ErrorBody },
});

export const EvaluationResult = z.object({
  linkId: z.string(),
  testType: TestType,
  points: z.number(),
  score: z.number(),
  percentage: z.number(),
  questionCount: z.number().int(),
  status: TestStatus,
  /** score / questions ≥ 6 */
  certificateEligible: z.boolean(),
});
entities.add(EvaluationResult, { id: 'EvaluationResult' });

export const evaluateTest = defineCall({
  method: 'POST',
  path: '/testlink/evaluvate/v2',
  summary: `Evaluates a test on the server with the answers given (and any saved before). Evaluating twice gives the same result.${ATTEMPT_REFUSALS}`,
  tags: ['testlink'],
  access: 'optional',
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  headers: AttemptWriteHeaders,
  body: z.object({
    linkId: z.string().min(10).max(64),
    answers: z
      .array(Answer.omit({ roadmapId: true }))
      .max(200)
      .default([]),
  }),
  responses: { 200: envelope(EvaluationResult), ...errors, 410: ErrorBody },
});

export const viewTestLink = defineCall({
  method: 'GET',
  path: '/testlink/{id}/view',
  summary:
    'The questions with the correct answers and the answers given — only after evaluation, for the learner.',
  tags: ['testlink'],
  access: ['USER'],
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  params: LinkIdParam,
  responses: { 200: envelope(TestView), ...errors },
});

export const questionFeedback = defineCall({
  method: 'POST',
  path: '/feedback-question/create',
  summary: 'Feedback on a question of an evaluated test (10 to 500 characters).',
  tags: ['testlink'],
  access: ['USER'],
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  rateLimit: 'strict',
  body: QuestionFeedbackInput,
  responses: { 200: Ok, ...errors },
});

export const uploadFile = defineCall({
  method: 'PUT',
  path: '/storage/upload',
  summary:
    'Uploads one image to the address that create-presigned-url (or an image signed-url call) returned, when files are stored locally. The query is signed and expires after a few minutes; send the image as the raw body with the signed Content-Type (image/jpeg, image/png or image/webp, checked against its first bytes), at most the signed size.',
  tags: ['storage'],
  access: 'public',
  query: z.object({
    key: z.string().min(1).max(300),
    ct: z.enum(['image/jpeg', 'image/png', 'image/webp'], { error: 'is not an image type' }),
    max: z.coerce.number().int().positive().max(MAX_IMAGE_BYTES),
    size: z.coerce.number().int().positive().max(MAX_IMAGE_BYTES).optional(),
    expires: UnixSecondsInput,
    sig: z
      .string()
      .length(64, 'is not a signature')
      .regex(/^[0-9a-f]{64}$/, 'is not a signature'),
  }),
  rawBody: { contentTypes: IMAGE_TYPES_ALLOWED, maxBytes: MAX_IMAGE_BYTES },
  responses: {
    200: envelope(z.object({ key: z.string(), url: z.string(), size: z.number().int() })),
    ...errors,
    413: ErrorBody,
    415: ErrorBody,
  },
});

/** The calls of the upload route of locally stored files (server/http/files.ts). */
export const uploadRouter = defineRouter({
  uploadFile,
});

/** The calls of test links (server/assessments/routes.ts). */
export const assessmentsRouter = defineRouter({
  createTestLink,
  generateResourceTestLink,
  testLinkList,
  testLinkQuestions,
  verifyTestLink,
  saveAnswer,
  testActivity,
  evaluateTest,
  viewTestLink,
  questionFeedback,
});
