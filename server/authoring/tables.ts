/** Tenants' own assessments: a named, ordered list of questions, shared with learners as custom tests. */
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../db/schema';
import { questions } from '../questions/tables';

export const tenantAssessments = pgTable(
  'tenant_assessments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('tenant_assessments_tenant_idx').on(t.tenantId, t.createdAt)],
);

export const tenantAssessmentQuestions = pgTable(
  'tenant_assessment_questions',
  {
    assessmentId: uuid('assessment_id')
      .notNull()
      .references(() => tenantAssessments.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.assessmentId, t.questionId] })],
);

/**
 * A question created inside an assessment ('Create New Question') that has never been saved: it joins the
 * assessment when first saved (published), and until then is in no assessment — a draft left behind never
 * counts toward the questions needed to share (decision 010).
 */
export const assessmentDrafts = pgTable('assessment_drafts', {
  questionId: uuid('question_id')
    .primaryKey()
    .references(() => questions.id, { onDelete: 'cascade' }),
  assessmentId: uuid('assessment_id')
    .notNull()
    .references(() => tenantAssessments.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Who changed what on a question's feedback (the activity trail of mentor §2.7). */
export const questionFeedbackActivity = pgTable(
  'question_feedback_activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    feedbackId: uuid('feedback_id').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    toStatus: text('to_status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('question_feedback_activity_feedback_idx').on(t.feedbackId)],
);

/**
 * Where each imported question came from, per author: the file's own id of the question (or a hash of its
 * content) and a fingerprint of what was imported, so running an import again creates nothing twice and
 * says `unchanged`, and `--update` knows which question to rewrite. Deleting the question forgets it.
 */
export const questionImportSources = pgTable(
  'question_import_sources',
  {
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceKey: text('source_key').notNull(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.authorId, t.sourceKey] }),
    index('question_import_sources_question_idx').on(t.questionId),
  ],
);
