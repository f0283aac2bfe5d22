/**
 * A taker's statements find their link by its public id, through the link id's unique key, whatever the
 * planner believes of the table (issue 15). The sweep's partial indexes (test_links_due_idx: links started
 * and open; test_links_unused_idx: links open and not started) must never be a way in for them: on exam day
 * the statistics are taken before the start — every link unstarted, so the "due" index looks empty — and
 * ten thousand links then start within a minute, so a plan that walks that index to find one link walks
 * every started link, for every answer saved and every test submitted. Each taker's call below runs after
 * ANALYZE has seen the table as it was before the wave that makes the index full, and the plan of every
 * statement it ran is read (EXPLAIN, with the same parameters).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';
import { bankSuite, rightAnswer, statementsSentBy } from '../test/fixtures/assessments';
import { BACKENDS, type Person } from '../test/harness';
import { sweepLinks } from './engine/link-life';

/** The indexes of test_links each statement run by `fn` is planned to use, with the start of its text. */
async function indexesUsedBy(db: Db, fn: () => Promise<unknown>) {
  const ran = (await statementsSentBy(db, fn)).filter(({ text }) =>
    /^\s*(with|select|insert|update|delete)\b/i.test(text),
  );
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
  const used: { statement: string; indexes: string[] }[] = [];
  for (const { text, params } of ran) {
    const res = (await client.query(`explain (format json) ${text}`, params)) as {
      rows: Record<string, unknown>[];
    };
    const plan = Object.values(res.rows[0]!)[0];
    const indexes: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const n = node as Record<string, unknown>;
        if (typeof n['Index Name'] === 'string' && n['Relation Name'] === 'test_links') {
          indexes.push(n['Index Name']);
        }
        Object.values(n).forEach(walk);
      }
    };
    walk(typeof plan === 'string' ? JSON.parse(plan) : plan);
    used.push({ statement: text.replace(/\s+/g, ' ').slice(0, 80), indexes });
  }
  return used;
}

const SWEEP_INDEXES = ['test_links_due_idx', 'test_links_unused_idx'];

for (const backend of BACKENDS) {
  describe(`a taker's link found by its id on ${backend}`, () => {
    const s = bankSuite(backend);

    /** A custom assessment of ten questions shared with `n` new learners, its window open now. */
    async function shared(n: number) {
      const tenant = await s.h.tenant();
      const ids = rowsOf<{ id: string }>(
        await s.h.db.execute(sql`
          with l as (
            insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
            select 'wave-' || gen_random_uuid(), 'wave-' || gen_random_uuid() || '@example.com', true, 'USER',
              'Taker ' || i, false, true
            from generate_series(1, ${n}) i returning id),
          s as (insert into tenant_users (tenant_id, learner_id) select ${tenant.id}, id from l)
          select id from l`),
      ).map((r) => r.id);
      const created = await s.api.inject({
        method: 'POST',
        url: '/api/tenant/assessment/create',
        headers: tenant.headers,
        payload: { name: 'Wave' },
      });
      const assessmentId = created.json().data._id as string;
      for (const q of [...s.bank.questions.keys()].slice(0, 10)) {
        await s.api.inject({
          method: 'PUT',
          url: `/api/tenant/assessment/${assessmentId}/add-question/${q}`,
          headers: tenant.headers,
        });
      }
      const quarter = 15 * 60_000;
      const res = await s.api.inject({
        method: 'PUT',
        url: `/api/tenant/assessment/${assessmentId}/assign-users`,
        headers: tenant.headers,
        payload: {
          userIds: ids,
          createdAt: Date.now(),
          startTime: Math.ceil(Date.now() / quarter) * quarter,
          duration: 1,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      // the window moved to now, so nobody waits for the quarter hour
      const rows = rowsOf<{ user_id: string; link_id: string }>(
        await s.h.db.execute(sql`
          update test_links set start_time = now() - interval '1 second',
            expires_at = now() - interval '1 second' + interval '1 hour'
          where tenant_assessment_id = ${assessmentId}
          returning user_id, link_id`),
      );
      const tokens = s.h.app.services.tokens;
      return Promise.all(
        rows.map(async (r) => ({
          linkId: r.link_id,
          who: {
            id: r.user_id,
            email: '',
            headers: {
              authorization: `Bearer ${(await tokens.issue({ id: r.user_id, role: 'USER' }, 'WEB_APP')).token}`,
            },
          } satisfies Person,
        })),
      );
    }

    it('starts, saves and submits through the link id key after a wave the statistics have not seen', {
      timeout: 120_000,
    }, async () => {
      // the statistics see a table of links none of which has started
      const first = await shared(150);
      await s.h.db.execute(sql`analyze test_links`);
      for (const t of first) {
        const res = await s.api.start(t.linkId, t.who);
        expect(res.statusCode).toBe(200);
      }
      const me = first[0]!;
      const qs = await s.api.questionsOf(me.linkId);
      const answers = qs.map((q) => rightAnswer(s.bank.questions.get(q._id)!));
      const plans = [
        ...(await indexesUsedBy(s.h.db, () => s.api.load(me.linkId, me.who))),
        ...(await indexesUsedBy(s.h.db, async () => {
          const res = await s.api.answer(me.linkId, answers[0]!, me.who);
          expect(res.statusCode, res.body).toBe(200);
        })),
        ...(await indexesUsedBy(s.h.db, async () => {
          const res = await s.api.evaluate(me.linkId, answers, me.who);
          expect(res.statusCode, res.body).toBe(200);
        })),
      ];
      // and then a table every link of which has started: a new wave's start
      await s.h.db.execute(sql`analyze test_links`);
      const second = await shared(150);
      const next = second[0]!;
      plans.push(
        ...(await indexesUsedBy(s.h.db, async () => {
          const res = await s.api.start(next.linkId, next.who);
          expect(res.statusCode, res.body).toBe(200);
        })),
      );
      expect(plans.length).toBeGreaterThan(3);
      const sweeping = plans.filter((p) => p.indexes.some((i) => SWEEP_INDEXES.includes(i)));
      expect(sweeping).toEqual([]);

      // and the sweep still finds its links through them
      await s.h.db.execute(sql`analyze test_links`);
      const swept = await indexesUsedBy(s.h.db, () => sweepLinks(s.h.db, new Date()));
      expect(swept.flatMap((p) => p.indexes)).toEqual(expect.arrayContaining(SWEEP_INDEXES));
    });
  });
}
