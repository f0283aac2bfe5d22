/**
 * Each rule of the test engine says the same in TypeScript (rules.ts) and in SQL (rules-sql.ts): every pair
 * is evaluated on the same cases — the TypeScript rule here, its fragment in the database, in one SELECT over
 * a VALUES list of the cases (a row of test_links' shape and the values the rule compares it with) — and the
 * answers must be equal, case by case, and the SQL's never null (a fragment may be negated). The cases take
 * every state a link's columns can be in, and the instants either side of each boundary (the deadline's
 * grace, the expiry, the window's start and end) to the millisecond.
 */
import { QUESTION_TYPES } from '@shared/rules/question-types';
import type { QuestionType, TestType } from '@shared/schemas/assessment';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { rowsOf } from '../../db/helpers';
import { openTestDatabase, testDbKind } from '../../test/helper';
import {
  ANSWER_GRACE_MS,
  acceptsAnswers,
  answerForms,
  deadlineFor,
  failureHolds,
  type GivenAnswer,
  hasOpened,
  holds,
  isOpen,
  isOverdue,
  isTaker,
  isTimed,
  isUnusedPast,
  LEGACY_ATTEMPT,
  type LinkState,
  mayStart,
  normaliseAnswer,
  pastGrace,
  retakeApplies,
  secondsTaken,
  windowEnd,
} from './rules';
import {
  acceptsAnswersSql,
  answerAcceptedSql,
  deadlineSql,
  failureHoldsSql,
  hasOpenedSql,
  holdsSql,
  isOpenSql,
  isOverdueSql,
  isTakerSql,
  isTimedSql,
  isUnusedPastSql,
  linkCols,
  mayStartSql,
  pastGraceSql,
  retakeAppliesSql,
  secondsTakenSql,
  storedIdsSql,
  storedTextSql,
  windowEndSql,
} from './rules-sql';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const MIN = 60_000;
const HOUR = 3600_000;
const LEARNER = '00000000-0000-4000-8000-0000000000a1';
const OTHER = '00000000-0000-4000-8000-0000000000a2';
const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** A case of a link: its state and what the rules compare it with. */
interface LinkCase {
  link: LinkState;
  now: Date;
  caller: string | null;
  hash: string | null;
  cooldownMs: number;
}

/** Every combination of the clock's columns, the other columns taking their values in turn. */
function linkCases(): LinkCase[] {
  const deadlines = [
    null,
    at(-ANSWER_GRACE_MS - 1),
    at(-ANSWER_GRACE_MS),
    at(-ANSWER_GRACE_MS + 1),
    at(10 * MIN),
  ];
  const starts = [null, at(-10 * MIN)];
  const expiries = [null, at(-1), at(0), at(24 * HOUR)];
  const windows: [Date | null, number | null][] = [
    [null, null],
    [at(HOUR), 2], // opens later
    [at(1), 2], // opens a millisecond from now
    [at(0), 1], // opens now
    [at(-HOUR), 2], // open
    [at(-HOUR), 1], // ends now
    [at(-3 * HOUR), 2], // ended
    [at(-HOUR), null], // a start time without a duration
  ];
  const statuses: LinkState['status'][] = ['TAKE_TEST', 'EXPIRED', 'NO_ENOUGH_MARKS', 'GENERATE_CERTIFICATE'];
  const types: TestType[] = ['RESOURCE', 'CUSTOM-TEST', 'INITIAL-ASSESSMENT', 'SUBJECT'];
  const users = [LEARNER, null];
  const keys = ['RESOURCE:r1', null];
  const callers = [null, LEARNER, OTHER];
  const hashes = [null, 'h1', 'h2', LEGACY_ATTEMPT];
  const cooldowns = [0, 24 * HOUR, 720 * HOUR];
  const cases: LinkCase[] = [];
  let i = 0;
  for (const deadlineAt of deadlines)
    for (const startedAt of starts)
      for (const expiresAt of expiries)
        for (const [startTime, durationHours] of windows)
          for (const status of statuses)
            for (const isCompleted of [false, true])
              for (const type of types) {
                i++;
                const pick = <T>(values: readonly T[], by = 1) => values[Math.floor(i / by) % values.length]!;
                cases.push({
                  link: {
                    id: idOf(i),
                    type,
                    status,
                    isCompleted,
                    userId: pick(users),
                    testKey: pick(keys, 2),
                    startTime,
                    durationHours,
                    expiresAt,
                    startedAt,
                    deadlineAt,
                    completedAt: null,
                    timeLimitMinutes: pick([5, 20, 90], 3),
                    createdAt: pick([at(-20 * MIN), at(-2 * HOUR), at(1500)], 5),
                    attemptTokenHash: pick([null, 'h1', LEGACY_ATTEMPT], 7),
                    sandbox: pick([false, true], 23),
                  },
                  now: pick([NOW, at(-ANSWER_GRACE_MS), at(333_500)], 11),
                  caller: pick(callers, 13),
                  hash: pick(hashes, 17),
                  cooldownMs: pick(cooldowns, 19),
                });
              }
  return cases;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A VALUES list of the cases (`n`: the case's place) as rows named `t`, their columns as test_links names them. */
function linkValues(cases: { c: LinkCase; n: number }[]) {
  const rows = cases.map(
    ({ c: { link: l, now, caller, hash, cooldownMs }, n }) => sql`(${n}::int, ${l.id}::uuid, ${l.type}::text,
      ${l.status}::text, ${l.isCompleted}::boolean, ${l.userId}::uuid, ${l.testKey}::text,
      ${iso(l.startTime)}::timestamptz, ${l.durationHours}::int, ${iso(l.expiresAt)}::timestamptz,
      ${iso(l.startedAt)}::timestamptz, ${iso(l.deadlineAt)}::timestamptz, ${iso(l.completedAt)}::timestamptz,
      ${l.timeLimitMinutes}::int, ${iso(l.createdAt)}::timestamptz, ${l.attemptTokenHash}::text,
      ${l.sandbox}::boolean, ${iso(now)}::timestamptz, ${caller}::uuid, ${hash}::text, ${cooldownMs}::bigint)`,
  );
  return sql`(values ${sql.join(rows, sql`, `)}) as t(n, id, type, status, is_completed, user_id, test_key,
    start_time, duration_hours, expires_at, started_at, deadline_at, completed_at, time_limit_minutes,
    created_at, attempt_token_hash, sandbox, now, caller, hash, cooldown_ms)`;
}

/** Milliseconds since the epoch of a timestamp fragment, as a number (null for null). */
const msOf = (timestamp: SQL) => sql`(extract(epoch from ${timestamp}) * 1000)::float8`;

/** The pairs of rules, by name: the TypeScript rule of a case, and its fragment over the row `t`. */
const t = linkCols('t');
const now = sql`t.now`;
const LINK_RULES: Record<string, { ts: (c: LinkCase) => unknown; sql: SQL }> = {
  isOpen: { ts: (c) => isOpen(c.link), sql: isOpenSql(t) },
  isTimed: { ts: (c) => isTimed(c.link.type), sql: isTimedSql(t) },
  windowEnd: { ts: (c) => windowEnd(c.link)?.getTime() ?? null, sql: msOf(windowEndSql(t)) },
  isUnusedPast: { ts: (c) => isUnusedPast(c.link, c.now), sql: isUnusedPastSql(t, now) },
  pastGrace: { ts: (c) => pastGrace(c.link, c.now), sql: pastGraceSql(t, now) },
  isOverdue: { ts: (c) => isOverdue(c.link, c.now), sql: isOverdueSql(t, now) },
  hasOpened: { ts: (c) => hasOpened(c.link, c.now), sql: hasOpenedSql(t, now) },
  mayStart: { ts: (c) => mayStart(c.link, c.now), sql: mayStartSql(t, now) },
  acceptsAnswers: { ts: (c) => acceptsAnswers(c.link, c.now), sql: acceptsAnswersSql(t, now) },
  deadlineFor: { ts: (c) => deadlineFor(c.link, c.now).getTime(), sql: msOf(deadlineSql(t, now)) },
  secondsTaken: { ts: (c) => secondsTaken(c.link, c.now), sql: secondsTakenSql(t, now) },
  isTaker: { ts: (c) => isTaker(c.link, c.caller), sql: isTakerSql(t.userId, sql`t.caller`) },
  holds: { ts: (c) => holds(c.link, c.hash), sql: holdsSql(t, sql`t.hash`) },
  retakeApplies: {
    ts: (c) => retakeApplies(c.link, c.cooldownMs),
    sql: retakeAppliesSql(t, sql`t.cooldown_ms`),
  },
};
/** The rules whose answer is a value, which is null where the TypeScript gives null; the others are true or false. */
const VALUED = new Set(['windowEnd', 'deadlineFor', 'secondsTaken']);

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** Runs `select` over chunks of the cases (a statement takes at most 65,535 parameters). */
async function inDatabase<C>(cases: C[], size: number, select: (chunk: C[]) => SQL) {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < cases.length; i += size) {
    rows.push(
      ...rowsOf<Record<string, unknown>>(await database.db.execute(select(cases.slice(i, i + size)))),
    );
  }
  return rows;
}

/** Where the two sides disagree, with the case, at most a few. */
function disagreements<C>(
  cases: C[],
  rows: Record<string, unknown>[],
  rules: Record<string, (c: C) => unknown>,
) {
  const wrong: unknown[] = [];
  for (const row of rows) {
    const c = cases[Number(row.n)]!;
    for (const [name, ts] of Object.entries(rules)) {
      const want = ts(c);
      const got = row[name] === null || typeof row[name] === 'boolean' ? row[name] : Number(row[name]);
      const typed = VALUED.has(name) || typeof got === 'boolean';
      if (got !== want || !typed) wrong.push({ rule: name, typeScript: want, sql: row[name], case: c });
    }
  }
  return wrong.slice(0, 5);
}

describe(`each test-engine rule and its SQL agree, on ${testDbKind()}`, () => {
  it('on a link’s clock, its taker, its attempt’s holder and whether a retake may be held back', async () => {
    const cases = linkCases();
    expect(cases.length).toBeGreaterThan(10_000);
    const rows = await inDatabase(
      cases.map((c, n) => ({ c, n })),
      2500,
      (chunk) =>
        sql`select t.n, ${sql.join(
          Object.entries(LINK_RULES).map(([name, rule]) => sql`${rule.sql} as ${sql.identifier(name)}`),
          sql`, `,
        )} from ${linkValues(chunk)}`,
    );
    expect(rows).toHaveLength(cases.length);
    const rules = Object.fromEntries(Object.entries(LINK_RULES).map(([name, rule]) => [name, rule.ts]));
    expect(disagreements(cases, rows, rules)).toEqual([]);
    // every rule is both true and false somewhere among the cases (a rule the cases never decide proves nothing)
    for (const name of Object.keys(LINK_RULES).filter((n) => !VALUED.has(n))) {
      const seen = new Set(cases.map((c) => LINK_RULES[name]!.ts(c)));
      expect([name, seen.size]).toEqual([name, 2]);
    }
  });

  it('on which failure holds back a retake of which link', async () => {
    const since = at(-24 * HOUR);
    const links = [
      { id: idOf(1), userId: LEARNER, testKey: 'RESOURCE:r1' },
      { id: null, userId: LEARNER, testKey: 'RESOURCE:r1' }, // a link not made yet (createLink's check)
      { id: idOf(1), userId: null, testKey: 'RESOURCE:r1' },
      { id: idOf(1), userId: LEARNER, testKey: null },
    ];
    const cases: { failure: LinkState; link: (typeof links)[number] }[] = [];
    const bases = linkCases().slice(0, 50);
    let i = 0;
    for (const link of links)
      for (const id of [idOf(1), idOf(2)])
        for (const userId of [LEARNER, OTHER, null])
          for (const testKey of ['RESOURCE:r1', 'SECTION:s1', null])
            for (const status of ['NO_ENOUGH_MARKS', 'GENERATE_CERTIFICATE', 'TAKE_TEST'] as const)
              for (const completedAt of [null, at(-24 * HOUR - 1), since, at(-24 * HOUR + 1), NOW]) {
                const base = bases[i++ % bases.length]!.link;
                cases.push({ failure: { ...base, id, userId, testKey, status, completedAt }, link });
              }
    const f = linkCols('f');
    const rows = await inDatabase(
      cases.map((c, n) => ({ ...c, n })),
      1000,
      (chunk) => sql`select f.n, ${failureHoldsSql(
        f,
        { id: sql`f.l_id`, userId: sql`f.l_user_id`, testKey: sql`f.l_test_key` },
        sql`${since.toISOString()}::timestamptz`,
      )} as "failureHolds"
      from (values ${sql.join(
        chunk.map(
          ({ failure: x, link, n }) => sql`(${n}::int, ${x.id}::uuid, ${x.userId}::uuid, ${x.testKey}::text,
            ${x.status}::text, ${iso(x.completedAt)}::timestamptz, ${link.id}::uuid, ${link.userId}::uuid,
            ${link.testKey}::text)`,
        ),
        sql`, `,
      )}) as f(n, id, user_id, test_key, status, completed_at, l_id, l_user_id, l_test_key)`,
    );
    expect(rows).toHaveLength(cases.length);
    expect(
      disagreements(cases, rows, { failureHolds: (c) => failureHolds(c.failure, c.link, since) }),
    ).toEqual([]);
    expect(new Set(cases.map((c) => failureHolds(c.failure, c.link, since)))).toEqual(new Set([true, false]));
  });

  it('on whether an answer is accepted for its question, and what is stored', async () => {
    const options = [idOf(101), idOf(102), idOf(103)];
    const stranger = idOf(199);
    const answers: Omit<GivenAnswer, 'questionId'>[] = [
      {},
      { answerId: options[0] },
      { answerId: stranger },
      { answerId: [] },
      { answerId: [options[1]!] },
      { answerId: [options[0]!, options[2]!] },
      { answerId: [options[2]!, options[0]!, options[2]!] },
      { answerId: [options[0]!, stranger] },
      { answerId: [stranger] },
      { answer: '  forty two ' },
      { answer: '' },
      { answer: 42 },
      { answer: -0.5 },
      { answer: Number.POSITIVE_INFINITY },
      { answer: Number.NaN },
      { answerId: options[1], answer: 'both' },
    ];
    const cases: { type: QuestionType; options: string[]; answer: Omit<GivenAnswer, 'questionId'> }[] = [];
    for (const type of QUESTION_TYPES)
      for (const opts of [options, [], options.slice(0, 1)])
        for (const answer of answers) cases.push({ type, options: opts, answer });
    const rows = await inDatabase(
      cases.map((c, n) => ({ ...c, n })),
      1000,
      (chunk) => {
        const forms = { multi: sql`c.multi`, single: sql`c.single`, text: sql`c.text` };
        return sql`select c.n, ${answerAcceptedSql(sql`c.type`, sql`c.options`, forms)} as accepted,
            ${storedIdsSql(sql`c.type`, forms)} as ids, ${storedTextSql(sql`c.type`, forms)} as text
          from (values ${sql.join(
            chunk.map(({ type, options: opts, answer, n }) => {
              const { multi, single, text } = answerForms(answer);
              return sql`(${n}::int, ${type}::text, ${sql.param(opts)}::uuid[], ${sql.param(multi)}::uuid[], ${single}::uuid, ${text}::text)`;
            }),
            sql`, `,
          )}) as c(n, type, options, multi, single, text)`;
      },
    );
    expect(rows).toHaveLength(cases.length);
    const wrong: unknown[] = [];
    let accepted = 0;
    for (const row of rows) {
      const c = cases[Number(row.n)]!;
      let stored: ReturnType<typeof normaliseAnswer> | null = null;
      try {
        stored = normaliseAnswer(
          { id: 'q', type: c.type, options: c.options.map((id) => ({ id })) },
          c.answer,
        );
      } catch {}
      const ids =
        typeof row.ids === 'string' ? row.ids.replace(/[{}]/g, '').split(',').filter(Boolean) : row.ids;
      const same =
        row.accepted === (stored !== null) &&
        (stored === null ||
          (JSON.stringify(ids) === JSON.stringify(stored.answerIds) && row.text === stored.answerText));
      if (!same) wrong.push({ case: c, typeScript: stored, sql: row });
      if (stored) accepted++;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(cases.length);
  });
});
