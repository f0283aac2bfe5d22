/**
 * xAPI to a learning record store (issue 29 item 3), against the real server and a stand-in LRS written
 * from xAPI 1.0.3 (server/test/fixtures/lrs.ts: version header, Basic auth, POST statements with ids,
 * 200 with the ids, a repeated id stored once): a tenant connects its LRS (the secret sealed, never shown),
 * tries it with a test statement; events of the kinds it chose become statements — each one valid by the
 * independent xapi-validation library, with the ADL verbs, the learner as a per-tenant pseudonym or an
 * mbox — sent in batches by the jobs' sender, retried when the LRS fails, the same statements (same ids)
 * when sent again; another tenant's events never reach it; a disconnected LRS gets nothing more.
 */
import { EVENT_CATALOGUE, type EventType } from '@shared/contract/events';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../db/helpers';
import { expectLogSaid } from '../../test/audit-said';
import { type StandInLrs, startStandInLrs, xapiProblems } from '../../test/fixtures/lrs';
import { type Json, type SignedIn, setupServer } from '../../test/helper';
import { emitEvent } from '../core/events';
import { CLAIM_LEASE_SECONDS } from '../core/retries';
import { xapiStatements } from './tables';

const server = setupServer({
  services: {
    outboundResolve: async (name) => (name === 'lrs.intranet.example' ? ['192.168.4.7'] : ['93.184.215.14']),
  },
});
let lrs: StandInLrs;
let tenant: SignedIn;
let other: SignedIn;

const sender = () => server.app.services.xapi;
const example = <T extends EventType>(type: T) =>
  structuredClone(
    (EVENT_CATALOGUE[type].versions as Record<number, { example: unknown }>)[1]!.example,
  ) as never;

/** Writes an event of `type` (its catalogue example) for `tenantId`, as a committed change would. */
async function emit(tenantId: string, type: EventType, data = example(type)) {
  await server.db.transaction((tx) => emitEvent(tx, { tenantId, type, data }));
}

const queue = (tenantId: string) =>
  server.db
    .select()
    .from(xapiStatements)
    .where(eq(xapiStatements.tenantId, tenantId))
    .orderBy(xapiStatements.seq);

const connect = (body: Record<string, unknown>, who: { token: string } = tenant.auth) =>
  server.put('/api/tenant/xapi', body, who);

beforeAll(async () => {
  lrs = await startStandInLrs();
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Lrs Mentor' });
  other = await server.signedIn('TENANT', { profile: true, name: 'Other Mentor' });
}, 120_000);

afterAll(() => lrs?.close());

describe('the learning record store', () => {
  it('is connected with its secret sealed and never shown, by a person or a key with integrations:manage', async () => {
    expect((await server.get('/api/tenant/xapi', tenant.auth)).body.data).toBeNull();
    const noSecret = await connect({ endpoint: lrs.endpoint, username: lrs.username });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.field).toBe('secret');
    for (const endpoint of [
      'https://10.2.3.4/xapi/',
      'https://lrs.intranet.example/xapi/',
      'http://lrs.example.com/xapi/',
    ]) {
      const res = await connect({ endpoint, username: 'k', secret: 's' });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.field, endpoint).toBe('endpoint');
    }
    const made = await connect({ endpoint: lrs.endpoint, username: lrs.username, secret: lrs.password });
    expect(made.status, made.text).toBe(200);
    expect(made.body.data).toMatchObject({
      endpoint: lrs.endpoint,
      username: lrs.username,
      actorFormat: 'account',
      statements: ['studied', 'assessments', 'awards', 'roadmaps'],
      enabled: true,
      counts: { pending: 0, sent: 0, failed: 0 },
    });
    expect(made.text).not.toContain(lrs.password);
    const dump = rowsOf<{ t: string }>(
      await server.db.execute(sql`select row_to_json(c)::text as t from xapi_connections c`),
    );
    expect(dump.map((r) => r.t).join('')).not.toContain(lrs.password);
    // a change without the secret keeps it
    const changed = await connect({
      endpoint: lrs.endpoint,
      username: lrs.username,
      statements: ['awards', 'assessments', 'studied', 'roadmaps'],
    });
    expect(changed.status, changed.text).toBe(200);

    const key = await server.post(
      '/api/tenant/api-keys',
      { name: 'LRS', scopes: ['integrations:manage'] },
      tenant.auth,
    );
    const reader = await server.post(
      '/api/tenant/api-keys',
      { name: 'Reader', scopes: ['reports:read'] },
      tenant.auth,
    );
    expect((await server.get('/api/tenant/xapi', { token: key.body.data.key })).status).toBe(200);
    expect((await server.get('/api/tenant/xapi', { token: reader.body.data.key })).status).toBe(403);
    expect((await server.get('/api/tenant/xapi', other.auth)).body.data).toBeNull();
  });

  it('sends a test statement the LRS stores, valid by xapi-validation', async () => {
    const res = await server.post('/api/tenant/xapi/test', undefined, tenant.auth);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ ok: true, status: 200 });
    const stored = lrs.stored.get(res.body.data.statementId);
    expect(stored).toBeDefined();
    expect(xapiProblems(stored)).toEqual([]);
    expect(stored).toMatchObject({ verb: { id: 'http://adlnet.gov/expapi/verbs/interacted' } });
    // a wrong secret: the LRS's 401, said
    await connect({ endpoint: lrs.endpoint, username: lrs.username, secret: 'wrong' });
    const refused = await server.post('/api/tenant/xapi/test', undefined, tenant.auth);
    expect(refused.body.data).toMatchObject({ ok: false, status: 401 });
    // the result by its code beside its English (issue 31): the portal says it in the reader's language
    expect(res.body.data).toMatchObject({ code: 'xapi.result.stored', params: {} });
    expect(refused.body.data.code).toMatch(/^xapi\.result\.answered(Body)?$/);
    expect(refused.body.data.params).toMatchObject({ status: 401 });
    await connect({ endpoint: lrs.endpoint, username: lrs.username, secret: lrs.password });
  });

  it('turns the events into valid statements with the ADL verbs, sent in one batch, each stored once', async () => {
    lrs.stored.clear();
    const types: EventType[] = [
      'learning.day.closed',
      'assessment.evaluated',
      'award.issued',
      'roadmap.completed',
      'seat.added',
    ];
    for (const type of types) await emit(tenant.user._id, type);
    // another tenant's events never reach this LRS
    await emit(other.user._id, 'award.issued');
    const waiting = await queue(tenant.user._id);
    // a seat is not a learning activity: no statement
    expect(waiting.map((r) => r.eventType)).toEqual(types.slice(0, 4));
    const sent = await sender().sendTenant(tenant.user._id);
    expect(sent).toEqual({ sent: 4, failed: 0 });
    expect(lrs.posts.at(-1)!.status).toBe(200);
    const statements = [...lrs.stored.values()];
    for (const s of statements) expect(xapiProblems(s), JSON.stringify(s)).toEqual([]);
    const verbs = statements.map((s) => (s.verb as { id: string }).id);
    expect(verbs).toEqual([
      // one per roadmap studied that day (the example: one roadmap)
      'http://adlnet.gov/expapi/verbs/experienced',
      'http://adlnet.gov/expapi/verbs/attempted',
      'http://adlnet.gov/expapi/verbs/passed',
      'http://id.tincanapi.com/verb/earned',
      'http://adlnet.gov/expapi/verbs/completed',
    ]);
    const [studied, , passed, earned] = statements as Record<string, Json>[];
    const day = example('learning.day.closed') as { roadmaps: { minutes: number }[] };
    expect(studied!.result.duration).toBe(`PT${day.roadmaps[0]!.minutes * 60}S`);
    expect(studied!.context.contextActivities.grouping[0].id).toBe(
      server.config.publicUrl.replace(/\/+$/, ''),
    );
    const evaluated = example('assessment.evaluated') as { score: number; questionCount: number };
    expect(passed!.result).toMatchObject({
      score: { raw: evaluated.score, min: 0, max: evaluated.questionCount * 10 },
      success: true,
      completion: true,
    });
    expect(passed!.result.score.scaled).toBeCloseTo(evaluated.score / (evaluated.questionCount * 10), 3);
    expect(passed!.context.contextActivities.parent[0].id).toMatch(/\/roadmap\//);
    const award = example('award.issued') as { awardId: string };
    expect(Object.values(earned!.result.extensions)).toEqual([
      `${server.config.publicUrl.replace(/\/+$/, '')}/api/credentials/${award.awardId}`,
    ]);
    // the learner is a pseudonym at this Waymark: stable, and neither the id nor the address
    const actors = statements.map((s) => JSON.stringify(s.actor));
    expect(new Set(actors).size).toBe(1);
    const learner = (example('award.issued') as { learner: { id: string; email: string } }).learner;
    expect(actors[0]).not.toContain(learner.id);
    expect(actors[0]).not.toContain(learner.email);
    expect(JSON.parse(actors[0]!).account.homePage).toBe(server.config.publicUrl.replace(/\/+$/, ''));
    // an assessment's statements never carry answers
    expect(JSON.stringify(statements)).not.toMatch(/isCorrect|"answers?"/);

    // the queue says what was sent, with the ids
    const list = await server.get('/api/tenant/xapi/statements', tenant.auth);
    expect(list.body.data.entries.map((e: { status: string }) => e.status)).toEqual([
      'SENT',
      'SENT',
      'SENT',
      'SENT',
    ]);
    const ids = list.body.data.entries.flatMap((e: { statementIds: string[] }) => e.statementIds).sort();
    expect(ids).toEqual([...lrs.stored.keys()].sort());

    // sent again (a worker that died after the LRS stored them): the same statements, stored once
    await server.db
      .update(xapiStatements)
      .set({ status: 'SENDING', nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(xapiStatements.tenantId, tenant.user._id));
    const posts = lrs.posts.length;
    expect(await sender().sendTenant(tenant.user._id)).toEqual({ sent: 4, failed: 0 });
    expect(lrs.posts.length).toBe(posts + 1);
    expect(lrs.posts.at(-1)!.ids.sort()).toEqual(ids);
    expect(lrs.stored.size).toBe(5);
    // an LRS that answers a repeat with 409 (as xAPI allows): the batch one by one, each already held
    lrs.conflictOnRepeat = true;
    await server.db
      .update(xapiStatements)
      .set({ status: 'PENDING', nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(xapiStatements.tenantId, tenant.user._id));
    expect(await sender().sendTenant(tenant.user._id)).toEqual({ sent: 4, failed: 0 });
    lrs.conflictOnRepeat = false;
    expect(lrs.stored.size).toBe(5);
  });

  it('names learners by mbox when the tenant chooses, and sends only the kinds chosen', async () => {
    lrs.stored.clear();
    await connect({
      endpoint: lrs.endpoint,
      username: lrs.username,
      actorFormat: 'mbox',
      statements: ['awards'],
    });
    await emit(tenant.user._id, 'assessment.evaluated');
    await emit(tenant.user._id, 'award.issued');
    const before = (await queue(tenant.user._id)).filter((r) => r.status === 'PENDING');
    expect(before.map((r) => r.eventType)).toEqual(['award.issued']);
    await sender().sendTenant(tenant.user._id);
    const [s] = [...lrs.stored.values()] as Record<string, Json>[];
    expect(xapiProblems(s)).toEqual([]);
    const learner = (example('award.issued') as { learner: { email: string; name: string } }).learner;
    expect(s!.actor).toEqual({ objectType: 'Agent', name: learner.name, mbox: `mailto:${learner.email}` });
  });

  it('retries when the LRS fails, with backoff, and catches up when it is back', async () => {
    lrs.failNext(1, 503);
    await emit(tenant.user._id, 'award.issued');
    expect(await sender().sendTenant(tenant.user._id)).toEqual({ sent: 0, failed: 1 });
    const [row] = (await queue(tenant.user._id)).filter((r) => r.status === 'PENDING');
    expect(row).toMatchObject({ attempts: 1, responseStatus: 503 });
    expect(row!.lastError).toContain('503');
    const wait = row!.nextAttemptAt!.getTime() - row!.lastAttemptAt!.getTime();
    expect(wait).toBeGreaterThan(4000);
    expect(wait).toBeLessThan(6000);
    const conn = await server.get('/api/tenant/xapi', tenant.auth);
    expect(conn.body.data.failingSince).not.toBeNull();
    expect(conn.body.data.counts.pending).toBe(1);
    // not due: nothing sent
    expect(await sender().sendTenant(tenant.user._id)).toEqual({ sent: 0, failed: 0 });
    await server.db
      .update(xapiStatements)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(xapiStatements.id, row!.id));
    expect(await sender().sendTenant(tenant.user._id)).toEqual({ sent: 1, failed: 0 });
    expect((await server.get('/api/tenant/xapi', tenant.auth)).body.data.failingSince).toBeNull();
  });

  it('a statement the LRS refuses fails alone, the others of its batch go; resend sends it again', async () => {
    await emit(tenant.user._id, 'award.issued');
    await emit(tenant.user._id, 'award.issued');
    const rows = (await queue(tenant.user._id)).filter((r) => r.status === 'PENDING');
    expect(rows).toHaveLength(2);
    // the first entry's statements are kept with an id the LRS refuses (as a broken LRS would)
    await server.db
      .update(xapiStatements)
      .set({ statements: [{ id: 'not-a-uuid', actor: {}, verb: {}, object: {} }] })
      .where(eq(xapiStatements.id, rows[0]!.id));
    expect(await sender().sendTenant(tenant.user._id)).toEqual({ sent: 1, failed: 1 });
    const after = await server.get('/api/tenant/xapi/statements?status=FAILED', tenant.auth);
    expect(after.body.data.entries).toHaveLength(1);
    expect(after.body.data.entries[0]).toMatchObject({ _id: rows[0]!.id, responseStatus: 400 });
    // why, by code for the portal to say in the reader's language, the LRS's answer inside (issue 31)
    const failed = after.body.data.entries[0];
    expect(failed.errorParts.map((p: { code: string }) => p.code)).toEqual([
      expect.stringMatching(/^deliveries\.error\.lrsAnswered(Body)?$/),
      'deliveries.error.notResent',
    ]);
    expect(failed.error).toMatch(/^The LRS answered 400\b.* It is not sent again until you resend it\.$/);
    const resent = await server.post('/api/tenant/xapi/statements/resend', undefined, tenant.auth);
    expect(resent.body.data.resent).toBe(1);
    const again = (await queue(tenant.user._id)).find((r) => r.id === rows[0]!.id)!;
    expect(again).toMatchObject({ status: 'PENDING', lastError: null, lastErrorParts: null });
  });

  it('sends a refused batch’s entries alone a few at a time, under a lease covering them all', async () => {
    await server.db.delete(xapiStatements).where(eq(xapiStatements.tenantId, tenant.user._id));
    for (let i = 0; i < 12; i++) await emit(tenant.user._id, 'award.issued');
    const rows = await queue(tenant.user._id);
    await server.db
      .update(xapiStatements)
      .set({ statements: [{ id: 'not-a-uuid', actor: {}, verb: {}, object: {} }] })
      .where(eq(xapiStatements.id, rows[0]!.id));
    // a slow LRS: one after another, the twelve would outlast the claim's lease, and another process
    // would claim them again while they are still being sent
    lrs.answerDelayMs = 500;
    try {
      const before = lrs.arrivals.length;
      const started = Date.now();
      const sending = sender().sendTenant(tenant.user._id);
      await vi.waitFor(() => expect(lrs.arrivals.length).toBeGreaterThan(before + 1), { interval: 20 });
      for (const row of await queue(tenant.user._id)) {
        expect(row.status).toBe('SENDING');
        expect(row.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan((CLAIM_LEASE_SECONDS + 5) * 1000);
      }
      expect(await sending).toEqual({ sent: 11, failed: 1 });
      expect(Date.now() - started).toBeLessThan(12 * 500);
    } finally {
      lrs.answerDelayMs = 0;
    }
  });

  it('disconnected, it gets nothing more and its queue is gone', async () => {
    const res = await server.request('DELETE', '/api/tenant/xapi', undefined, tenant.auth);
    expect(res.status).toBe(200);
    await emit(tenant.user._id, 'award.issued');
    expect(await queue(tenant.user._id)).toEqual([]);
    expect(await sender().sendTenant(tenant.user._id)).toEqual({ sent: 0, failed: 0 });
    const again = await server.post('/api/tenant/xapi/test', undefined, tenant.auth);
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('XAPI_NOT_CONNECTED');
    const audit = rowsOf<{ action: string }>(
      await server.db.execute(
        sql`select action from audit_events where tenant_id = ${tenant.user._id} and action like 'xapi.%' order by occurred_at, id`,
      ),
    );
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['xapi.connected', 'xapi.updated', 'xapi.resent', 'xapi.disconnected']),
    );
    // each said again in the reader's language from its details (issue 31)
    await expectLogSaid(server.db, tenant.user._id, ['xapi.connected', 'xapi.updated', 'xapi.resent']);
  });
});
