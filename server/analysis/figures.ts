/**
 * Item analysis's figures read from the aggregates (decision 037): a test's score figures from its folded
 * attempts (item_attempts), each question's from its sums, score buckets and days, added over the tests asked
 * for (one assessment, or every assessment of a tenant for the question bank) — by the shared rules
 * (shared/rules/item-analysis.ts), so the numbers are the ones the unit tests check against an independent
 * library. A handful of grouped reads by primary key prefix, whatever the number of attempts.
 */
import { ITEM_RULES, type ItemFigures, itemFigures } from '@shared/rules/item-analysis';
import { type BucketCount, type DaySums, emptySums, type ItemSums } from '@shared/rules/item-sums';
import { isTextAnswer } from '@shared/rules/question-types';
import { distributionOf, earnsPartialCredit, histogramOf, reliabilityOf } from '@shared/rules/test-figures';
import type { QuestionType } from '@shared/schemas/assessment';
import { param, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { parsedJson, rowsOf } from '../db/helpers';
import { questionOptions, questions } from '../questions/tables';
import { itemAttempts, itemBuckets, itemDays, itemSums } from './tables';

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

export interface QuestionFacts {
  id: string;
  question: string;
  type: QuestionType;
  options: { id: string; value: string; isCorrect: boolean }[];
}

/** The questions' text, type and options now. */
export async function questionFacts(db: Db, ids: readonly string[]): Promise<Map<string, QuestionFacts>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<{
    id: string;
    question: string;
    type: QuestionType;
    options: QuestionFacts['options'] | string;
  }>(
    await db.execute(sql`
      select q.id, q.question, q.question_type as type,
        coalesce((select json_agg(json_build_object('id', o.id, 'value', o.value, 'isCorrect', o.is_correct)
          order by o.position) from ${questionOptions} o where o.question_id = q.id), '[]'::json) as options
      from ${questions} q where q.id = any(${param([...ids])}::uuid[])`),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { ...r, options: typeof r.options === 'string' ? JSON.parse(r.options) : r.options },
    ]),
  );
}

/** Each question's sums, buckets and days over the tests `keys`; only `only` when given. */
export async function itemAggregates(db: Db, keys: readonly string[], only?: readonly string[]) {
  const sums = new Map<string, ItemSums>();
  const buckets = new Map<string, BucketCount[]>();
  const days = new Map<string, DaySums[]>();
  if (keys.length === 0 || (only && only.length === 0)) return { sums, buckets, days };
  const k = sql`${param([...keys])}::text[]`;
  const which = only ? sql`and question_id = any(${param([...only])}::uuid[])` : sql``;
  // a question's buckets and days come as one JSON array each (far fewer rows to read than their count)
  const [s, b, d] = await Promise.all([
    db.execute(sql`
      select question_id as q, sum(n)::int as n, sum(sx)::float8 as sx, sum(sxx)::float8 as sxx,
        sum(nr)::int as nr, sum(rx)::float8 as rx, sum(rxx)::float8 as rxx, sum(sr)::float8 as sr,
        sum(srr)::float8 as srr, sum(sxr)::float8 as sxr, sum(timed)::int as timed,
        sum(seconds)::float8 as seconds
      from ${itemSums} where test_key = any(${k}) ${which} group by question_id`),
    db.execute(sql`
      select q, json_agg(json_build_array(bucket, option, n)) as rows from (
        select question_id as q, bucket, option, sum(n)::int as n
        from ${itemBuckets} where test_key = any(${k}) ${which} group by question_id, bucket, option) x
      group by q`),
    db.execute(sql`
      select q, json_agg(json_build_array(day, n, sx, sxx, nr, sr)) as rows from (
        select question_id as q, day::text as day, sum(n)::int as n, sum(sx)::float8 as sx,
          sum(sxx)::float8 as sxx, sum(nr)::int as nr, sum(sr)::float8 as sr
        from ${itemDays} where test_key = any(${k}) ${which} group by question_id, day) x
      group by q`),
  ]);
  for (const r of rowsOf<Record<string, unknown> & { q: string }>(s)) {
    const out = emptySums();
    for (const f of Object.keys(out) as (keyof ItemSums)[]) out[f] = num(r[f]);
    sums.set(r.q, out);
  }
  for (const r of rowsOf<{ q: string; rows: [number, string, number][] | string }>(b)) {
    buckets.set(
      r.q,
      parsedJson(r.rows).map(([bucket, option, n]) => ({ bucket, option, n })),
    );
  }
  for (const r of rowsOf<{ q: string; rows: [string, number, number, number, number, number][] | string }>(
    d,
  )) {
    days.set(
      r.q,
      parsedJson(r.rows).map(([day, n, sx, sxx, nr, sr]) => ({ day, n, sx, sxx, nr, sr })),
    );
  }
  return { sums, buckets, days };
}

/** One question's figures from the aggregates read. */
export function figuresOf(
  facts: QuestionFacts | undefined,
  agg: Awaited<ReturnType<typeof itemAggregates>>,
  id: string,
): ItemFigures {
  return itemFigures({
    sums: agg.sums.get(id) ?? emptySums(),
    buckets: agg.buckets.get(id) ?? [],
    days: agg.days.get(id) ?? [],
    options:
      facts && !isTextAnswer(facts.type)
        ? facts.options.map((o) => ({ id: o.id, label: o.value, isCorrect: o.isCorrect }))
        : null,
  });
}

export interface TestSummary {
  attempts: number;
  takers: number;
  score: { mean: number | null; median: number | null; sd: number | null };
  histogram: { from: number; to: number; count: number }[];
  reliability: ReturnType<typeof reliabilityOf>;
  passRate: number | null;
  passPercentage: number;
  time: { mean: number | null; median: number | null };
  drawn: boolean;
  lastEvaluatedAt: string | null;
  smallSample: boolean;
}

/** A test's score figures over its folded attempts (`keys`: its test key), with the items' sums for α. */
export async function testSummary(
  db: Db,
  keys: readonly string[],
  agg: Awaited<ReturnType<typeof itemAggregates>>,
  types: ReadonlyMap<string, QuestionType>,
): Promise<TestSummary> {
  const k = sql`${param([...keys])}::text[]`;
  const [totals, scores, times] = await Promise.all([
    db.execute(sql`
      select count(*) as attempts,
        count(distinct user_id) + count(*) filter (where user_id is null) as takers,
        sum(raw) as "sumRaw", sum(raw * raw) as "sumRaw2", sum(k) as "sumK",
        count(*) filter (where passed) as passed, max(completed_at) as last
      from ${itemAttempts} where test_key = any(${k})`),
    db.execute(sql`
      select percentage as value, count(*) as n from ${itemAttempts}
      where test_key = any(${k}) group by percentage`),
    db.execute(sql`
      select completed_in as value, count(*) as n from ${itemAttempts}
      where test_key = any(${k}) and completed_in is not null group by completed_in`),
  ]);
  const t = rowsOf<Record<string, unknown>>(totals)[0] ?? {};
  const attempts = num(t.attempts);
  const counts = rowsOf<{ value: unknown; n: unknown }>(scores).map((r) => ({
    value: num(r.value),
    n: num(r.n),
  }));
  const score = distributionOf(counts);
  const time = distributionOf(
    rowsOf<{ value: unknown; n: unknown }>(times).map((r) => ({ value: num(r.value), n: num(r.n) })),
  );
  const items = [...agg.sums.values()];
  const partialCredit = [...agg.sums.keys()].some((id) => {
    const type = types.get(id);
    return type ? earnsPartialCredit(type) : false;
  });
  return {
    attempts,
    takers: num(t.takers),
    score: { mean: score.mean, median: score.median, sd: score.sd },
    histogram: histogramOf(counts),
    reliability: reliabilityOf({
      attempts,
      sumRaw: num(t.sumRaw),
      sumRaw2: num(t.sumRaw2),
      sumK: num(t.sumK),
      items,
      partialCredit,
      sd: score.sd,
    }),
    passRate: attempts > 0 ? num(t.passed) / attempts : null,
    passPercentage: ITEM_RULES.passPercentage,
    time: { mean: time.mean, median: time.median },
    drawn: items.some((s) => s.n < attempts),
    lastEvaluatedAt: t.last ? new Date(t.last as string).toISOString() : null,
    smallSample: attempts < ITEM_RULES.minAttempts,
  };
}

/** Rows of questions with their figures, in the order given. */
export function questionRows(
  ids: readonly string[],
  facts: ReadonlyMap<string, QuestionFacts>,
  agg: Awaited<ReturnType<typeof itemAggregates>>,
  positions: ReadonlyMap<string, number> = new Map(),
) {
  return ids
    .filter((id) => facts.has(id))
    .map((id) => {
      const f = facts.get(id)!;
      return {
        questionId: id,
        question: f.question,
        questionType: f.type,
        position: positions.get(id) ?? null,
        figures: figuresOf(f, agg, id),
      };
    });
}

/**
 * A test's statistics: its summary and each question's figures — the questions `current` (in their order:
 * an assessment's questions now) and any other question its attempts received.
 */
export async function testStats(db: Db, testKey: string, current: readonly string[]) {
  const agg = await itemAggregates(db, [testKey]);
  const ids = [...current, ...[...agg.sums.keys()].filter((id) => !current.includes(id)).sort()];
  const facts = await questionFacts(db, ids);
  const types = new Map([...facts].map(([id, f]) => [id, f.type]));
  const summary = await testSummary(db, [testKey], agg, types);
  const positions = new Map(current.map((id, i) => [id, i + 1]));
  return { summary, questions: questionRows(ids, facts, agg, positions) };
}
