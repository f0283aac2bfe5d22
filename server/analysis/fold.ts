/**
 * The fold (decision 037): adds each evaluated attempt, once, into item analysis's aggregates
 * (analysis/tables.ts) — its pieces by the shared rules (shared/rules/item-sums.ts attemptPieces) — so the
 * figures are read from a few rows per question instead of every answer. The `analysis-fold` job runs it every
 * minute (server/jobs/jobs.ts); a read of the figures first folds what was evaluated in the last minutes, so
 * a mentor sees an attempt as soon as it is evaluated. The evaluation itself is not touched.
 *
 * Exactly once, with any number of processes: a batch's attempts are claimed by inserting their rows into
 * item_attempts (`on conflict do nothing returning`) in the transaction that adds them to the sums, so an
 * attempt is counted by whichever transaction inserts its row first and by no other. The upserts go in key
 * order, so two folds at once wait for each other rather than deadlock.
 *
 * Which attempts: those evaluated (test_links_completed_idx) since the last full pass, less a day — a test
 * evaluated by the sweep is dated by its deadline, which may be minutes before the sweep — and everything on
 * the first run. Each earned award whose test has a validity period is registered with its end
 * (award_expiries) in the same transaction, for the reminders.
 */
import {
  type AttemptSummary,
  addPiece,
  attemptPieces,
  type DaySums,
  emptySums,
  type ItemSums,
  pieceBuckets,
} from '@shared/rules/item-sums';
import { isTextAnswer } from '@shared/rules/question-types';
import { AWARD_EARNED_STATUSES, awardKindOf } from '@shared/rules/test-status';
import type { ValidityPeriod } from '@shared/rules/validity';
import type { QuestionType, TestStatus, TestType } from '@shared/schemas/assessment';
import { eq, param, sql } from 'drizzle-orm';
import { testAnswers, testLinkQuestions, testLinks } from '../assessments/tables';
import { awardExpiries } from '../awards/tables';
import { periodsOf, validUntilOf } from '../awards/validity';
import type { Db } from '../db/client';
import { inTx, parsedJson, rowsOf } from '../db/helpers';
import { questions } from '../questions/tables';
import { itemAttempts, itemFoldState } from './tables';

/** Attempts folded in one transaction. */
export const FOLD_BATCH = 500;
/** How far before the last full pass the job looks again (a sweep's evaluation is dated by its deadline). */
export const FOLD_LOOKBACK_MS = 24 * 3600_000;
/** How far back a read of the figures folds first. */
export const READ_CATCH_UP_MS = 10 * 60_000;
/** The attempts of no test (a link whose test is gone, or with no question) are claimed under this key. */
export const NO_TEST = 'NONE';
const STATE = 'attempts';

interface LinkFacts {
  id: string;
  linkId: string;
  testKey: string | null;
  userId: string | null;
  type: TestType;
  status: TestStatus;
  startedAt: string | null;
  completedAt: string;
  completedIn: number | null;
  items: { q: string; t: QuestionType; p: number | null; c: string[] | null; f: string | null }[] | string;
}

/** What the fold reads of a batch of evaluated links: each with its questions and answers, in one statement. */
async function readBatch(db: Db, ids: readonly string[]): Promise<LinkFacts[]> {
  return rowsOf<LinkFacts>(
    await db.execute(sql`
      select l.id, l.link_id as "linkId", l.test_key as "testKey", l.user_id as "userId", l.type, l.status,
        l.started_at as "startedAt", coalesce(l.completed_at, l.created_at) as "completedAt",
        l.completed_in as "completedIn",
        coalesce((
          select json_agg(json_build_object('q', tlq.question_id, 't', q.question_type, 'p', a.points,
              'c', a.answer_ids, 'f', a.first_answered_at) order by tlq.position)
          from ${testLinkQuestions} tlq
            join ${questions} q on q.id = tlq.question_id
            left join ${testAnswers} a on a.test_link_id = tlq.test_link_id and a.question_id = tlq.question_id
          where tlq.test_link_id = l.id), '[]'::json) as items
      from ${testLinks} l
      where l.id = any(${param(ids)}::uuid[]) and l.is_completed`),
  );
}

const time = (v: string | Date | null) => (v === null ? null : new Date(v).getTime());

/** An attempt's summary by the shared rules. */
export function summaryOf(link: LinkFacts): AttemptSummary {
  const items = parsedJson(link.items);
  return attemptPieces({
    startedAt: time(link.startedAt),
    completedAt: time(link.completedAt)!,
    items: items.map((i) => ({
      questionId: i.q,
      points: i.p === null ? 0 : Number(i.p),
      chosen: isTextAnswer(i.t) ? null : (i.c ?? []),
      firstSavedAt: time(i.f),
    })),
  });
}

/** The batch's pieces added up by key, in key order. */
function addUp(attempts: { testKey: string; summary: AttemptSummary }[]) {
  const sums = new Map<string, { testKey: string; questionId: string; s: ItemSums }>();
  const buckets = new Map<
    string,
    { testKey: string; questionId: string; bucket: number; option: string; n: number }
  >();
  const days = new Map<string, { testKey: string; questionId: string } & DaySums>();
  for (const { testKey, summary } of attempts) {
    for (const p of summary.pieces) {
      const key = `${testKey}|${p.questionId}`;
      const entry = sums.get(key) ?? { testKey, questionId: p.questionId, s: emptySums() };
      addPiece(entry.s, p);
      sums.set(key, entry);
      for (const b of pieceBuckets(p)) {
        const bk = `${key}|${b.bucket}|${b.option}`;
        const got = buckets.get(bk) ?? {
          testKey,
          questionId: p.questionId,
          bucket: b.bucket,
          option: b.option,
          n: 0,
        };
        got.n += b.n;
        buckets.set(bk, got);
      }
      const dk = `${key}|${p.day}`;
      const day = days.get(dk) ?? {
        testKey,
        questionId: p.questionId,
        day: p.day,
        n: 0,
        sx: 0,
        sxx: 0,
        nr: 0,
        sr: 0,
      };
      day.n += 1;
      day.sx += p.x;
      day.sxx += p.x * p.x;
      if (p.rest !== null) {
        day.nr += 1;
        day.sr += p.rest;
      }
      days.set(dk, day);
    }
  }
  const ordered = <T>(m: Map<string, T>) =>
    [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  return { sums: ordered(sums), buckets: ordered(buckets), days: ordered(days) };
}

/**
 * Folds the given evaluated links (those not folded yet); returns how many it folded. One transaction: the
 * claim, the sums, and the awards with an end.
 */
export async function foldLinks(db: Db, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const links = await readBatch(db, [...ids].sort());
  const facts = links.map((link) => {
    const summary = summaryOf(link);
    const testKey = link.testKey && summary.k > 0 ? link.testKey : NO_TEST;
    return { link, summary, testKey };
  });
  return inTx(db, async (tx) => {
    const claimedRows = rowsOf<{ id: string }>(
      await tx.execute(sql`
        insert into ${itemAttempts} (test_link_id, test_key, user_id, k, raw, percentage, passed,
          completed_in, completed_at)
        select r.id, r.test_key, r.user_id, r.k, r.raw, r.percentage, r.passed, r.completed_in, r.completed_at
        from json_to_recordset(${JSON.stringify(
          facts.map(({ link, summary, testKey }) => ({
            id: link.id,
            test_key: testKey,
            user_id: link.userId,
            k: summary.k,
            raw: summary.raw,
            percentage: summary.percentage,
            passed: (AWARD_EARNED_STATUSES as readonly string[]).includes(link.status),
            completed_in: link.completedIn,
            completed_at: new Date(link.completedAt).toISOString(),
          })),
        )}::json) as r(id uuid, test_key text, user_id uuid, k int, raw float8, percentage numeric,
          passed boolean, completed_in int, completed_at timestamptz)
        order by r.id
        on conflict (test_link_id) do nothing
        returning test_link_id as id`),
    );
    const claimed = new Set(claimedRows.map((r) => r.id));
    const mine = facts.filter((f) => claimed.has(f.link.id) && f.testKey !== NO_TEST);
    if (mine.length === 0) return claimed.size;
    const { sums, buckets, days } = addUp(mine);
    const key = (testKey: string, questionId: string) => ({ test_key: testKey, question_id: questionId });
    await addInto(
      tx,
      'item_sums',
      [],
      SUM_COLUMNS,
      sums.map((r) => ({ ...key(r.testKey, r.questionId), ...r.s })),
    );
    await addInto(
      tx,
      'item_buckets',
      ['bucket', 'option'],
      { n: 'int' },
      buckets.map((b) => ({ ...key(b.testKey, b.questionId), bucket: b.bucket, option: b.option, n: b.n })),
    );
    await addInto(
      tx,
      'item_days',
      ['day'],
      DAY_COLUMNS,
      days.map(({ testKey, questionId, ...d }) => ({ ...key(testKey, questionId), ...d })),
    );
    await registerExpiries(
      tx,
      mine.map((m) => m.link),
    );
    return claimed.size;
  });
}

const KEY_TYPES = { bucket: 'smallint', option: 'text', day: 'date' } as const;
const SUM_COLUMNS = {
  n: 'int',
  sx: 'float8',
  sxx: 'float8',
  nr: 'int',
  rx: 'float8',
  rxx: 'float8',
  sr: 'float8',
  srr: 'float8',
  sxr: 'float8',
  timed: 'int',
  seconds: 'float8',
} as const;
const DAY_COLUMNS = { n: 'int', sx: 'float8', sxx: 'float8', nr: 'int', sr: 'float8' } as const;

/**
 * Adds rows into one of the aggregate tables: each row's counts and sums are added to the row of the same key
 * (test, question, and `extra`: bucket and option, or day), which is made when missing. Rows of a question
 * deleted meanwhile are left out. One statement; the rows come in key order.
 */
async function addInto(
  tx: Db,
  table: 'item_sums' | 'item_buckets' | 'item_days',
  extra: readonly (keyof typeof KEY_TYPES)[],
  columns: Readonly<Record<string, string>>,
  rows: readonly Record<string, unknown>[],
) {
  if (rows.length === 0) return;
  const keys = ['test_key', 'question_id', ...extra];
  const types: Record<string, string> = { test_key: 'text', question_id: 'uuid', ...KEY_TYPES, ...columns };
  const all = [...keys, ...Object.keys(columns)];
  const added = Object.keys(columns)
    .map((c) => `${c} = ${table}.${c} + excluded.${c}`)
    .join(', ');
  await tx.execute(sql`
    insert into ${sql.raw(table)} (${sql.raw(all.join(', '))})
    select ${sql.raw(all.map((c) => `r.${c}`).join(', '))}
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as r(${sql.raw(all.map((c) => `${c} ${types[c]}`).join(', '))})
    where exists (select 1 from ${questions} q where q.id = r.question_id)
    on conflict (${sql.raw(keys.join(', '))}) do update set ${sql.raw(added)}`);
}

/** The earned awards among these links whose test has a validity period, with their end. */
async function registerExpiries(db: Db, links: LinkFacts[]) {
  const periods = new Map<string, ValidityPeriod[]>();
  const rows: (typeof awardExpiries.$inferInsert)[] = [];
  for (const link of links) {
    if (!link.userId || !link.testKey || !awardKindOf(link.type)) continue;
    if (!(AWARD_EARNED_STATUSES as readonly string[]).includes(link.status)) continue;
    let ps = periods.get(link.testKey);
    if (!ps) {
      ps = await periodsOf(db, link.testKey);
      periods.set(link.testKey, ps);
    }
    const validUntil = await validUntilOf(db, link, ps);
    if (!validUntil) continue;
    rows.push({
      awardId: link.linkId,
      testLinkId: link.id,
      userId: link.userId,
      testKey: link.testKey,
      earnedAt: new Date(link.completedAt),
      validUntil,
    });
  }
  if (rows.length) await db.insert(awardExpiries).values(rows).onConflictDoNothing();
}

/** Evaluated links not folded yet, evaluated at or after `since` (all when null), oldest first. */
async function pending(db: Db, since: Date | null, limit: number): Promise<{ id: string; at: Date }[]> {
  const rows = rowsOf<{ id: string; at: string | Date }>(
    await db.execute(sql`
      select l.id, l.completed_at as at from ${testLinks} l
      where l.is_completed and ${since === null ? sql`true` : sql`l.completed_at >= ${since.toISOString()}::timestamptz`}
        and not exists (select 1 from ${itemAttempts} a where a.test_link_id = l.id)
      order by l.completed_at
      limit ${limit}`),
  );
  return rows.map((r) => ({ id: r.id, at: new Date(r.at) }));
}

/**
 * Folds the attempts evaluated since `since` (all when null), batch after batch, at most `maxBatches`; says
 * how many it folded and whether it found them all.
 */
export async function foldSince(
  db: Db,
  since: Date | null,
  { batch = FOLD_BATCH, maxBatches = 200 } = {},
): Promise<{ folded: number; done: boolean; reached: Date | null }> {
  let folded = 0;
  let cursor = since;
  let reached: Date | null = null;
  for (let i = 0; i < maxBatches; i++) {
    const next = await pending(db, cursor, batch);
    if (next.length === 0) return { folded, done: true, reached };
    folded += await foldLinks(
      db,
      next.map((n) => n.id),
    );
    // keyset: the next batch starts where this one ended (those of the same instant not folded yet come again)
    reached = next[next.length - 1]!.at;
    cursor = reached;
  }
  return { folded, done: false, reached };
}

/** The job: folds what was evaluated since the last full pass (less FOLD_LOOKBACK_MS), or everything at first. */
export async function foldJob(db: Db, now: Date): Promise<{ folded: number }> {
  const [state] = await db.select().from(itemFoldState).where(eq(itemFoldState.name, STATE)).limit(1);
  const since = state ? new Date(state.through.getTime() - FOLD_LOOKBACK_MS) : null;
  const run = await foldSince(db, since);
  // a full pass moves the mark to when it began; a partial one to where it got, to go on from there
  const through = run.done ? now : (run.reached ?? state?.through ?? null);
  if (through) {
    await db
      .insert(itemFoldState)
      .values({ name: STATE, through })
      .onConflictDoUpdate({ target: itemFoldState.name, set: { through, updatedAt: sql`now()` } });
  }
  return { folded: run.folded };
}

/**
 * Before a read of the figures: folds what was evaluated in the last minutes, so the figures are current —
 * one batch at most, so that a read just after an exam's end does not do the job's work (the job folds the
 * rest within its minute).
 */
export async function catchUp(db: Db, now: Date): Promise<number> {
  const run = await foldSince(db, new Date(now.getTime() - READ_CATCH_UP_MS), { maxBatches: 1 });
  return run.folded;
}
