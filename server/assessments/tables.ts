/**
 * Test links with their frozen questions, answers, activity and question feedback. The questions they draw
 * are the question bank's (server/questions/tables.ts).
 */

import { FOCUS_EVENT_TYPES } from '@shared/rules/integrity';
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { assignedRoadmaps, resources, roadmaps, sections } from '../catalogue/tables';
import { subjects, users } from '../db/schema';
import { questions } from '../questions/tables';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The expression of test_links.test_key (immutable: each id is cast to text before it is joined). */
const TEST_KEY = sql`case
  when type in ('RESOURCE', 'RESOURCE-FROM-WHATSAPP') then 'RESOURCE:' || resource_id::text
  when type = 'SECTION' then 'SECTION:' || section_id::text
  when type = 'ROADMAP' then 'ROADMAP:' || roadmap_id::text
  when type = 'SUBJECT' then 'SUBJECT:' || subject_id::text
  when type = 'CUSTOM-TEST' then 'CUSTOM-TEST:' || tenant_assessment_id::text
  when type = 'INITIAL-ASSESSMENT' then 'INITIAL-ASSESSMENT:' || roadmap_id::text
end`;

export const testLinks = pgTable(
  'test_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The unguessable public id in /test/{linkId} and the award pages. */
    linkId: text('link_id').notNull(),
    type: text('type', {
      enum: [
        'SUBJECT',
        'ROADMAP',
        'SECTION',
        'RESOURCE',
        'RESOURCE-FROM-WHATSAPP',
        'CUSTOM-TEST',
        'INITIAL-ASSESSMENT',
      ],
    }).notNull(),
    /** Null for a prerequisite assessment taken before sign-in. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    subjectId: uuid('subject_id').references(() => subjects.id),
    roadmapId: uuid('roadmap_id').references(() => roadmaps.id, { onDelete: 'set null' }),
    assignedRoadmapId: uuid('assigned_roadmap_id').references(() => assignedRoadmaps.id, {
      onDelete: 'set null',
    }),
    sectionId: uuid('section_id').references(() => sections.id, { onDelete: 'set null' }),
    resourceId: uuid('resource_id').references(() => resources.id, { onDelete: 'set null' }),
    /** A tenant's custom assessment. */
    tenantAssessmentId: uuid('tenant_assessment_id'),
    lookingForJob: text('looking_for_job', { enum: ['YES', 'NO', 'IN FUTURE'] }),
    /** Names frozen at creation for the tables and awards. */
    assignedRoadMapName: text('assigned_roadmap_name'),
    assignedSectionName: text('assigned_section_name'),
    assignedResourceName: text('assigned_resource_name'),
    assignedSubjectName: text('assigned_subject_name'),
    status: text('status', {
      enum: ['TAKE_TEST', 'EXPIRED', 'NO_ENOUGH_MARKS', 'GENERATE_CERTIFICATE', 'VIEW_CERTIFICATE'],
    })
      .notNull()
      .default('TAKE_TEST'),
    isCompleted: boolean('is_completed').notNull().default(false),
    score: numeric('score', { precision: 8, scale: 2, mode: 'number' }),
    percentage: numeric('percentage', { precision: 6, scale: 2, mode: 'number' }),
    questionCount: integer('question_count').notNull().default(0),
    /** The time allowed once started, in minutes. */
    timeLimitMinutes: integer('time_limit_minutes').notNull().default(30),
    /** Custom tests: the window opens at startTime for durationHours. */
    startTime: ts('start_time'),
    durationHours: integer('duration_hours'),
    /** The link stops being usable (not started) after this. */
    expiresAt: ts('expires_at'),
    startedAt: ts('started_at'),
    deadlineAt: ts('deadline_at'),
    completedAt: ts('completed_at'),
    /** Seconds taken. */
    completedIn: integer('completed_in'),
    certificateGenerated: boolean('certificate_generated').notNull().default(false),
    certificatePath: text('certificate_path'),
    createdAt: createdAt(),
    /**
     * Which test this is an attempt of, whatever link it came by: `RESOURCE:{resourceId}` (a resource test
     * from the roadmap or by the resource's id), `SECTION:{sectionId}`, `ROADMAP:{roadmapId}`,
     * `SUBJECT:{subjectId}`, `CUSTOM-TEST:{assessmentId}`, `INITIAL-ASSESSMENT:{roadmapId}` (decision 010).
     */
    testKey: text('test_key').generatedAlwaysAs(TEST_KEY),
    /** The attempt's number among the learner's started attempts of the same test; set when it starts. */
    attempt: integer('attempt'),
    /**
     * The hash of the attempt token of the browser taking the test (decision 031): set by the start, moved
     * by the learner's own takeover; every write of the attempt must carry the token. Null until started;
     * 'legacy' for an attempt started before tokens (migration 0017), which keeps the link id's rule until
     * it ends.
     */
    attemptTokenHash: text('attempt_token_hash'),
    /**
     * A link of a tenant's sandbox (server/sandbox/, decision 041): it never expires, its attempts are reset
     * on demand, no retake cool-down holds it back, and its award is marked as the sandbox's and never
     * issued as a credential.
     */
    sandbox: boolean('sandbox').notNull().default(false),
  },
  (t) => [
    uniqueIndex('test_links_link_id_key').on(t.linkId),
    index('test_links_user_idx').on(t.userId, t.createdAt),
    // a learner's attempts of one test: the open one, the last failure (the cool-down), the attempt count
    index('test_links_user_test_idx').on(t.userId, t.testKey, t.createdAt),
    index('test_links_assigned_idx').on(t.assignedRoadmapId),
    // the sweep: started tests past their deadline, unused links past their expiry. Each is partial on its
    // own column being set, which only the sweep's range (deadline_at < …, expires_at < …) implies: a
    // taker's statement, which states the link's state (open, started or not) but never that, cannot walk
    // one of them to find its link — on exam day the statistics see them nearly empty, and then ten
    // thousand links start within a minute (migration 0016, server/assessments/link-lookups.test.ts)
    index('test_links_due_idx')
      .on(t.deadlineAt)
      .where(sql`${t.status} = 'TAKE_TEST' and ${t.isCompleted} = false and ${t.deadlineAt} is not null`),
    // item analysis finds the attempts evaluated lately (server/analysis/fold.ts); an evaluation already
    // writes every index (it changes the columns the sweep's indexes are partial on), so this costs one
    // entry per evaluated link, and no taker's statement can use it (it says the link is completed)
    index('test_links_completed_idx').on(t.completedAt).where(sql`${t.isCompleted}`),
    index('test_links_unused_idx')
      .on(t.expiresAt)
      .where(
        sql`${t.status} = 'TAKE_TEST' and ${t.isCompleted} = false and ${t.startedAt} is null and ${t.expiresAt} is not null`,
      ),
  ],
);

/** A test link as stored. */
export type LinkRow = typeof testLinks.$inferSelect;

/** The questions of a link, drawn and ordered when it was created. */
export const testLinkQuestions = pgTable(
  'test_link_questions',
  {
    testLinkId: uuid('test_link_id')
      .notNull()
      .references(() => testLinks.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** For prerequisite assessments: which prerequisite roadmap the question tests. */
    roadmapId: uuid('roadmap_id'),
    /** The option order shown to this taker. */
    optionOrder: jsonb('option_order').$type<string[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.testLinkId, t.questionId] })],
);

/**
 * One saved answer per question of a link; saved as it is given. An answer belongs to a question OF ITS LINK
 * (one foreign key to test_link_questions, which cascades from the link and from the question): checking
 * it locks that link's own row, where a key to `questions` locked the question row every taker of the
 * same test shares (a multixact per answer on exam day) and a key to `test_links` was a second check.
 * Filled to 70 % (migration 0014) so an answer changed or scored is rewritten in its page (a HOT update).
 */
export const testAnswers = pgTable(
  'test_answers',
  {
    testLinkId: uuid('test_link_id').notNull(),
    questionId: uuid('question_id').notNull(),
    answerIds: uuid('answer_ids').array().notNull().default(sql`'{}'::uuid[]`),
    answerText: text('answer_text'),
    /** Set at evaluation. */
    points: numeric('points', { precision: 6, scale: 2, mode: 'number' }),
    answeredAt: ts('answered_at').notNull().defaultNow(),
    /**
     * When an answer to the question was first saved: set on insert only (no write names it), so the
     * submission, which rewrites answered_at, keeps it — item analysis times each question from it
     * (migration 0019; null for answers saved before).
     */
    firstAnsweredAt: ts('first_answered_at').defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.testLinkId, t.questionId] }),
    foreignKey({
      name: 'test_answers_link_question_fk',
      columns: [t.testLinkId, t.questionId],
      foreignColumns: [testLinkQuestions.testLinkId, testLinkQuestions.questionId],
    }).onDelete('cascade'),
  ],
);

export const testActivity = pgTable(
  'test_activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    testLinkId: uuid('test_link_id')
      .notNull()
      .references(() => testLinks.id, { onDelete: 'cascade' }),
    type: text('type', { enum: FOCUS_EVENT_TYPES }).notNull(),
    /** When it happened by the page's clock. */
    timeStamp: ts('time_stamp').notNull(),
    /** When it happened by the server's clock (what the record uses; see the testActivity call). */
    at: ts('at').notNull().defaultNow(),
    /** The question on screen (1-based). */
    question: integer('question'),
    /** A paste's length in characters. */
    chars: integer('chars'),
    /** The page's id for the event, so one sent twice is stored once. */
    clientId: text('client_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('test_activity_link_idx').on(t.testLinkId, t.at),
    uniqueIndex('test_activity_client_key').on(t.testLinkId, t.clientId),
  ],
);

export const questionFeedback = pgTable(
  'question_feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    testLinkId: uuid('test_link_id').references(() => testLinks.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    feedback: text('feedback').notNull(),
    status: text('status').notNull().default('OPEN'),
    createdAt: createdAt(),
  },
  (t) => [index('question_feedback_question_idx').on(t.questionId)],
);
