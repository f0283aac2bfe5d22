/**
 * The assessment engine, part one — drawing: which published questions of one language a test may draw
 * (by resource, section, roadmap or subject), which of them a link takes (those the learner has not met
 * first: decision 010), freezing them with their option order, and the taker's view of the frozen
 * questions without any correctness data. The rest of the engine: ./rules.ts (its rules, once), ./answers.ts
 * (answers and scoring), ./link-life.ts (a link's life on the server's clock), ./start.ts, ./autosave.ts,
 * ./evaluation.ts and ./view.ts.
 */

import { randomBytes } from 'node:crypto';
import { isTextAnswer, typesWhere } from '@shared/rules/question-types';
import { POINTS_PER_QUESTION } from '@shared/rules/scoring';
import type { TakerQuestion, TestType } from '@shared/schemas/assessment';
import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { roadmaps, sectionResources } from '../../catalogue/tables';
import type { Db } from '../../db/client';
import { parsedJson, preparedPer, rowsOf } from '../../db/helpers';
import { questionOptions, questions, questionTargets } from '../../questions/tables';
import { testLinkQuestions, testLinks } from '../tables';
import type { HeldQuestion } from './question-cache';

/** How many questions a link draws, by level (fewer when the bank has fewer). */
export const QUESTION_COUNTS: Partial<Record<TestType, number>> = {
  RESOURCE: 5,
  'RESOURCE-FROM-WHATSAPP': 5,
  SECTION: 10,
  ROADMAP: 20,
  SUBJECT: 20,
};
/**
 * A new link prefers questions the learner has not met in this many of their latest links, then those met
 * longest ago (decision 010).
 */
export const RECENT_LINKS = 50;

/**
 * 22 URL-safe characters from 128 random bits: the capability in /test/{linkId} and the award pages. Never
 * starting with '-': the id is also an award's id, pasted into command lines (`waymark awards revoke <id>`),
 * where a leading '-' reads as an option (one id in 64 did; redrawing them costs 0.02 bits of the 128).
 */
export function newLinkId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (id[0] !== '-') return id;
  }
}

/** A whole number below n from the operating system's random source. */
const randomBelow = (n: number) => randomBytes(4).readUInt32BE(0) % n;

/** A copy of `items` in a random order (Fisher–Yates); `below` draws a whole number below n (a seeded one in the benches). */
export function shuffle<T>(items: readonly T[], below: (n: number) => number = randomBelow): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
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
    optionOrder: isTextAnswer(typeOf.get(d.questionId))
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

/** One frozen question as takerQuestionsJson gives it (takerQuestionsOf maps it to the API's shape). */
export interface FrozenRow {
  id: string;
  question: string;
  questionType: TakerQuestion['questionType'];
  code: string | null;
  questionImagePath: string | null;
  roadmapId: string | null;
  roadmapName: string | null;
  optionOrder: string[];
  options: { id: string; value: string }[];
}

/** The types answered in words (from the type table), whose options a taker never sees. */
export const TEXT_TYPES = typesWhere((t) => t.answer === 'text');
/** The same as an SQL list (constants of the table, not input). */
const TEXT_TYPES_SQL = sql.raw(`(${[...TEXT_TYPES].map((t) => `'${t}'`).join(', ')})`);

/**
 * A link's frozen questions as the taker sees them, as one JSON array in position order: each question with
 * its options (id and value only: never isCorrect, points or a fill-in-blank's accepted value — a
 * fill-in-blank gets none) and its roadmap's name. One expression, so the Ready page, a resume and the start
 * (start.ts: the start's own statement) read the same view; `linkRowId` names the link's row id.
 */

export const takerQuestionsJson = (linkRowId: SQL) => sql<FrozenRow[] | string>`coalesce((
  select json_agg(json_build_object('id', q.id, 'question', q.question, 'questionType', q.question_type,
      'code', q.code, 'questionImagePath', q.question_image_path, 'roadmapId', tlq.roadmap_id,
      'roadmapName', r.name, 'optionOrder', tlq.option_order,
      'options', case when q.question_type in ${TEXT_TYPES_SQL} then '[]'::json else coalesce((
        select json_agg(json_build_object('id', o.id, 'value', o.value))
        from ${questionOptions} o where o.question_id = q.id), '[]'::json) end)
    order by tlq.position)
  from ${testLinkQuestions} tlq join ${questions} q on q.id = tlq.question_id
    left join ${roadmaps} r on r.id = tlq.roadmap_id
  where tlq.test_link_id = ${linkRowId}), '[]'::json)`;

/** One frozen question of a link as frozenRefsJson gives it: which question, at which version, how shown. */
export interface FrozenRef {
  id: string;
  version: number;
  roadmapId: string | null;
  roadmapName: string | null;
  optionOrder: string[];
}

/**
 * A link's frozen questions as references in position order — the question's id and its version now, the
 * frozen option order and the roadmap's name — for takerQuestionsFrom to fill in from the questions a
 * process holds (question-cache.ts): the hot calls' statements read these instead of every question's text
 * and options (takerQuestionsJson), which ten thousand takers of one test would each read again.
 */
export const frozenRefsJson = (linkRowId: SQL) => sql<FrozenRef[] | string>`coalesce((
  select json_agg(json_build_object('id', q.id, 'version', q.version, 'roadmapId', tlq.roadmap_id,
      'roadmapName', r.name, 'optionOrder', tlq.option_order) order by tlq.position)
  from ${testLinkQuestions} tlq join ${questions} q on q.id = tlq.question_id
    left join ${roadmaps} r on r.id = tlq.roadmap_id
  where tlq.test_link_id = ${linkRowId}), '[]'::json)`;

/** The taker's questions (as takerQuestionsOf gives them) from a link's references and the questions held. */
export function takerQuestionsFrom(
  refs: readonly FrozenRef[],
  held: ReadonlyMap<string, HeldQuestion>,
): TakerQuestion[] {
  return refs.flatMap((r) => {
    const q = held.get(r.id);
    return q ? [shown(q, r)] : [];
  });
}

const frozenQuestions = preparedPer((db) =>
  db
    .select({ rows: takerQuestionsJson(sql`${sql.placeholder('link')}::uuid`) })
    .from(sql`(select 1) as one`)
    .prepare('test_link_taker_questions'),
);

/** Orders options as frozen; options added since come last, removed ones are gone. */
export function inFrozenOrder<T extends { id: string }>(
  options: readonly T[],
  order: readonly string[],
): T[] {
  const rank = new Map(order.map((id, i) => [id, i]));
  return [...options].sort((a, b) => (rank.get(a.id) ?? 1e6) - (rank.get(b.id) ?? 1e6));
}

/**
 * The questions as the taker sees them: text, type, code, image, option ids and values in the frozen order.
 * Never isCorrect, option points, explanations or a fill-in-blank's accepted value.
 */
export function takerQuestionsOf(rows: FrozenRow[] | string): TakerQuestion[] {
  return parsedJson(rows).map((r) => shown({ ...r, type: r.questionType }, r));
}

/** One question as the taker sees it: its options (id and value only) in the link's frozen order. */
function shown(
  q: Pick<HeldQuestion, 'id' | 'type' | 'question' | 'code' | 'questionImagePath'> & {
    options: readonly { id: string; value: string }[];
  },
  frozen: Pick<FrozenRef, 'optionOrder' | 'roadmapId' | 'roadmapName'>,
): TakerQuestion {
  return {
    _id: q.id,
    question: q.question,
    questionType: q.type,
    code: q.code,
    questionImagePath: q.questionImagePath,
    options: isTextAnswer(q.type)
      ? []
      : inFrozenOrder(q.options, frozen.optionOrder).map((o) => ({ _id: o.id, value: o.value })),
    points: POINTS_PER_QUESTION,
    roadmapId: frozen.roadmapId,
    roadmapName: frozen.roadmapId ? (frozen.roadmapName ?? null) : null,
  };
}

/** A link's questions as the taker sees them (takerQuestionsOf), in one prepared statement. */
export async function takerQuestions(db: Db, testLinkRowId: string): Promise<TakerQuestion[]> {
  const [row] = await frozenQuestions(db).execute({ link: testLinkRowId });
  return takerQuestionsOf(row?.rows ?? []);
}
