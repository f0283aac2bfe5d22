/**
 * The audit log (issue 28 item 4), against the real server: every change to seats, invitations, roadmap
 * assignments, assessments and their sharing, and API keys is recorded with who made it (the person, or the
 * API key), what, when and from where, in the change's own transaction (a rolled-back change leaves none);
 * the tenant reads it filtered, page after page, and as CSV or NDJSON; no entry can be changed or deleted,
 * and the retention job deletes only entries older than AUDIT_RETENTION_DAYS, never younger than a year.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/helpers';
import { questions } from '../../questions/tables';
import { addLearner } from '../../tenant/seats';
import { expectLogSaid } from '../../test/audit-said';
import { type SignedIn, setupServer } from '../../test/helper';
import { MIN_AUDIT_RETENTION_DAYS, pruneAudit } from '../core/audit';
import { actorOf } from '../core/principal';
import { auditEvents } from '../core/tables';

const server = setupServer({ seed: true });

type Entry = {
  _id: string;
  occurredAt: string;
  actor: { kind: string; id: string | null; label: string };
  action: string;
  target: { kind: string; id: string | null };
  summary: string;
  details: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
};

let tenant: SignedIn;
let learner: SignedIn;
const UA = { 'user-agent': 'audit-test/1.0' };
const as = (who: SignedIn) => ({ ...who.auth, headers: UA });

async function log(
  query: Record<string, string> = {},
  who: { token?: string; headers?: Record<string, string> } = tenant.auth,
) {
  const res = await server.get('/api/tenant/audit-log', { ...who, query: { limit: '100', ...query } });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { entries: Entry[]; nextCursor: string | null };
}

beforeAll(async () => {
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Audit Mentor' });
  learner = await server.signedIn('USER', { profile: true, name: 'Audited Learner' });
}, 60_000);

describe('the audit log', () => {
  it('records each change with who, what, when and from where', async () => {
    const before = Date.now();
    expect(
      (await server.post('/api/tenant/users/add-user-v2', { email: learner.account.email }, as(tenant)))
        .status,
    ).toBe(200);
    const invitee = `invitee-${Date.now()}@example.com`;
    const invited = await server.post('/api/tenant/users/invite-user', { email: invitee }, as(tenant));
    expect(invited.status).toBe(200);
    expect(
      (
        await server.request(
          'DELETE',
          `/api/tenant/users/invitations/${invited.body.data._id}`,
          undefined,
          as(tenant),
        )
      ).status,
    ).toBe(200);
    const roadmaps = await server.get('/api/roadmap/list/no-auth');
    const roadmap = (roadmaps.body.data as { _id: string; name: string; prerequisites?: unknown[] }[])[0]!;
    const assigned = await server.post(
      '/api/tenant/roadmap/assign-roadmap',
      { roadmapId: roadmap._id, userId: learner.user._id, prerequisites: 'WAIVE' },
      as(tenant),
    );
    expect(assigned.status, assigned.text).toBe(201);
    // an assessment: made, ten questions of the bank, shared with the learner
    const made = await server.post('/api/tenant/assessment/create', { name: 'Audited quiz' }, as(tenant));
    const assessmentId = made.body.data._id as string;
    const bank = await server.db
      .select({ id: questions.id })
      .from(questions)
      .where(eq(questions.status, 'PUBLISH'))
      .limit(10);
    for (const q of bank) {
      const res = await server.request(
        'PUT',
        `/api/tenant/assessment/${assessmentId}/add-question/${q.id}`,
        undefined,
        as(tenant),
      );
      expect(res.status, res.text).toBe(200);
    }
    const shared = await server.put(
      `/api/tenant/assessment/${assessmentId}/assign-users`,
      {
        userIds: [learner.user._id],
        createdAt: Date.now(),
        startTime: Date.now() + 3_600_000 - ((Date.now() + 3_600_000) % 900_000),
        duration: 1,
      },
      as(tenant),
    );
    expect(shared.status, shared.text).toBe(200);
    expect(
      (
        await server.request(
          'DELETE',
          `/api/tenant/users/remove-user/${learner.user._id}`,
          undefined,
          as(tenant),
        )
      ).status,
    ).toBe(200);

    const { entries } = await log();
    const actions = entries.map((e) => e.action).reverse();
    expect(actions).toEqual([
      'seat.added',
      'seat.invited',
      'seat.invitation_canceled',
      'roadmap.assigned',
      'assessment.created',
      ...Array(10).fill('assessment.question_added'),
      'assessment.shared',
      'seat.removed',
    ]);
    for (const e of entries) {
      expect(e.actor).toEqual({ kind: 'person', id: tenant.user._id, label: 'Audit Mentor' });
      expect(e.ip).toBe('127.0.0.1');
      expect(e.userAgent).toBe('audit-test/1.0');
      expect(Date.parse(e.occurredAt)).toBeGreaterThanOrEqual(before - 1000);
    }
    const byAction = (a: string) => entries.find((e) => e.action === a)!;
    expect(byAction('seat.added')).toMatchObject({
      target: { kind: 'user', id: learner.user._id },
      summary: `${learner.account.email} added as a learner`,
    });
    expect(byAction('roadmap.assigned').summary).toBe(`${roadmap.name} assigned to ${learner.account.email}`);
    expect(byAction('assessment.shared').details).toMatchObject({
      learners: 1,
      emails: [learner.account.email],
    });
    expect(byAction('seat.invited').details).toMatchObject({ email: invitee });
    // what the portal says an entry with in the reader's language (issue 31), beside the English
    expect(byAction('roadmap.assigned').details).toMatchObject({
      roadmap: roadmap.name,
      email: learner.account.email,
    });
    const assessment = byAction('assessment.created').summary.match(/“(.*)”/)![1];
    expect(byAction('assessment.created').details).toMatchObject({ name: assessment });
    expect(byAction('assessment.question_added').details).toMatchObject({ name: assessment });
    await expectLogSaid(server.db, tenant.user._id, [
      'seat.added',
      'seat.invited',
      'roadmap.assigned',
      'assessment.created',
      'assessment.question_added',
      'assessment.shared',
    ]);
  });

  it('names the API key that made a change, and lets a key with integrations:manage read the log', async () => {
    const key = await server.post(
      '/api/tenant/api-keys',
      { name: 'HR sync', scopes: ['seats:write', 'integrations:manage'] },
      as(tenant),
    );
    const { _id: keyId, key: secret, prefix } = key.body.data;
    const other = await server.signedIn('USER', { profile: true });
    const byKey = { headers: { authorization: `Bearer ${secret}`, 'user-agent': 'hr-sync/2.3' } };
    expect(
      (await server.post('/api/tenant/users/add-user-v2', { email: other.account.email }, byKey)).status,
    ).toBe(200);
    const { entries } = await log({ actorKind: 'apiKey' }, byKey);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'seat.added',
      actor: { kind: 'apiKey', id: keyId, label: `HR sync (${prefix})` },
      userAgent: 'hr-sync/2.3',
    });
    const made = (await log({ action: 'apikey.created' })).entries;
    expect(made[0]).toMatchObject({ actor: { kind: 'person' }, target: { kind: 'apiKey', id: keyId } });
    expect(made[0]!.details).toMatchObject({ scopes: ['seats:write', 'integrations:manage'] });
    expect(JSON.stringify(made)).not.toContain(secret.slice(16));
    // a key without the scope
    const reader = await server.post(
      '/api/tenant/api-keys',
      { name: 'Reader', scopes: ['seats:read'] },
      as(tenant),
    );
    const refused = await server.get('/api/tenant/audit-log', {
      headers: { authorization: `Bearer ${reader.body.data.key}` },
    });
    expect(refused.status).toBe(403);
    // revoking is recorded too
    await server.request('DELETE', `/api/tenant/api-keys/${keyId}`, undefined, as(tenant));
    expect((await log({ action: 'apikey.revoked' })).entries[0]!.target.id).toBe(keyId);
  });

  it('filters by action or its group, actor and time; reads on page after page; shows another tenant nothing', async () => {
    const all = (await log()).entries;
    const seats = (await log({ action: 'seat' })).entries;
    expect(seats.length).toBeGreaterThan(3);
    expect(seats.every((e) => e.action.startsWith('seat.'))).toBe(true);
    expect((await log({ action: 'seat.added' })).entries.every((e) => e.action === 'seat.added')).toBe(true);
    expect(
      (await log({ actorId: tenant.user._id })).entries.every((e) => e.actor.id === tenant.user._id),
    ).toBe(true);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect((await log({ from: future })).entries).toEqual([]);
    expect((await log({ to: future })).entries).toHaveLength(all.length);
    // pages of 3 give every entry once, in the same order
    const paged: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page = await log({ limit: '3', ...(cursor ? { cursor } : {}) });
      paged.push(...page.entries);
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged.map((e) => e._id)).toEqual(all.map((e) => e._id));
    const bad = await server.get('/api/tenant/audit-log', {
      ...tenant.auth,
      query: { cursor: 'bm90LWEtY3Vyc29y' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('cursor');
    const stranger = await server.signedIn('TENANT', { profile: true });
    expect((await log({}, stranger.auth)).entries).toEqual([]);
    const learnerTry = await server.get('/api/tenant/audit-log', learner.auth);
    expect(learnerTry.status).toBe(403);
  });

  it('downloads the log as CSV (guarded cells) and NDJSON', async () => {
    const csv = await server.get('/api/tenant/export/audit-log', {
      ...tenant.auth,
      query: { action: 'seat' },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe(
      'Time,Action,Actor kind,Actor,Actor id,Target kind,Target id,Summary,IP address,User agent,Details',
    );
    expect(lines.length - 1).toBe((await log({ action: 'seat' })).entries.length);
    expect(csv.text).toContain(learner.account.email);
    const nd = await server.get('/api/tenant/export/audit-log', {
      ...tenant.auth,
      query: { format: 'ndjson' },
    });
    const rows = nd.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Entry);
    expect(rows.map((r) => r._id)).toEqual((await log()).entries.map((e) => e._id));
  });

  it('keeps no entry of a change that was rolled back', async () => {
    const someone = await server.signedIn('USER', { profile: true });
    const count = async () =>
      (await server.db.select().from(auditEvents).where(eq(auditEvents.tenantId, tenant.user._id))).length;
    const n = await count();
    const actor = actorOf({ kind: 'person', userId: tenant.user._id }, 'Audit Mentor');
    await expect(
      server.db.transaction(async (tx) => {
        await addLearner(
          tx,
          server.app.services.seatPlans,
          tenant.user._id,
          someone.account.email,
          new Date(),
          actor,
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await count()).toBe(n);
  });

  it('cannot be changed or deleted; the retention job deletes only entries past the setting, never younger than a year', async () => {
    const [one] = await server.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.tenantId, tenant.user._id))
      .limit(1);
    for (const attempt of [
      () =>
        server.db.update(auditEvents).set({ summary: 'nothing happened' }).where(eq(auditEvents.id, one!.id)),
      () => server.db.delete(auditEvents).where(eq(auditEvents.id, one!.id)),
      () => server.db.execute(sql`truncate audit_events`),
      // the retention's own switch does not let a young entry go
      () =>
        server.db.transaction(async (tx) => {
          await tx.execute(sql`select set_config('waymark.audit_retention', 'on', true)`);
          await tx.delete(auditEvents).where(eq(auditEvents.id, one!.id));
        }),
    ]) {
      await expect(attempt()).rejects.toThrow();
    }
    expect((await server.db.select().from(auditEvents).where(eq(auditEvents.id, one!.id)))[0]!.summary).toBe(
      one!.summary,
    );
    // entries 800, 500 and 300 days old
    const aged = async (days: number) => {
      const [row] = await server.db
        .insert(auditEvents)
        .values({
          tenantId: tenant.user._id,
          occurredAt: new Date(Date.now() - days * 86_400_000),
          actorKind: 'system',
          actorLabel: 'Waymark',
          action: 'seat.ended',
          targetKind: 'user',
          summary: `${days} days old`,
        })
        .returning({ id: auditEvents.id });
      return row!.id;
    };
    const ids = { 800: await aged(800), 500: await aged(500), 300: await aged(300) };
    const left = async () =>
      rowsOf<{ summary: string }>(
        await server.db.execute(
          sql`select summary from audit_events where id in (${sql.join(Object.values(ids), sql`, `)}) order by occurred_at`,
        ),
      ).map((r) => r.summary);
    expect(await pruneAudit(server.db, 600)).toBeGreaterThanOrEqual(1);
    expect(await left()).toEqual(['500 days old', '300 days old']);
    // a setting under a year keeps a year
    await pruneAudit(server.db, 30);
    expect(MIN_AUDIT_RETENTION_DAYS).toBe(365);
    expect(await left()).toEqual(['300 days old']);
    const still = await server.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenant.user._id), eq(auditEvents.action, 'seat.added')));
    expect(still.length).toBeGreaterThan(0);
  });
});
