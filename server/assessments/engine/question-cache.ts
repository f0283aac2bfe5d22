/**
 * What a server process keeps of the bank's questions for the hot calls of a test (issue 15): a question's
 * text, type, code, image and options with their correctness, under the version it was read at
 * (`questions.version`, which migration 0015's triggers move on whenever the question or any of its options
 * changes). Ten thousand takers of one test share the same twenty questions: read once, not once a taker.
 *
 * Nothing here is trusted on its own. A view is built from what the link's own statement says each of its
 * questions' versions is now, and a held question of any other version is read again; an evaluation scored
 * from held questions writes only if its statement finds every version still the same (evaluation.ts,
 * evaluateNow). So several processes on one PostgreSQL never disagree: each holds a copy it checks, and an
 * edit made through any process, or none, is seen by all at their next statement.
 *
 * One memory per database handle (tests build many apps on many databases in one process), bounded.
 */
import type { QuestionType } from '@shared/schemas/assessment';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { parsedJson, preparedPer } from '../../db/helpers';
import { TtlCache } from '../../lib/ttl-cache';
import { questionOptions, questions } from '../../questions/tables';

/** A question as a process keeps it: what the taker sees and, never sent as it is, its answer key. */
export interface HeldQuestion {
  id: string;
  version: number;
  type: QuestionType;
  points: number;
  question: string;
  code: string | null;
  questionImagePath: string | null;
  /** In position order, with their correctness: the key. A taker's view takes id and value only. */
  options: { id: string; value: string; isCorrect: boolean; points: number }[];
}

/** Questions held at most (twenty thousand questions of a few kilobytes: tens of megabytes at worst). */
export const HELD_QUESTIONS = 20_000;
/** A question is held at most this long after it was read (its version is checked on every use anyway). */
const HELD_FOR_MS = 3600_000;

const memories = new WeakMap<Db, TtlCache<string, HeldQuestion>>();
const memoryOf = (db: Db) => {
  let m = memories.get(db);
  if (!m) {
    m = new TtlCache<string, HeldQuestion>({ maxEntries: HELD_QUESTIONS });
    memories.set(db, m);
  }
  return m;
};

const questionsByIds = preparedPer((db) =>
  db
    .select({
      id: questions.id,
      version: questions.version,
      type: questions.questionType,
      points: questions.points,
      question: questions.question,
      code: questions.code,
      questionImagePath: questions.questionImagePath,
      // a select from one table names its columns without the table: the subquery names it
      options: sql<HeldQuestion['options'] | string>`coalesce((
        select json_agg(json_build_object('id', o.id, 'value', o.value, 'isCorrect', o.is_correct,
            'points', o.points) order by o.position)
        from ${questionOptions} o where o.question_id = ${questions}.id), '[]'::json)`,
    })
    .from(questions)
    .where(sql`${questions.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('held_questions_by_ids'),
);

/** The question as held, whatever its version (an evaluation's statement checks the version). */
export function heldQuestion(db: Db, id: string): HeldQuestion | undefined {
  return memoryOf(db).get(id);
}

/**
 * The questions of these ids at these versions: the ones held at the version asked for, the rest
 * read in one statement and held. A question read may be newer than asked (edited meanwhile): the newer is
 * what the bank has now. A question that no longer exists is absent from the answer.
 */
export async function questionsAt(
  db: Db,
  wanted: readonly { id: string; version: number }[],
): Promise<Map<string, HeldQuestion>> {
  const memory = memoryOf(db);
  const found = new Map<string, HeldQuestion>();
  const missing: string[] = [];
  for (const w of wanted) {
    const held = memory.get(w.id);
    if (held && held.version === w.version) found.set(w.id, held);
    else missing.push(w.id);
  }
  if (missing.length) {
    for (const q of await readQuestions(db, missing)) found.set(q.id, q);
  }
  return found;
}

/** Reads these questions now and holds them (replacing what was held). */
export async function readQuestions(db: Db, ids: readonly string[]): Promise<HeldQuestion[]> {
  const memory = memoryOf(db);
  const rows = await questionsByIds(db).execute({ ids: [...new Set(ids)] });
  const until = Date.now() + HELD_FOR_MS;
  return rows.map((r) => {
    const q: HeldQuestion = { ...r, version: Number(r.version), options: parsedJson(r.options) };
    const held = memory.get(q.id);
    // two reads racing: the newer version stays
    if (!held || held.version <= q.version) memory.set(q.id, q, until);
    return q;
  });
}

/**
 * Lets go of held questions whose version is no longer the bank's (what the long way of an evaluation read):
 * an evaluation in one statement refuses a question held at an older version, and would go on refusing it.
 */
export function forgetOlder(db: Db, current: readonly { id: string; version?: number }[]) {
  const memory = memoryOf(db);
  for (const q of current) {
    const held = memory.get(q.id);
    if (held && q.version !== undefined && held.version !== q.version) memory.delete(q.id);
  }
}
