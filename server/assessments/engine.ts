/**
 * The assessment engine, shared by the test links (server/assessments/routes.ts) and the prerequisite
 * (initial) assessment (server/catalogue): drawing and freezing questions, the taker's view without any
 * correctness data, saving answers as they are given, scoring on the server with the shared rules
 * (shared/rules/scoring.ts), and a link's life on the server's clock (start, deadline, expiry, evaluation).
 */
import { randomBytes } from 'node:crypto';
import { isRetakeLimited, retakeMessage } from '@shared/rules/retakes';
import {
  isMultiSelectType,
  POINTS_PER_QUESTION,
  scoreQuestion,
  statusAfterEvaluation,
  summarise,
} from '@shared/rules/scoring';
import type { Answer, QuestionType, TakerQuestion, TestStatus, TestType } from '@shared/schemas/assessment';
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { roadmaps, sectionResources } from '../catalogue/tables';
import type { Db } from '../db/client';
import { badRequest, conflict, forbidden, HttpError } from '../http/errors';
import { questionOptions, questions, questionTargets } from '../questions/tables';
import { testAnswers, testLinkQuestions, testLinks } from './tables';

export type LinkRow = typeof testLinks.$inferSelect;

// ---------------------------------------------------------------- constants

/** How many questions a link draws, by level (fewer when the bank has fewer). */
export const QUESTION_COUNTS: Partial<Record<TestType, number>> = {
  RESOURCE: 5,
  'RESOURCE-FROM-WHATSAPP': 5,
  SECTION: 10,
  ROADMAP: 20,
  SUBJECT: 20,
};
/** An unused link expires this long after it was created. */
export const LINK_VALIDITY_MS = 7 * 24 * 3600_000;
/** Time allowed once started: a minute a question, at least five. */
export const MINUTES_PER_QUESTION = 1;
export const MIN_MINUTES = 5;
/** Answers arriving this long after the deadline still count (network latency). */
export const ANSWER_GRACE_MS = 5_000;
/**
 * A new link prefers questions the learner has not met in this many of their latest links, then those met
 * longest ago (decision 010).
 */
export const RECENT_LINKS = 50;
/** The default wait before a failed test can be taken again (RETAKE_COOLDOWN_HOURS). */
export const DEFAULT_RETAKE_COOLDOWN_MS = 24 * 3600_000;

export const timeLimitFor = (questionCount: number) =>
  Math.max(MIN_MINUTES, Math.ceil(questionCount * MINUTES_PER_QUESTION));

/** 22 URL-safe characters from 128 random bits: the capability in /test/{linkId} and the award pages. */
export const newLinkId = () => randomBytes(16).toString('base64url');

export function shuffle<T>(items: readonly T[]): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomBytes(4).readUInt32BE(0) % (i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

// ---------------------------------------------------------------- errors the test page maps to screens

export const LINK_MESSAGES = {
  expired: 'This test link has expired. If you like to take a test, generate a new link.',
  completed: 'This test is already completed. If you like to take a test, generate a new link.',
  notYetStarted: (start: Date) =>
    `This assessment has not started yet. It starts at ${start.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
  notStarted: 'Start the test first.',
  notYours: 'This test belongs to another person.',
  retakeCooldown: retakeMessage,
} as const;

export const linkExpired = () => new HttpError(410, LINK_MESSAGES.expired, { errorCode: 'LINK_EXPIRED' });
export const testCompleted = () =>
  new HttpError(410, LINK_MESSAGES.completed, { errorCode: 'TEST_COMPLETED' });
/** 403: the link is valid but may not be used yet (documented in docs/decisions/004-test-links.md). */
export const notYetStarted = (start: Date) =>
  new HttpError(403, LINK_MESSAGES.notYetStarted(start), { errorCode: 'ASSESSMENT_NOT_YET_STARTED' });

/**
 * 409 RETAKE_COOLDOWN: a failed test may be taken again from `opensAt` (decision 010); the body names the
 * time (`opensAt`) and Retry-After says how many seconds remain.
 */
export const retakeCooldown = (opensAt: Date, now: Date, field?: string) =>
  new HttpError(
    409,
    LINK_MESSAGES.retakeCooldown(opensAt),
    { errorCode: 'RETAKE_COOLDOWN', opensAt: opensAt.toISOString(), ...(field ? { field } : {}) },
    { 'retry-after': String(Math.max(1, Math.ceil((opensAt.getTime() - now.getTime()) / 1000))) },
  );

// ---------------------------------------------------------------- retakes

/**
 * The latest failure of a learner's test that still holds a retake back (completed after `since`), other
 * than `except`; null when none. One indexed read (test_links_user_test_idx).
 */
export async function failureSince(
  db: Db,
  userId: string,
  testKey: string,
  since: Date,
  except?: string,
): Promise<Date | null> {
  const [row] = await db
    .select({ at: testLinks.completedAt })
    .from(testLinks)
    .where(
      and(
        eq(testLinks.userId, userId),
        eq(testLinks.testKey, testKey),
        eq(testLinks.status, 'NO_ENOUGH_MARKS'),
        gt(testLinks.completedAt, since),
        except ? ne(testLinks.id, except) : undefined,
      ),
    )
    .orderBy(desc(testLinks.completedAt))
    .limit(1);
  return row?.at ?? null;
}

/**
 * Refuses to start a link while a failure of the same test is in its cool-down (a second link of the test
 * drawn before that failure — one an older version could leave behind — must not be the retake).
 */
export async function assertRetakeOpen(db: Db, link: LinkRow, now: Date, cooldownMs: number) {
  if (link.startedAt || !link.userId || !link.testKey || !isRetakeLimited(link.type) || cooldownMs <= 0)
    return;
  const failed = await failureSince(
    db,
    link.userId,
    link.testKey,
    new Date(now.getTime() - cooldownMs),
    link.id,
  );
  if (failed) throw retakeCooldown(new Date(failed.getTime() + cooldownMs), now);
}

/** Serialises the creation of a learner's links to one test, across server processes (until commit). */
export async function lockTest(db: Db, userId: string, testKey: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`test-link|${userId}|${testKey}`}, 0))`,
  );
}

// ---------------------------------------------------------------- candidates and drawing

const PUBLISHED = eq(questions.status, 'PUBLISH');

/**
 * Published questions in this language that assess any of these targets (a test never mixes languages: a
 * resource, section or final test draws in its roadmap's language).
 */
export async function questionsTargeting(
  db: Db,
  targets: { resources?: string[]; sections?: string[]; roadmaps?: string[] },
  languageId: string,
): Promise<string[]> {
  const clauses = [
    targets.resources?.length
      ? and(eq(questionTargets.kind, 'RESOURCE'), inArray(questionTargets.targetId, targets.resources))
      : undefined,
    targets.sections?.length
      ? and(eq(questionTargets.kind, 'SECTION'), inArray(questionTargets.targetId, targets.sections))
      : undefined,
    targets.roadmaps?.length
      ? and(eq(questionTargets.kind, 'ROADMAP'), inArray(questionTargets.targetId, targets.roadmaps))
      : undefined,
  ].filter(Boolean);
  if (clauses.length === 0) return [];
  const rows = await db
    .selectDistinct({ id: questions.id })
    .from(questionTargets)
    .innerJoin(questions, eq(questions.id, questionTargets.questionId))
    .where(and(PUBLISHED, eq(questions.languageId, languageId), or(...clauses)));
  return rows.map((r) => r.id);
}

/** The resources of these sections. */
export async function resourcesOfSections(db: Db, sectionIds: string[]): Promise<string[]> {
  if (sectionIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ id: sectionResources.resourceId })
    .from(sectionResources)
    .where(inArray(sectionResources.sectionId, sectionIds));
  return rows.map((r) => r.id);
}

/**
 * Published questions of a subject in one language: tagged with the subject, or assessing a roadmap (or its
 * parts) of that subject.
 */
export async function questionsOfSubject(db: Db, subjectId: string, languageId: string): Promise<string[]> {
  const rows = await db.execute<{ id: string }>(sql`
    select q.id from ${questions} q
    where q.status = 'PUBLISH' and q.language_id = ${languageId} and (
      q.subject_id = ${subjectId}
      or exists (
        select 1 from ${questionTargets} t
        where t.question_id = q.id and (
          (t.kind = 'ROADMAP' and t.target_id in (select r.id from roadmaps r where r.subject_id = ${subjectId}))
          or (t.kind = 'SECTION' and t.target_id in (
            select s.id from sections s join roadmaps r on r.id = s.roadmap_id where r.subject_id = ${subjectId}))
          or (t.kind = 'RESOURCE' and t.target_id in (
            select sr.resource_id from section_resources sr join sections s on s.id = sr.section_id
            join roadmaps r on r.id = s.roadmap_id where r.subject_id = ${subjectId}))
        )
      )
    )`);
  return rowsOf<{ id: string }>(rows).map((r) => r.id);
}

/** node-postgres answers `{ rows }`, PGlite answers `{ rows }` too; drizzle types them loosely. */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/**
 * Which of these questions the learner met in their last `links` links (taken or not: a link shows its
 * questions once opened), with when they last met each (epoch ms).
 */
export async function recentlySeen(
  db: Db,
  userId: string,
  candidates: readonly string[],
  links = RECENT_LINKS,
): Promise<Map<string, number>> {
  if (candidates.length === 0) return new Map();
  const recent = db
    .select({ id: testLinks.id, createdAt: testLinks.createdAt })
    .from(testLinks)
    .where(eq(testLinks.userId, userId))
    .orderBy(desc(testLinks.createdAt))
    .limit(links)
    .as('recent');
  const rows = await db
    .select({
      id: testLinkQuestions.questionId,
      seen: sql<number>`extract(epoch from max(${recent.createdAt}))::float8 * 1000`,
    })
    .from(testLinkQuestions)
    .innerJoin(recent, eq(recent.id, testLinkQuestions.testLinkId))
    .where(inArray(testLinkQuestions.questionId, [...new Set(candidates)]))
    .groupBy(testLinkQuestions.questionId);
  return new Map(rows.map((r) => [r.id, Number(r.seen)]));
}

export interface Pool {
  candidates: readonly string[];
  count: number;
  /** For the prerequisite assessment: the prerequisite roadmap these questions test. */
  roadmapId?: string | null;
}

export interface DrawnQuestion {
  questionId: string;
  roadmapId: string | null;
  optionOrder: string[];
}

/**
 * Which questions of a pool a link takes: those the learner has not met (at random), then those met longest
 * ago (ties at random) — so a retake is fresh where the pool allows and rotates through it where it does
 * not — in a random order, so the questions met before are not the last ones.
 */
export function pickFromPool(
  candidates: readonly string[],
  count: number,
  seen: ReadonlyMap<string, number>,
): string[] {
  const fresh = shuffle(candidates.filter((id) => !seen.has(id)));
  const stale = shuffle(candidates.filter((id) => seen.has(id))).sort((a, b) => seen.get(a)! - seen.get(b)!);
  return shuffle([...fresh, ...stale].slice(0, Math.max(0, count)));
}

/**
 * Draws from each pool in turn (pickFromPool: unseen questions first, then the least recently seen); a
 * question is drawn once across pools. Options are shuffled.
 */
export async function drawQuestions(
  db: Db,
  pools: readonly Pool[],
  seen: ReadonlyMap<string, number> = new Map(),
): Promise<DrawnQuestion[]> {
  const taken = new Set<string>();
  const drawn: { questionId: string; roadmapId: string | null }[] = [];
  for (const pool of pools) {
    const unique = [...new Set(pool.candidates)].filter((id) => !taken.has(id));
    for (const id of pickFromPool(unique, pool.count, seen)) {
      taken.add(id);
      drawn.push({ questionId: id, roadmapId: pool.roadmapId ?? null });
    }
  }
  if (drawn.length === 0) return [];
  const ids = drawn.map((d) => d.questionId);
  const [types, options] = await Promise.all([
    db
      .select({ id: questions.id, type: questions.questionType })
      .from(questions)
      .where(inArray(questions.id, ids)),
    db
      .select({ id: questionOptions.id, questionId: questionOptions.questionId })
      .from(questionOptions)
      .where(inArray(questionOptions.questionId, ids))
      .orderBy(asc(questionOptions.position)),
  ]);
  const typeOf = new Map(types.map((t) => [t.id, t.type]));
  return drawn.map((d) => ({
    ...d,
    optionOrder:
      typeOf.get(d.questionId) === 'FILL_IN_BLANK'
        ? []
        : shuffle(options.filter((o) => o.questionId === d.questionId).map((o) => o.id)),
  }));
}

/** Stores the drawn questions of a link, in order, with their option order. */
export async function freezeQuestions(db: Db, testLinkRowId: string, drawn: readonly DrawnQuestion[]) {
  if (drawn.length === 0) return;
  await db.insert(testLinkQuestions).values(
    drawn.map((d, position) => ({
      testLinkId: testLinkRowId,
      questionId: d.questionId,
      position,
      roadmapId: d.roadmapId,
      optionOrder: d.optionOrder,
    })),
  );
}

// ---------------------------------------------------------------- the taker's view

interface FrozenRow {
  id: string;
  question: string;
  questionType: QuestionType;
  code: string | null;
  questionImagePath: string | null;
  points: number;
  roadmapId: string | null;
  optionOrder: string[];
}

async function frozenQuestions(db: Db, testLinkRowId: string): Promise<FrozenRow[]> {
  return db
    .select({
      id: questions.id,
      question: questions.question,
      questionType: questions.questionType,
      code: questions.code,
      questionImagePath: questions.questionImagePath,
      points: questions.points,
      roadmapId: testLinkQuestions.roadmapId,
      optionOrder: testLinkQuestions.optionOrder,
    })
    .from(testLinkQuestions)
    .innerJoin(questions, eq(questions.id, testLinkQuestions.questionId))
    .where(eq(testLinkQuestions.testLinkId, testLinkRowId))
    .orderBy(asc(testLinkQuestions.position));
}

/** Orders options as frozen; options added since come last, removed ones are gone. */
export function inFrozenOrder<T extends { id: string }>(options: T[], order: readonly string[]): T[] {
  const rank = new Map(order.map((id, i) => [id, i]));
  return [...options].sort((a, b) => (rank.get(a.id) ?? 1e6) - (rank.get(b.id) ?? 1e6));
}

/**
 * The questions as the taker sees them: text, type, code, image, option ids and values in the frozen order.
 * Never isCorrect, option points, explanations or a fill-in-blank's accepted value.
 */
export async function takerQuestions(db: Db, testLinkRowId: string): Promise<TakerQuestion[]> {
  const rows = await frozenQuestions(db, testLinkRowId);
  if (rows.length === 0) return [];
  const choiceIds = rows.filter((r) => r.questionType !== 'FILL_IN_BLANK').map((r) => r.id);
  const roadmapIds = [...new Set(rows.map((r) => r.roadmapId).filter((id): id is string => Boolean(id)))];
  const [options, roadmapRows] = await Promise.all([
    choiceIds.length
      ? db
          .select({
            id: questionOptions.id,
            questionId: questionOptions.questionId,
            value: questionOptions.value,
          })
          .from(questionOptions)
          .where(inArray(questionOptions.questionId, choiceIds))
      : [],
    roadmapIds.length
      ? db
          .select({ id: roadmaps.id, name: roadmaps.name })
          .from(roadmaps)
          .where(inArray(roadmaps.id, roadmapIds))
      : [],
  ]);
  const roadmapName = new Map(roadmapRows.map((r) => [r.id, r.name]));
  return rows.map((r) => ({
    _id: r.id,
    question: r.question,
    questionType: r.questionType,
    code: r.code,
    questionImagePath: r.questionImagePath,
    options:
      r.questionType === 'FILL_IN_BLANK'
        ? []
        : inFrozenOrder(
            options.filter((o) => o.questionId === r.id),
            r.optionOrder,
          ).map((o) => ({ _id: o.id, value: o.value })),
    points: POINTS_PER_QUESTION,
    roadmapId: r.roadmapId,
    roadmapName: r.roadmapId ? (roadmapName.get(r.roadmapId) ?? null) : null,
  }));
}

// ---------------------------------------------------------------- answers

export const isMultiSelect = (t: QuestionType) => isMultiSelectType(t);

export interface StoredAnswer {
  questionId: string;
  answerIds: string[];
  answerText: string | null;
}

/** Saved answers in the API's shape: one id, a list for multi-select, the typed value for fill-in-blank. */
export async function savedAnswers(db: Db, testLinkRowId: string): Promise<(Answer & { points?: number })[]> {
  const rows = await db
    .select({
      questionId: testAnswers.questionId,
      answerIds: testAnswers.answerIds,
      answerText: testAnswers.answerText,
      points: testAnswers.points,
      type: questions.questionType,
    })
    .from(testAnswers)
    .innerJoin(questions, eq(questions.id, testAnswers.questionId))
    .innerJoin(
      testLinkQuestions,
      and(
        eq(testLinkQuestions.testLinkId, testAnswers.testLinkId),
        eq(testLinkQuestions.questionId, testAnswers.questionId),
      ),
    )
    .where(eq(testAnswers.testLinkId, testLinkRowId))
    .orderBy(asc(testLinkQuestions.position));
  return rows.map((r) => toApiAnswer(r));
}

function toApiAnswer(r: {
  questionId: string;
  answerIds: string[];
  answerText: string | null;
  points?: number | null;
  type: QuestionType;
}): Answer & { points?: number } {
  const out: Answer & { points?: number } = { questionId: r.questionId };
  if (r.type === 'FILL_IN_BLANK') out.answer = r.answerText ?? '';
  else if (isMultiSelect(r.type)) out.answerId = r.answerIds;
  else if (r.answerIds[0]) out.answerId = r.answerIds[0];
  if (r.points !== null && r.points !== undefined) out.points = Number(r.points);
  return out;
}

/** A question of a link with what is needed to check and score answers. */
export interface KeyQuestion {
  id: string;
  type: QuestionType;
  points: number;
  roadmapId: string | null;
  options: { id: string; value: string; isCorrect: boolean; points: number }[];
}

/**
 * One statement per database handle, built once: drizzle builds a query's text on every call (for a select of
 * many columns that costs more than running it), and PostgreSQL parses and plans a named statement once per
 * connection. A transaction is a handle of its own, so statements prepared on it are built per transaction.
 */
export function preparedPer<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let statement = cache.get(db);
    if (!statement) {
      statement = build(db);
      cache.set(db, statement);
    }
    return statement;
  };
}

/** node-postgres and PGlite parse json; a driver that does not hands over the text. */
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** A question's options with their correctness, in position order, as one JSON array. */
const keyOptionsOf = (questionId: SQL) => sql<KeyQuestion['options'] | string>`coalesce((
  select json_agg(json_build_object('id', o.id, 'value', o.value, 'isCorrect', o.is_correct, 'points', o.points)
    order by o.position)
  from ${questionOptions} o where o.question_id = ${questionId}), '[]'::json)`;
const keyFields = {
  id: questions.id,
  type: questions.questionType,
  points: questions.points,
  roadmapId: testLinkQuestions.roadmapId,
  options: keyOptionsOf(sql`${questions.id}`),
};
const wholeKey = preparedPer((db) =>
  db
    .select(keyFields)
    .from(testLinkQuestions)
    .innerJoin(questions, eq(questions.id, testLinkQuestions.questionId))
    .where(eq(testLinkQuestions.testLinkId, sql.placeholder('link')))
    .orderBy(asc(testLinkQuestions.position))
    .prepare('test_link_answer_key'),
);
const oneQuestionKey = preparedPer((db) =>
  db
    .select(keyFields)
    .from(testLinkQuestions)
    .innerJoin(questions, eq(questions.id, testLinkQuestions.questionId))
    .where(
      and(
        eq(testLinkQuestions.testLinkId, sql.placeholder('link')),
        eq(testLinkQuestions.questionId, sql.placeholder('question')),
      ),
    )
    .prepare('test_link_answer_key_one'),
);

/** The answer key of a link (server-side only), in question order: one statement, prepared. */
export async function answerKey(
  db: Db,
  testLinkRowId: string,
  onlyQuestion?: string,
): Promise<KeyQuestion[]> {
  const rows = onlyQuestion
    ? await oneQuestionKey(db).execute({ link: testLinkRowId, question: onlyQuestion })
    : await wholeKey(db).execute({ link: testLinkRowId });
  return rows.map((r) => ({ ...r, options: parsed(r.options) }));
}

/**
 * Checks one answer against its question and gives what is stored: single-choice types keep one option id,
 * multi-select the list, fill-in-blank the value as typed. A 400 names the field (`answerId`, `answer`, or
 * `answers.{i}.answerId` with a prefix).
 */
export function normaliseAnswer(
  q: KeyQuestion,
  a: { answerId?: string | string[]; answer?: string | number },
  prefix = '',
): StoredAnswer {
  const f = (name: string) => `${prefix}${name}`;
  if (q.type === 'FILL_IN_BLANK') {
    if (a.answer === undefined || a.answer === null) {
      throw badRequest(`${f('answer')}: type the answer for this question`, f('answer'));
    }
    if (typeof a.answer === 'number' && !Number.isFinite(a.answer)) {
      throw badRequest(`${f('answer')}: must be a number`, f('answer'));
    }
    return { questionId: q.id, answerIds: [], answerText: String(a.answer).trim() };
  }
  const valid = new Set(q.options.map((o) => o.id));
  if (isMultiSelect(q.type)) {
    const ids = a.answerId === undefined ? [] : Array.isArray(a.answerId) ? a.answerId : [a.answerId];
    const unique = [...new Set(ids)];
    const bad = unique.findIndex((id) => !valid.has(id));
    if (bad >= 0) {
      throw badRequest(`${f('answerId')}: is not an option of this question`, f(`answerId.${bad}`));
    }
    return { questionId: q.id, answerIds: unique, answerText: null };
  }
  const id = Array.isArray(a.answerId) ? (a.answerId.length === 1 ? a.answerId[0] : undefined) : a.answerId;
  if (id === undefined) {
    throw badRequest(`${f('answerId')}: choose one option for this question`, f('answerId'));
  }
  if (!valid.has(id)) throw badRequest(`${f('answerId')}: is not an option of this question`, f('answerId'));
  return { questionId: q.id, answerIds: [id], answerText: null };
}

/** Saves one answer as it is given: a prepared statement (the autosave of every answer runs it). */
const upsertOneAnswer = preparedPer((db) =>
  db
    .insert(testAnswers)
    .values({
      testLinkId: sql.placeholder('link'),
      questionId: sql.placeholder('question'),
      answerIds: sql`${sql.placeholder('ids')}::uuid[]`,
      answerText: sql.placeholder('text'),
      answeredAt: sql`${sql.placeholder('at')}::timestamptz`,
    })
    .onConflictDoUpdate({
      target: [testAnswers.testLinkId, testAnswers.questionId],
      set: {
        answerIds: sql`excluded.answer_ids`,
        answerText: sql`excluded.answer_text`,
        answeredAt: sql`excluded.answered_at`,
      },
    })
    .prepare('test_answer_upsert'),
);

/** What an evaluation reads, in one prepared statement: the link, its answer key and the answers saved. */
const evaluationRead = preparedPer((db) =>
  db
    .select({
      link: testLinks,
      // a select from one table names its columns without the table, so the subqueries use aliases
      key: sql<KeyQuestion[] | string>`coalesce((
        select json_agg(json_build_object('id', q.id, 'type', q.question_type, 'points', q.points,
            'roadmapId', tlq.roadmap_id, 'options', ${keyOptionsOf(sql`q.id`)})
          order by tlq.position)
        from ${testLinkQuestions} tlq join ${questions} q on q.id = tlq.question_id
        where tlq.test_link_id = ${testLinks}.id), '[]'::json)`,
      saved: sql<StoredAnswer[] | string>`coalesce((
        select json_agg(json_build_object('questionId', a.question_id, 'answerIds', a.answer_ids,
            'answerText', a.answer_text))
        from ${testAnswers} a where a.test_link_id = ${testLinks}.id), '[]'::json)`,
    })
    .from(testLinks)
    .where(eq(testLinks.linkId, sql.placeholder('linkId')))
    .limit(1)
    .prepare('test_link_evaluation_read'),
);

/**
 * What an evaluation writes, in one prepared statement: the link's result, the given answers stored with
 * their points and the points of the answers saved before — only while the link is still open, so of two
 * evaluations at once the first writes and the other finds the link completed.
 */
const evaluationWrite = preparedPer((db) => {
  const p = (name: string) => sql.placeholder(name);
  const done = db.$with('done', getTableColumns(testLinks)).as(sql`
    update ${testLinks} set
      is_completed = true, score = ${p('score')}, percentage = ${p('percentage')},
      question_count = ${p('questionCount')}, status = ${p('status')},
      completed_at = ${p('completedAt')}::timestamptz, completed_in = ${p('completedIn')}
    where id = ${p('id')}::uuid and is_completed = false and status = 'TAKE_TEST'
    returning *`);
  const given = db.$with('given', {}).as(sql`
    insert into ${testAnswers} (test_link_id, question_id, answer_ids, answer_text, answered_at, points)
    select ${p('id')}::uuid, g.question_id, g.answer_ids, g.answer_text, ${p('answeredAt')}::timestamptz, g.points
    from json_to_recordset(${p('given')}::json)
      as g(question_id uuid, answer_ids uuid[], answer_text text, points numeric)
    where exists (select 1 from done)
    on conflict (test_link_id, question_id) do update set
      answer_ids = excluded.answer_ids, answer_text = excluded.answer_text,
      answered_at = excluded.answered_at, points = excluded.points`);
  const kept = db.$with('kept', {}).as(sql`
    update ${testAnswers} a set points = k.points
    from json_to_recordset(${p('kept')}::json) as k(question_id uuid, points numeric)
    where a.test_link_id = ${p('id')}::uuid and a.question_id = k.question_id
      and exists (select 1 from done)`);
  return db.with(done, given, kept).select().from(done).prepare('test_link_evaluation_write');
});

export interface EvaluationState {
  link: LinkRow;
  key: KeyQuestion[];
  stored: Map<string, StoredAnswer>;
}

/** A link by its public id with what evaluating it needs (its answer key and saved answers), or null. */
export async function readForEvaluation(db: Db, linkId: string): Promise<EvaluationState | null> {
  const [row] = await evaluationRead(db).execute({ linkId });
  if (!row) return null;
  const saved = parsed(row.saved);
  return { link: row.link, key: parsed(row.key), stored: new Map(saved.map((a) => [a.questionId, a])) };
}

// ---------------------------------------------------------------- scoring

export interface QuestionResult {
  questionId: string;
  roadmapId: string | null;
  points: number;
  answered: boolean;
}

export interface Scored {
  perQuestion: QuestionResult[];
  score: number;
  percentage: number;
  questionCount: number;
  eligible: boolean;
}

/** Scores stored answers against the key with the shared rules (shared/rules/scoring.ts). */
export function scoreAnswers(
  key: readonly KeyQuestion[],
  answers: ReadonlyMap<string, StoredAnswer>,
): Scored {
  const perQuestion = key.map((q) => {
    const a = answers.get(q.id);
    return {
      questionId: q.id,
      roadmapId: q.roadmapId,
      answered: Boolean(a && (a.answerIds.length > 0 || (a.answerText ?? '') !== '')),
      points: a ? scoreQuestion(q, a) : 0,
    };
  });
  const summary = summarise(
    perQuestion.map((p) => p.points),
    key.length,
  );
  return { perQuestion, ...summary };
}

// ---------------------------------------------------------------- a link's life

/** Whether the link has a clock (a prerequisite assessment has none). */
export const isTimed = (type: TestType) => type !== 'INITIAL-ASSESSMENT';

/** The end of a custom test's window. */
export function windowEnd(link: Pick<LinkRow, 'startTime' | 'durationHours'>): Date | null {
  if (!link.startTime || link.durationHours === null || link.durationHours === undefined) return null;
  return new Date(link.startTime.getTime() + link.durationHours * 3600_000);
}

/** When an unused link stops being usable. */
export function unusedUntil(link: Pick<LinkRow, 'expiresAt' | 'startTime' | 'durationHours'>): Date | null {
  const ends = [link.expiresAt, windowEnd(link)].filter((d): d is Date => Boolean(d));
  return ends.length ? new Date(Math.min(...ends.map((d) => d.getTime()))) : null;
}

/** Refuses a caller who is not the link's learner (no caller: the link id is the capability). */
export function assertTaker(link: Pick<LinkRow, 'userId'>, caller: { id: string } | null) {
  if (caller && link.userId && caller.id !== link.userId) throw forbidden(LINK_MESSAGES.notYours);
}

const prepareFindLink = (db: Db) =>
  db
    .select()
    .from(testLinks)
    .where(eq(testLinks.linkId, sql.placeholder('linkId')))
    .limit(1)
    .prepare('test_link_by_link_id');
const findLinkStatements = new WeakMap<Db, ReturnType<typeof prepareFindLink>>();

/** A link by its public id (a prepared statement: every test call starts here). */
export async function findLink(db: Db, linkId: string): Promise<LinkRow | null> {
  let statement = findLinkStatements.get(db);
  if (!statement) {
    statement = prepareFindLink(db);
    findLinkStatements.set(db, statement);
  }
  const [row] = await statement.execute({ linkId });
  return row ?? null;
}

/** A link by its public id with the answer key of one of its questions (null when not one of them). */
const linkWithQuestion = preparedPer((db) =>
  db
    .select({
      link: testLinks,
      // a select from one table names its columns without the table, so the subquery uses aliases
      question: sql<KeyQuestion | string | null>`(
        select json_build_object('id', q.id, 'type', q.question_type, 'points', q.points,
          'roadmapId', tlq.roadmap_id, 'options', ${keyOptionsOf(sql`q.id`)})
        from ${testLinkQuestions} tlq join ${questions} q on q.id = tlq.question_id
        where tlq.test_link_id = ${testLinks}.id and tlq.question_id = ${sql.placeholder('question')})`,
    })
    .from(testLinks)
    .where(eq(testLinks.linkId, sql.placeholder('linkId')))
    .limit(1)
    .prepare('test_link_with_question'),
);

/** What saving an answer reads, in one prepared statement: the link and the answered question's key. */
export async function findLinkWithQuestion(
  db: Db,
  linkId: string,
  questionId: string,
): Promise<{ link: LinkRow; question: KeyQuestion | null } | null> {
  const [row] = await linkWithQuestion(db).execute({ linkId, question: questionId });
  if (!row) return null;
  const question = row.question === null ? null : parsed(row.question);
  return { link: row.link, question };
}

export interface Hooks {
  /** Runs inside the evaluating transaction when a link earns its award (e.g. completes the roadmap). */
  onEarned?: (db: Db, link: LinkRow) => Promise<void>;
  /** The links onEarned concerns (all when absent); the others are evaluated without a transaction. */
  earns?: (link: LinkRow) => boolean;
}

/**
 * Brings a link up to date with the clock: a started link past its deadline is evaluated with the answers
 * it has; an unused link past its expiry becomes EXPIRED. Returns the current row.
 */
export async function settle(db: Db, link: LinkRow, now: Date, hooks: Hooks = {}): Promise<LinkRow> {
  if (link.isCompleted || link.status !== 'TAKE_TEST') return link;
  if (link.startedAt && link.deadlineAt && now.getTime() > link.deadlineAt.getTime() + ANSWER_GRACE_MS) {
    return (await evaluateLink(db, link, [], now, hooks)).link;
  }
  const until = unusedUntil(link);
  if (!link.startedAt && isTimed(link.type) && until && now > until) {
    const [row] = await db
      .update(testLinks)
      .set({ status: 'EXPIRED' })
      .where(and(eq(testLinks.id, link.id), isNull(testLinks.startedAt), eq(testLinks.status, 'TAKE_TEST')))
      .returning();
    return row ?? (await findLink(db, link.linkId)) ?? link;
  }
  return link;
}

/** The errors of a link that cannot be taken now (after `settle`). */
export function assertTakeable(link: LinkRow, now: Date) {
  if (link.isCompleted) throw testCompleted();
  if (link.status === 'EXPIRED') throw linkExpired();
  if (link.status !== 'TAKE_TEST') throw testCompleted();
  if (!link.startedAt && link.startTime && now < link.startTime) throw notYetStarted(link.startTime);
}

/**
 * Starts the clock (idempotent): records the start and the deadline on the server's clock, and numbers the
 * attempt among the learner's started attempts of the same test.
 */
export async function startLink(db: Db, link: LinkRow, now: Date): Promise<LinkRow> {
  if (link.startedAt) return link;
  const byLimit = now.getTime() + link.timeLimitMinutes * 60_000;
  const end = windowEnd(link);
  const deadline = new Date(end ? Math.min(byLimit, end.getTime()) : byLimit);
  const [row] = await db
    .update(testLinks)
    .set({
      startedAt: now,
      deadlineAt: deadline,
      // written out: the outer row must be named by its table, never by a bare column the subquery shadows
      attempt: sql`(select count(*)::int + 1 from test_links o
        where o.user_id = test_links.user_id and o.test_key = test_links.test_key
          and o.started_at is not null and o.id <> test_links.id)`,
    })
    .where(and(eq(testLinks.id, link.id), isNull(testLinks.startedAt)))
    .returning();
  return row ?? (await findLink(db, link.linkId)) ?? link;
}

/** Whether answers may still be saved. */
export function acceptsAnswers(link: LinkRow, now: Date): boolean {
  if (link.isCompleted || link.status !== 'TAKE_TEST') return false;
  if (!isTimed(link.type)) return true;
  if (!link.startedAt) return false;
  return !link.deadlineAt || now.getTime() <= link.deadlineAt.getTime() + ANSWER_GRACE_MS;
}

/** Saves one answer as it is given (validated against the frozen question). */
export async function saveAnswer(
  db: Db,
  link: LinkRow,
  answer: { questionId: string; answerId?: string | string[]; answer?: string | number },
  /** The question's key when already read (findLinkWithQuestion); null when it is not of this link. */
  key?: KeyQuestion | null,
) {
  const q = key !== undefined ? key : (await answerKey(db, link.id, answer.questionId))[0];
  if (!q) throw badRequest('questionId: is not a question of this test', 'questionId');
  const row = normaliseAnswer(q, answer);
  await upsertOneAnswer(db).execute({
    link: link.id,
    question: row.questionId,
    ids: row.answerIds,
    text: row.answerText,
    at: new Date().toISOString(),
  });
}

export interface Evaluation {
  link: LinkRow;
  scored: Scored;
}

export const statusAfter = (eligible: boolean, certificateGenerated: boolean): TestStatus =>
  statusAfterEvaluation(eligible, certificateGenerated);

/**
 * Evaluates a link on the server: the given answers (validated; refused after the deadline) are merged over
 * the saved ones and stored, every question is scored with the shared rules, and the link records its
 * score, percentage, status and time taken. Idempotent: a completed link gives back its stored result.
 *
 * Two statements, both prepared: one read (the link, its key and saved answers) and one write that applies
 * only while the link is still open. Two evaluations at once: the first writes, the second finds nothing to
 * write, reads again and gives back the first's result. A transaction is opened only when a hook takes part.
 */
export async function evaluateLink(
  db: Db,
  link: LinkRow,
  given: readonly { questionId: string; answerId?: string | string[]; answer?: string | number }[],
  now: Date,
  hooks: Hooks = {},
  /** `read`: readForEvaluation's answer for this link, when the caller has just read it. */
  { read, attempt = 1 }: { read?: EvaluationState; attempt?: number } = {},
): Promise<Evaluation> {
  const state = read && read.link.id === link.id ? read : await readForEvaluation(db, link.linkId);
  if (!state) throw new HttpError(404, 'Test link not found');
  const { link: current, key, stored } = state;
  if (current.isCompleted) return { link: current, scored: scoreAnswers(key, stored) };
  if (current.status === 'EXPIRED') throw linkExpired();
  if (isTimed(current.type) && !current.startedAt)
    throw conflict(LINK_MESSAGES.notStarted, { errorCode: 'TEST_NOT_STARTED' });
  const late =
    isTimed(current.type) &&
    current.deadlineAt !== null &&
    now.getTime() > current.deadlineAt.getTime() + ANSWER_GRACE_MS;
  // the given answers, validated (nothing is written when one is wrong); the last to a question wins
  const fresh = new Map<string, StoredAnswer>();
  if (!late && given.length) {
    const byId = new Map(key.map((q) => [q.id, q]));
    given.forEach((a, i) => {
      const q = byId.get(a.questionId);
      if (!q) {
        throw badRequest(
          `answers.${i}.questionId: is not a question of this test`,
          `answers.${i}.questionId`,
        );
      }
      const row = normaliseAnswer(q, a, `answers.${i}.`);
      fresh.delete(row.questionId);
      fresh.set(row.questionId, row);
    });
  }
  const scored = scoreAnswers(key, new Map([...stored, ...fresh]));
  const pointsOf = new Map(scored.perQuestion.map((p) => [p.questionId, p.points]));
  const completedAt =
    late && current.deadlineAt ? new Date(Math.min(now.getTime(), current.deadlineAt.getTime())) : now;
  const startedAt = current.startedAt ?? current.createdAt;
  const limitSeconds = current.timeLimitMinutes * 60;
  const takenSeconds = Math.max(0, Math.round((completedAt.getTime() - startedAt.getTime()) / 1000));
  const completedIn = isTimed(current.type) ? Math.min(takenSeconds, limitSeconds) : takenSeconds;
  const givenRows = [...fresh.values()].map((r) => ({
    question_id: r.questionId,
    answer_ids: r.answerIds,
    answer_text: r.answerText,
    points: pointsOf.get(r.questionId) ?? 0,
  }));
  const keptRows = [...stored.keys()]
    .filter((id) => !fresh.has(id) && pointsOf.has(id))
    .map((id) => ({ question_id: id, points: pointsOf.get(id)! }));
  // One statement: the link's result, the given answers stored with their points and the points of the
  // answers saved before — only while the link is still open, so of two evaluations at once the first
  // writes and the other gives back its stored result.
  const write = async (on: Db): Promise<LinkRow | null> => {
    const [row] = await evaluationWrite(on).execute({
      id: current.id,
      score: scored.score,
      percentage: scored.percentage,
      questionCount: key.length,
      status: statusAfter(scored.eligible, current.certificateGenerated),
      completedAt: completedAt.toISOString(),
      completedIn,
      answeredAt: new Date().toISOString(),
      given: JSON.stringify(givenRows),
      kept: JSON.stringify(keptRows),
    });
    return row ?? null;
  };
  const onEarned = scored.eligible && (!hooks.earns || hooks.earns(current)) ? hooks.onEarned : undefined;
  const done = onEarned
    ? await db.transaction(async (t) => {
        // what the award changes elsewhere commits with the result, or neither does
        const tx = t as unknown as Db;
        const row = await write(tx);
        if (row) await onEarned(tx, row);
        return row;
      })
    : await write(db);
  if (done) return { link: done, scored };
  // the link changed since it was read (evaluated at the same moment): as it is now
  if (attempt >= 3) throw new HttpError(409, 'This test is being evaluated. Please try again.');
  return evaluateLink(db, link, given, now, hooks, { attempt: attempt + 1 });
}

/**
 * The periodic sweep: evaluates started links whose deadline has passed and expires unused links past
 * their expiry. Returns how many of each it handled.
 */
export async function sweepLinks(
  db: Db,
  now: Date,
  hooks: Hooks = {},
  batch = 200,
): Promise<{ evaluated: number; expired: number }> {
  const cutoff = new Date(now.getTime() - ANSWER_GRACE_MS);
  const overdue = await db
    .select()
    .from(testLinks)
    .where(
      and(
        eq(testLinks.isCompleted, false),
        eq(testLinks.status, 'TAKE_TEST'),
        isNotNull(testLinks.startedAt),
        lt(testLinks.deadlineAt, cutoff),
      ),
    )
    .limit(batch);
  let evaluated = 0;
  for (const link of overdue) {
    await evaluateLink(db, link, [], now, hooks);
    evaluated++;
  }
  const expiredRows = await db
    .update(testLinks)
    .set({ status: 'EXPIRED' })
    .where(
      and(
        eq(testLinks.isCompleted, false),
        eq(testLinks.status, 'TAKE_TEST'),
        isNull(testLinks.startedAt),
        sql`${testLinks.type} <> 'INITIAL-ASSESSMENT'`,
        or(
          lt(testLinks.expiresAt, now),
          sql`${testLinks.startTime} + make_interval(hours => ${testLinks.durationHours}) < ${now}`,
        ),
      ),
    )
    .returning({ id: testLinks.id });
  return { evaluated, expired: expiredRows.length };
}
