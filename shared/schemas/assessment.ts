import { z } from 'zod';
import type { MessageKey } from '../i18n/keys';
import { FOCUS_EVENT_TYPES, INTEGRITY_TIERS } from '../rules/integrity';
import { DEFAULT_QUESTION_TYPE, QUESTION_TYPES } from '../rules/question-types';
import { DateTime, Id, UnixMillisInput } from './common';
import { entities } from './entities';

/** The six question types: their list and what each is like are in shared/rules/question-types.ts. */
export const QuestionType = z.enum(QUESTION_TYPES);
entities.add(QuestionType, { id: 'QuestionType' });
export type QuestionType = z.infer<typeof QuestionType>;
export const QUESTION_STATUSES = ['PREVIEW', 'PUBLISH'] as const;

export const TEST_TYPES = [
  'SUBJECT',
  'ROADMAP',
  'SECTION',
  'RESOURCE',
  'RESOURCE-FROM-WHATSAPP',
  'CUSTOM-TEST',
  'INITIAL-ASSESSMENT',
] as const;
export const TestType = z.enum(TEST_TYPES);
entities.add(TestType, { id: 'TestType' });
export type TestType = z.infer<typeof TestType>;

export const TEST_STATUSES = [
  'TAKE_TEST',
  'EXPIRED',
  'NO_ENOUGH_MARKS',
  'GENERATE_CERTIFICATE',
  'VIEW_CERTIFICATE',
] as const;
export const TestStatus = z.enum(TEST_STATUSES);
entities.add(TestStatus, { id: 'TestStatus' });
export type TestStatus = z.infer<typeof TestStatus>;

export const LOOKING_FOR_JOB = ['YES', 'NO', 'IN FUTURE'] as const;
export const LookingForJob = z.enum(LOOKING_FOR_JOB);
entities.add(LookingForJob, { id: 'LookingForJob' });
export type LookingForJob = z.infer<typeof LookingForJob>;
/** The answers' labels (message keys). */
export const LOOKING_FOR_JOB_LABELS: Record<LookingForJob, MessageKey> = {
  YES: 'common.yes',
  NO: 'common.no',
  'IN FUTURE': 'subjectTest.inFuture',
};

/** The form's messages (message keys, said in the reader's language by the form and the server). */
export const subjectTestMessages = {
  subjectRequired: 'subjectTest.subjectRequired',
  lookingForJobRequired: 'subjectTest.jobRequired',
} as const;

/** The subject test creator's form (learner §5): a subject and 'Are you currently looking for job?'. */
export const SubjectTestForm = z.object({
  subject: z.uuid({ error: subjectTestMessages.subjectRequired }),
  lookingForJob: z.enum(LOOKING_FOR_JOB, { error: subjectTestMessages.lookingForJobRequired }),
});
entities.add(SubjectTestForm, { id: 'SubjectTestForm' });

/** An option as an author sees it. */
export const Option = z.object({
  _id: Id,
  value: z.string(),
  isCorrect: z.boolean(),
  points: z.number(),
});
entities.add(Option, { id: 'Option' });
/** An option as a test taker sees it: no correctness data. */
export const TakerOption = Option.pick({ _id: true, value: true });
entities.add(TakerOption, { id: 'TakerOption' });

export const ExplanationItem = z.object({ type: z.literal('TEXT'), value: z.string() });
entities.add(ExplanationItem, { id: 'ExplanationItem' });

/** A question as its author sees it. */
export const Question = z.object({
  _id: Id,
  questionId: Id,
  question: z.string(),
  questionType: QuestionType.default(DEFAULT_QUESTION_TYPE),
  optionType: z.string().nullable(),
  code: z.string().nullable(),
  questionImagePath: z.string().nullable(),
  isQuestionImage: z.boolean(),
  points: z.number(),
  options: z.array(Option),
  subject: Id.nullable(),
  topic: Id.nullable(),
  /** The language it is written in: a test draws questions of one language only. */
  language: Id,
  explanation: z.array(ExplanationItem),
  tags: z.array(z.string()),
  status: z.enum(QUESTION_STATUSES),
  roadmapId: Id.nullable(),
  roadmapName: z.string().nullable(),
  createdBy: z.object({ _id: Id, name: z.string() }).nullable(),
  countRepeatedQuestion: z.number().int(),
  feedbackCount: z.number().int(),
  belongToResource: z.array(
    z.object({
      _id: Id,
      actualTitle: z.string(),
      roadmapId: Id.nullable(),
      roadmapName: z.string().nullable(),
    }),
  ),
});
entities.add(Question, { id: 'Question' });
export type Question = z.infer<typeof Question>;

/** A question as a test taker sees it before evaluation. */
export const TakerQuestion = z.object({
  _id: Id,
  question: z.string(),
  questionType: QuestionType,
  code: z.string().nullable(),
  questionImagePath: z.string().nullable(),
  options: z.array(TakerOption),
  points: z.number(),
  /** For the prerequisite assessment: which prerequisite roadmap it tests. */
  roadmapId: Id.nullable(),
  roadmapName: z.string().nullable(),
});
entities.add(TakerQuestion, { id: 'TakerQuestion' });
export type TakerQuestion = z.infer<typeof TakerQuestion>;

/** One answer: an option id, a list of ids for multi-select, or a typed value for fill-in-blank. */
export const Answer = z.object({
  questionId: Id,
  answerId: z.union([Id, z.array(Id).max(20)]).optional(),
  answer: z.union([z.string().max(500), z.number().min(-1e12).max(1e12)]).optional(),
  /** In the prerequisite submission. */
  roadmapId: Id.optional(),
});
entities.add(Answer, { id: 'Answer' });
export type Answer = z.infer<typeof Answer>;

/** The focus record of an attempt in brief (shared/rules/integrity.ts): null before the test started. */
export const IntegritySummary = z.object({
  tier: z.enum(INTEGRITY_TIERS),
  /** Seconds away in all (absences of at least the brief threshold). */
  awaySeconds: z.number().int().nonnegative(),
  longestAwaySeconds: z.number().int().nonnegative(),
  absences: z.number().int().nonnegative(),
  briefAbsences: z.number().int().nonnegative(),
  pastes: z.number().int().nonnegative(),
  secondTabs: z.number().int().nonnegative(),
  offlineSeconds: z.number().int().nonnegative(),
  /** The test's length the rules used, seconds. */
  testSeconds: z.number().int().nonnegative(),
  /** The rules that decided the tier, in words. */
  reasons: z.array(z.string()),
});
entities.add(IntegritySummary, { id: 'IntegritySummary' });
export type IntegritySummary = z.infer<typeof IntegritySummary>;

/** One entry of the focus record's timeline, at the server's time. */
export const TimelineEntry = z.object({
  kind: z.enum(['AWAY', 'PASTE', 'SECOND_TAB', 'OFFLINE']),
  at: DateTime,
  /** Null for a paste, or when it had not ended by the end of the test. */
  until: DateTime.nullable(),
  seconds: z.number().int().nonnegative().nullable(),
  /** The question on screen when it began (1-based). */
  question: z.number().int().positive().nullable(),
  /** A paste's length in characters (what was pasted is never recorded). */
  chars: z.number().int().nonnegative().nullable(),
  /** An absence shorter than the brief threshold: listed, not counted. */
  brief: z.boolean(),
});
entities.add(TimelineEntry, { id: 'TimelineEntry' });
export type TimelineEntry = z.infer<typeof TimelineEntry>;

export const TestLink = z.object({
  _id: Id,
  linkId: z.string(),
  type: TestType,
  subject: z.object({ _id: Id, name: z.string() }).nullable(),
  testId: z.object({ _id: Id, name: z.string() }).nullable(),
  isCompleted: z.boolean(),
  percentage: z.number().nullable(),
  score: z.number().nullable(),
  createdAt: DateTime,
  /** Seconds taken. */
  completedIn: z.number().nullable(),
  status: TestStatus,
  startTime: DateTime.nullable(),
  /** Hours, for custom tests. */
  duration: z.number().nullable(),
  userId: Id,
  certificateGenerated: z.boolean(),
  assignedSectionName: z.string().nullable(),
  assignedRoadMapName: z.string().nullable(),
  assignedResourceName: z.string().nullable(),
  assignedSubjectName: z.string().nullable(),
  questionCount: z.number().int(),
  /** What the link assesses, for the roadmap page (null for subject and custom tests). */
  assignedRoadmapId: Id.nullable(),
  sectionId: Id.nullable(),
  resourceId: Id.nullable(),
  /** The focus record in brief, once the test has started (context, not proof). */
  integrity: IntegritySummary.nullable(),
  /** Which attempt of this test it is (1, 2, …) among the learner's started attempts; null until started. */
  attempt: z.number().int().positive().nullable(),
  /** For a failed test: when a new link for it can be asked for (the retake cool-down); otherwise null. */
  retakeAt: DateTime.nullable(),
});
entities.add(TestLink, { id: 'TestLink' });
export type TestLink = z.infer<typeof TestLink>;

/** A test link with its questions and the answers given, after evaluation. */
export const TestView = TestLink.extend({
  questions: z.array(Question),
  answers: z.array(Answer.extend({ points: z.number().optional() })),
  /** The focus record's timeline, oldest first: the same for the learner and the mentor. */
  timeline: z.array(TimelineEntry),
});
entities.add(TestView, { id: 'TestView' });

export const QuestionFeedbackInput = z.object({
  feedback: z
    .string({ error: 'feedback.required' })
    .trim()
    .min(1, 'feedback.required')
    .min(10, 'feedback.tooShort')
    .max(500, 'feedback.tooLong'),
  testLinkId: z.string().min(1, 'testLinkId is required').max(64, 'is not a test link id'),
  questionId: Id,
});
entities.add(QuestionFeedbackInput, { id: 'QuestionFeedbackInput' });

export const ACTIVITY_TYPES = FOCUS_EVENT_TYPES;
export const TestActivityInput = z.object({
  linkId: z.string().min(1).max(64, 'is not a test link id'),
  type: z.enum(ACTIVITY_TYPES, {
    error: `must be one of ${ACTIVITY_TYPES.join(', ')}`,
  }),
  /** When it happened, by the page's clock: unix milliseconds (or seconds). */
  timeStamp: UnixMillisInput,
  /**
   * When the page sent it, by the same clock (unix ms). With it the server places an event that waited in
   * an offline queue at its own time: now − (sentAt − timeStamp), within the attempt. Without it, at now.
   */
  sentAt: UnixMillisInput.optional(),
  /** The page's id for the event: an event sent twice is recorded once. */
  id: z
    .string()
    .min(8)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, - or _')
    .optional(),
  /** The question on screen (1-based). */
  question: z.number().int().min(1).max(1000).optional(),
  /** A paste's length in characters (never its text). */
  chars: z.number().int().min(0).max(1_000_000).optional(),
});
entities.add(TestActivityInput, { id: 'TestActivityInput' });

/** A question's feedback as the author sees it. */
export const QuestionFeedbackEntry = z.object({
  _id: Id,
  feedback: z.string(),
  status: z.string(),
  createdAt: DateTime,
  userId: z.object({ name: z.string(), role: z.string() }),
  activites: z.array(
    z.object({
      message: z.string(),
      toStatus: z.string(),
      createdAt: DateTime,
      userId: z.object({ name: z.string() }),
    }),
  ),
});
entities.add(QuestionFeedbackEntry, { id: 'QuestionFeedbackEntry' });

/** An assessment built by a tenant. */
export const TenantAssessment = z.object({
  _id: Id,
  name: z.string(),
  tenantId: z.object({ _id: Id, name: z.string() }),
  createdAt: DateTime,
  questions: z.array(Question),
});
entities.add(TenantAssessment, { id: 'TenantAssessment' });

export const AssignUsersInput = z.object({
  userIds: z.array(Id).min(1, 'Please provide valid input'),
  createdAt: z.number().int(),
  startTime: z.number().int(),
  duration: z.number().int().min(1),
});
entities.add(AssignUsersInput, { id: 'AssignUsersInput' });
