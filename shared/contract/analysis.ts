/**
 * Item analysis and awards that expire (issue 30, decision 037), served by server/analysis and
 * server/renewals: an assessment's statistics and each of its questions' (facility, discrimination, option
 * shares, flags with their rules; docs/item-analysis.md), the question bank's column, one question's figures,
 * the same as files, the platform's own tests for its staff, an assessment's validity period and an award's
 * renewal. Only whoever may see the submissions sees their figures: a tenant its own assessments', the
 * platform's staff (PLATFORM_STAFF_EMAILS) the platform's tests'.
 */
import { z } from 'zod';
import { FLAG_CODES } from '../rules/item-analysis';
import { NOTE_CODES } from '../rules/stats-notes';
import { MAX_VALIDITY_MONTHS } from '../rules/validity';
import { QuestionType } from '../schemas/assessment';
import { DateTime, ErrorBody, envelope, errors, Id } from '../schemas/common';
import { FileBody } from '../schemas/file';
import { LinkIdParam } from './assessments';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;
const Share = z.number().min(0).max(1);

/** What a flag names, unformatted (shared/rules/flag-words.ts): the fields its code uses. */
const FlagParams = z.object({
  /** TOO_EASY, TOO_HARD. */
  facility: Share.optional(),
  /** NEGATIVE_DISCRIMINATION, POOR_DISCRIMINATION. */
  discrimination: z.number().min(-1).max(1).optional(),
  /** RARE_DISTRACTOR: each wrong option few takers chose, with its share. */
  options: z.array(z.object({ label: z.string(), share: Share })).optional(),
  /** LIKELY_MISKEYED: each key the upper group chose less than a wrong option, with their upper shares. */
  beaten: z
    .array(z.object({ chosen: z.string(), chosenShare: Share, key: z.string(), keyShare: Share }))
    .optional(),
  /** POSSIBLY_LEAKED: facility before and after the day (YYYY-MM-DD), and the rest of the test's rise. */
  rise: z
    .object({
      from: z.string(),
      before: Share,
      beforeAttempts: z.number().int(),
      after: Share,
      afterAttempts: z.number().int(),
      restRise: z.number(),
    })
    .optional(),
});

export const ItemFlag = z.object({
  code: z.enum(FLAG_CODES),
  label: z.string(),
  /** The rule that raises it, as shown beside it. */
  rule: z.string(),
  /** What in the figures raised it, in English. */
  detail: z.string(),
  /** What `detail` names, for saying it in the reader's language (decision 048). */
  params: FlagParams,
});

export const OptionShare = z.object({
  /** The option's id, or `none` for takers who chose no option. */
  option: z.string(),
  label: z.string(),
  /** A correct option. */
  isKey: z.boolean(),
  /** The share of the takers who received the question that chose it. */
  share: Share,
  /** The same among the upper and the lower 27 % of those takers by score. */
  upper: Share.nullable(),
  lower: Share.nullable(),
});

/** One question's figures (shared/rules/item-analysis.ts itemFigures). */
export const ItemFigures = z.object({
  attempts: z.number().int(),
  /** The mean share of the question's points earned (0–1). */
  facility: Share.nullable(),
  /** The corrected item–rest correlation (−1 to 1). */
  discrimination: z.number().min(-1).max(1).nullable(),
  discriminationNote: z.string().nullable(),
  /** discriminationNote's code, its message key (decision 048). */
  discriminationNoteCode: z.enum(NOTE_CODES).nullable(),
  /** Mean seconds to answer it, over the attempts with a time. */
  averageSeconds: z.number().nullable(),
  timedAttempts: z.number().int(),
  /** Choice questions: each option, and `none`. */
  options: z.array(OptionShare).nullable(),
  /** Fewer than 30 attempts: figures shown, flags not raised. */
  smallSample: z.boolean(),
  flags: z.array(ItemFlag),
});

export const QuestionStatsRow = z.object({
  questionId: Id,
  /** The question's text. */
  question: z.string(),
  questionType: QuestionType,
  /** Its place in the assessment (1-based); null when it is no longer in it. */
  position: z.number().int().nullable(),
  figures: ItemFigures,
});

/** A test's figures over its evaluated attempts (shared/rules/test-figures.ts). */
export const TestFigures = z.object({
  attempts: z.number().int(),
  takers: z.number().int(),
  /** Scores as percentages: mean, median, sample standard deviation. */
  score: z.object({
    mean: z.number().nullable(),
    median: z.number().nullable(),
    sd: z.number().nullable(),
  }),
  histogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
  reliability: z.object({
    method: z.enum(['KR-20', 'ALPHA']),
    value: z.number().nullable(),
    /** The standard error of measurement, in percentage points. */
    sem: z.number().nullable(),
    note: z.string().nullable(),
    /** note's code, its message key (decision 048). */
    noteCode: z.enum(NOTE_CODES).nullable(),
  }),
  /** The share of attempts that passed (earned the award's mark). */
  passRate: Share.nullable(),
  passPercentage: z.number(),
  /** Seconds to complete: mean and median. */
  time: z.object({ mean: z.number().nullable(), median: z.number().nullable() }),
  /** Takers received different questions (drawn at random, or the assessment changed). */
  drawn: z.boolean(),
  lastEvaluatedAt: DateTime.nullable(),
  smallSample: z.boolean(),
});

export const AssessmentStats = z.object({
  assessment: z.object({ _id: z.string(), name: z.string() }),
  summary: TestFigures,
  questions: z.array(QuestionStatsRow),
});

const StatsFormat = z.object({
  format: z.enum(['csv', 'ndjson'], { error: 'must be csv or ndjson' }).default('csv'),
});
const statsFile = {
  download: { contentTypes: ['text/csv', 'application/x-ndjson'] },
  responses: { 200: FileBody, ...errors },
} as const;
const columnsNote =
  ' Columns: Position, Question, Type, Attempts, Facility, Discrimination, Average time (s), Flags, then each option’s share overall, upper and lower; CSV (UTF-8 with a BOM, formula-guarded) or NDJSON.';

export const assessmentStats = defineCall({
  method: 'GET',
  path: '/tenant/assessment/{assessmentId}/stats',
  summary:
    'The statistics of an assessment: takers, score mean, median, SD and histogram, KR-20 or α with its SEM, pass rate, time to complete, and each question’s facility, discrimination, time, option shares and flags. The assessment’s tenant only (404 otherwise).',
  tags: ['tenant-assessment', 'item-analysis'],
  access: TENANT,
  scopes: ['reports:read'],
  params: z.object({ assessmentId: Id }),
  responses: { 200: envelope(AssessmentStats), ...errors },
});

export const assessmentStatsExport = defineCall({
  method: 'GET',
  path: '/tenant/assessment/{assessmentId}/stats/export',
  summary: `The question table of an assessment’s statistics as a file.${columnsNote}`,
  tags: ['tenant-assessment', 'item-analysis'],
  access: TENANT,
  scopes: ['reports:read'],
  params: z.object({ assessmentId: Id }),
  query: StatsFormat,
  ...statsFile,
});

export const QuestionBankStats = z.object({
  /** The tenant's evaluated attempts the figures are over. */
  attempts: z.number().int(),
  questions: z.array(QuestionStatsRow),
});

export const questionBankStats = defineCall({
  method: 'GET',
  path: '/tenant/question/stats',
  summary:
    'The question bank’s figures: every question the tenant wrote or uses in an assessment, over the attempts of the tenant’s own assessments, with its flags.',
  tags: ['tenant-question', 'item-analysis'],
  access: TENANT,
  scopes: ['reports:read'],
  responses: { 200: envelope(QuestionBankStats), ...errors },
});

export const questionBankStatsExport = defineCall({
  method: 'GET',
  path: '/tenant/question/stats/export',
  summary: `The question bank’s figures as a file.${columnsNote}`,
  tags: ['tenant-question', 'item-analysis'],
  access: TENANT,
  scopes: ['reports:read'],
  query: StatsFormat,
  ...statsFile,
});

export const QuestionStats = z.object({
  questionId: Id,
  /** Over every assessment of the tenant that used it. */
  overall: ItemFigures,
  byAssessment: z.array(z.object({ assessmentId: Id, name: z.string(), figures: ItemFigures })),
});

export const questionStats = defineCall({
  method: 'GET',
  path: '/tenant/question/{id}/stats',
  summary:
    'One question’s figures for the question editor: over the tenant’s assessments, and in each of them. A question the tenant may not read is 404.',
  tags: ['tenant-question', 'item-analysis'],
  access: TENANT,
  scopes: ['reports:read'],
  params: z.object({ id: Id }),
  responses: { 200: envelope(QuestionStats), ...errors },
});

/** A platform test: `SUBJECT:{subjectId}`, `ROADMAP:{roadmapId}`, `SECTION:…`, `RESOURCE:…`, `INITIAL-ASSESSMENT:…`. */
export const PlatformTestKey = z
  .string()
  .max(60, 'must be a platform test such as SUBJECT:{subjectId}')
  .regex(
    /^(SUBJECT|ROADMAP|SECTION|RESOURCE|INITIAL-ASSESSMENT):[0-9a-f-]{36}$/i,
    'must be a platform test such as SUBJECT:{subjectId}',
  );

export const platformTestStats = defineCall({
  method: 'GET',
  path: '/admin/test/{testKey}/stats',
  summary:
    'The statistics of one of the platform’s own tests (a subject test, a roadmap’s final, section or resource test): platform staff only (403 otherwise).',
  tags: ['item-analysis'],
  access: 'signedIn',
  params: z.object({ testKey: PlatformTestKey }),
  responses: { 200: envelope(AssessmentStats), ...errors, 403: ErrorBody },
});

export const platformQuestionStats = defineCall({
  method: 'GET',
  path: '/admin/question/stats',
  summary:
    'The platform’s question bank (its own questions) with their figures over the platform’s tests: platform staff only (403 otherwise).',
  tags: ['item-analysis'],
  access: 'signedIn',
  responses: { 200: envelope(QuestionBankStats), ...errors, 403: ErrorBody },
});

// ---------------------------------------------------------------- awards that expire

export const ValidityMonths = z
  .number({ error: 'must be a number of months' })
  .int('must be a whole number of months')
  .min(1, 'must be at least 1 month')
  .max(MAX_VALIDITY_MONTHS, `must be at most ${MAX_VALIDITY_MONTHS} months`)
  .nullable();

export const AssessmentValidity = z.object({
  /** The period in force: awards earned from now on are valid this many months; null: no end. */
  months: z.number().int().nullable(),
  /** Every period set, oldest first: an award keeps the one in force when it was earned. */
  periods: z.array(z.object({ months: z.number().int().nullable(), from: DateTime })),
});

export const assessmentValidity = defineCall({
  method: 'GET',
  path: '/tenant/assessment/{assessmentId}/validity',
  summary: 'How long the certificates of an assessment stay valid. The assessment’s tenant only.',
  tags: ['tenant-assessment', 'certificate'],
  access: TENANT,
  scopes: ['reports:read', 'assessments:write'],
  params: z.object({ assessmentId: Id }),
  responses: { 200: envelope(AssessmentValidity), ...errors },
});

export const setAssessmentValidity = defineCall({
  method: 'PUT',
  path: '/tenant/assessment/{assessmentId}/validity',
  summary:
    'Sets how long the certificates earned from now on stay valid (months, or null for no end). Certificates earned before keep their end: nothing expires retroactively.',
  tags: ['tenant-assessment', 'certificate'],
  access: TENANT,
  scopes: ['assessments:write'],
  params: z.object({ assessmentId: Id }),
  body: z.object({ months: ValidityMonths }),
  responses: { 200: envelope(AssessmentValidity), ...errors },
});

export const renewAward = defineCall({
  method: 'POST',
  path: '/certificate/{id}/renew',
  summary:
    'The renewal test of a certificate from a mentor’s assessment that expires within 30 days or has expired: its link (made once; the same link again after). Only the learner who earned it. A subject certificate is renewed by taking the subject test again (POST /testlink/create).',
  tags: ['certificate'],
  access: ['USER'],
  params: LinkIdParam,
  idempotent: true,
  responses: { 200: envelope(z.object({ testLinkId: z.string() })), ...errors, 403: ErrorBody },
});

/** Item analysis's calls, served by server/analysis/routes.ts. */
export const analysisRouter = defineRouter({
  assessmentStats,
  assessmentStatsExport,
  questionBankStats,
  questionBankStatsExport,
  questionStats,
  platformTestStats,
  platformQuestionStats,
});

/** Awards' validity and renewal, served by server/renewals/routes.ts. */
export const renewalsRouter = defineRouter({ assessmentValidity, setAssessmentValidity, renewAward });
