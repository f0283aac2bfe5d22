/**
 * The question bank: questions (Waymark's own and each author's), their options, and what each assesses.
 * Assessments draw from it, authoring writes it (decision 018).
 */
import { DEFAULT_QUESTION_TYPE, QUESTION_TYPES } from '@shared/rules/question-types';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { languages, subjects, topics, users } from '../db/schema';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const questions = pgTable(
  'questions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    question: text('question').notNull().default(''),
    questionType: text('question_type', { enum: QUESTION_TYPES }).notNull().default(DEFAULT_QUESTION_TYPE),
    code: text('code'),
    questionImagePath: text('question_image_path'),
    /** Points of a fill-in-blank question (others sum their options). */
    points: integer('points').notNull().default(10),
    subjectId: uuid('subject_id').references(() => subjects.id),
    topicId: uuid('topic_id').references(() => topics.id),
    /**
     * The language the question is written in: a test draws questions of one language only (decision 010).
     * A question assessing a roadmap (or its parts) is in the roadmap's language.
     */
    languageId: uuid('language_id')
      .notNull()
      .references(() => languages.id),
    explanation: jsonb('explanation').$type<{ type: 'TEXT'; value: string }[]>().notNull().default([]),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    status: text('status', { enum: ['PREVIEW', 'PUBLISH'] })
      .notNull()
      .default('PREVIEW'),
    /** Null for Waymark's own bank; a tenant or author otherwise. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * Grows whenever the question or any of its options changes (triggers of migration 0015, so no write path
     * can forget it): a process may keep what a test shows or scores of a question while its version holds
     * (server/assessments/engine/question-cache.ts).
     */
    version: bigint('version', { mode: 'number' }).notNull().default(1),
  },
  (t) => [
    index('questions_subject_idx').on(t.subjectId, t.languageId, t.status),
    index('questions_creator_idx').on(t.createdBy),
  ],
);

export const questionOptions = pgTable(
  'question_options',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    /** Text, an image path for image types, or the accepted answer of a fill-in-blank. */
    value: text('value').notNull().default(''),
    isCorrect: boolean('is_correct').notNull().default(false),
    points: integer('points').notNull().default(0),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('question_options_question_idx').on(t.questionId, t.position)],
);

/** What a question assesses: a resource, a section or a roadmap. */
export const questionTargets = pgTable(
  'question_targets',
  {
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['RESOURCE', 'SECTION', 'ROADMAP'] }).notNull(),
    targetId: uuid('target_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.kind, t.targetId] }),
    index('question_targets_target_idx').on(t.kind, t.targetId),
  ],
);
