/**
 * The answer key of the benches' tests and the answers their takers give: each answer with the points it
 * must earn (decision 005: an MSQ earns its share of the correct options, any wrong one → 0), so a bench
 * checks every score the server returns.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { rowsOf } from '../../server/db/helpers';
import { round2 } from './figures';

export interface KeyOption {
  id: string;
  isCorrect: boolean;
  value: string;
}
export interface KeyQuestion {
  type: string;
  options: KeyOption[];
}
/** A question as the test page receives it. */
export interface TakerQuestion {
  _id: string;
  questionType: string;
  options: { _id: string; value: string }[];
}
export type Given = { questionId: string; answerId?: string | string[]; answer?: string };

/** The answer key from the database (server-side truth): of `questionIds`, or of every question with options. */
export async function keyOf(db: Db, questionIds?: string[]): Promise<Map<string, KeyQuestion>> {
  const rows = rowsOf<{ qid: string; type: string; oid: string | null; is_correct: boolean; value: string }>(
    await db.execute(
      questionIds
        ? sql`
      select q.id as qid, q.question_type as type, o.id as oid, o.is_correct, o.value
      from questions q left join question_options o on o.question_id = q.id
      where q.id in ${questionIds} order by q.id, o.position`
        : sql`
      select q.id as qid, q.question_type as type, o.id as oid, o.is_correct, o.value
      from questions q join question_options o on o.question_id = q.id order by q.id, o.position`,
    ),
  );
  const keys = new Map<string, KeyQuestion>();
  for (const r of rows) {
    const k = keys.get(r.qid) ?? { type: r.type, options: [] };
    if (r.oid) k.options.push({ id: r.oid, isCorrect: r.is_correct, value: r.value });
    keys.set(r.qid, k);
  }
  return keys;
}

/** A seeded random source, so two runs answer the same way. */
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One answer as a taker gives it, and the points it must earn: every correct option (or the blank's
 * value) when `right`; otherwise, for an MSQ of several correct options when `partly()` says so, some of
 * them (a share of the points); else a wrong answer. `partly` is asked only in that case.
 */
export function answerFor(
  q: TakerQuestion,
  key: KeyQuestion,
  right: boolean,
  partly: () => boolean,
  rand: () => number,
): { given: Given; points: number } {
  const correct = key.options.filter((o) => o.isCorrect);
  const wrong = key.options.filter((o) => !o.isCorrect);
  if (key.type === 'FILL_IN_BLANK') {
    // the page sends what was typed; a number typed as such is compared as a number
    if (right) return { given: { questionId: q._id, answer: ` ${correct[0]!.value} ` }, points: 10 };
    return { given: { questionId: q._id, answer: 'not sure' }, points: 0 };
  }
  if (key.type === 'MSQ' || key.type === 'MSQ_IMAGE') {
    if (right) return { given: { questionId: q._id, answerId: correct.map((o) => o.id) }, points: 10 };
    if (correct.length > 1 && partly()) {
      const k = 1 + Math.floor(rand() * (correct.length - 1));
      return {
        given: { questionId: q._id, answerId: correct.slice(0, k).map((o) => o.id) },
        points: round2((10 * k) / correct.length),
      };
    }
    return {
      given: { questionId: q._id, answerId: [correct[0]!.id, ...(wrong[0] ? [wrong[0].id] : [])] },
      points: wrong[0] ? 0 : 10,
    };
  }
  if (right) return { given: { questionId: q._id, answerId: correct[0]!.id }, points: 10 };
  const other = wrong[0] ?? correct[0]!;
  return { given: { questionId: q._id, answerId: other.id }, points: other.isCorrect ? 10 : 0 };
}

export interface Expected {
  score: number;
  percentage: number;
  eligible: boolean;
  status: string;
  questionCount: number;
}

/** What the evaluation of `n` questions earning `points` in all must return (60 % earns the certificate). */
export function expectedOf(points: number, n: number): Expected {
  const score = round2(points);
  const eligible = n > 0 && score / n >= 6;
  return {
    score,
    percentage: round2((score * 100) / (10 * n)),
    eligible,
    status: eligible ? 'GENERATE_CERTIFICATE' : 'NO_ENOUGH_MARKS',
    questionCount: n,
  };
}
