/**
 * The events outbox (issue 29 item 1), against the real server: each event is written exactly once per
 * committed change — one row for each tenant holding the learner's seat, none for a learner no tenant holds
 * — and never for a change that was rolled back, whichever way the change is made (the evaluation in one
 * statement, the long way, the sweep; a roadmap assigned, claimed or completed; seats added, removed or taken
 * through an invitation; an award revoked; a learning day closed). Every payload is what the catalogue
 * (shared/contract/events.ts) describes, and an assessment's never carries the answers or the key.
 */
import { currentVersion, type EventType, payloadSchema } from '@shared/contract/events';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeLearningDays, lastClosable } from '../../activity/days-closed';
import { dailyTime } from '../../activity/tables';
import { linkHooks } from '../../assessments/completion';
import { evaluateLink } from '../../assessments/engine/evaluation';
import { findLink, sweepLinks } from '../../assessments/engine/link-life';
import { testLinks } from '../../assessments/tables';
import { assignToLearner, markRoadmapCompleted } from '../../catalogue/learning';
import { assignedRoadmaps } from '../../catalogue/tables';
import { tenantUsers } from '../../db/schema';
import { addLearner } from '../../tenant/seats';
import { expectLogSaid } from '../../test/audit-said';
import {
  assignTo,
  type Bank,
  calls,
  linkRowOf,
  resourceBody,
  rightAnswer,
  seedBank,
} from '../../test/fixtures/assessments';
import { type Harness, openHarness, type Person } from '../../test/harness';
import { emulatorApi } from '../../test/helper';
import { actorOf } from './principal';
import { events } from './tables';

type Row = typeof events.$inferSelect;

let h: Harness;
let bank: Bank;
let api: ReturnType<typeof calls>;
let mentor: Person;
let otherMentor: Person;
let asha: Person;
/** A learner no tenant holds. */
let solo: Person;
const actor = () => actorOf({ kind: 'person', userId: mentor.id }, 'Mentor');

/** Every event about `learner` of `type`, oldest first, each checked against the catalogue. */
async function eventsOf(learner: string, type: EventType): Promise<Row[]> {
  const rows = await h.db
    .select()
    .from(events)
    .where(and(eq(events.subjectUserId, learner), eq(events.type, type)))
    .orderBy(events.occurredAt, events.id);
  for (const row of rows) {
    expect(row.version, type).toBe(currentVersion(type));
    const parsed = payloadSchema(type, row.version)!.safeParse(row.payload);
    expect(parsed.success, `${type}: ${parsed.error?.message}`).toBe(true);
    // an assessment's event never carries the answers, the options or the key
    expect(JSON.stringify(row.payload)).not.toMatch(/isCorrect|"options"|"answers?"/);
  }
  return rows;
}
const tenantsOf = (rows: Row[]) => rows.map((r) => r.tenantId).sort();
const both = () => [mentor.id, otherMentor.id].sort();

async function seat(tenant: Person, learner: Person) {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/tenant/users/add-user-v2',
    headers: tenant.headers,
    payload: { email: learner.email },
  });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  h = await openHarness();
  bank = await seedBank(h.db);
  api = calls(h.app);
  mentor = await h.tenant('Mira Mentor');
  otherMentor = await h.tenant('Otto Other');
  asha = await h.learner('Asha Learner');
  solo = await h.learner('Solo Learner');
  // asha holds a seat of each mentor
  await seat(mentor, asha);
  await seat(otherMentor, asha);
}, 120_000);

afterAll(() => h?.close());

describe('events, once per committed change', () => {
  it('seat.added: one for the tenant that added the learner, via ADDED', async () => {
    const rows = await eventsOf(asha.id, 'seat.added');
    expect(tenantsOf(rows)).toEqual(both());
    expect(rows[0]!.payload).toMatchObject({ learner: { id: asha.id, email: asha.email }, via: 'ADDED' });
  });

  it('none for a change rolled back after its event was written', async () => {
    const carl = await h.learner('Carl Rolled');
    await expect(
      h.db.transaction(async (tx) => {
        await addLearner(tx, h.app.services.seatPlans, mentor.id, carl.email, new Date(), actor());
        expect((await tx.select().from(events).where(eq(events.subjectUserId, carl.id))).length).toBe(1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await eventsOf(carl.id, 'seat.added')).toEqual([]);
    expect((await h.db.select().from(tenantUsers).where(eq(tenantUsers.learnerId, carl.id))).length).toBe(0);
  });

  it('roadmap.assigned: made for the learner, or claimed; to every tenant holding the seat, none for a learner of none', async () => {
    const ar = await assignTo(h.db, asha.id, bank);
    const rows = await eventsOf(asha.id, 'roadmap.assigned');
    expect(tenantsOf(rows)).toEqual(both());
    expect(rows[0]!.payload).toMatchObject({
      assignedRoadmapId: ar,
      source: 'SELF',
      roadmap: { id: bank.roadmapId },
    });
    await assignTo(h.db, solo.id, bank);
    expect(await eventsOf(solo.id, 'roadmap.assigned')).toEqual([]);
    // a copy selected before sign-in, claimed: assigned when claimed
    const bo = await h.learner('Bo Claimer');
    await seat(mentor, bo);
    const [unclaimed] = await h.db
      .insert(assignedRoadmaps)
      .values({ userId: null, roadmapId: bank.roadmapId, source: 'PUBLIC' })
      .returning();
    expect(await eventsOf(bo.id, 'roadmap.assigned')).toEqual([]);
    await h.db.update(assignedRoadmaps).set({ userId: bo.id }).where(eq(assignedRoadmaps.id, unclaimed!.id));
    expect(tenantsOf(await eventsOf(bo.id, 'roadmap.assigned'))).toEqual([mentor.id]);
    // assigning again (the same copy back) is no change
    await assignToLearner(h.db, { userId: bo.id, roadmapId: bank.roadmapId, source: 'TENANT' }).catch(
      () => undefined,
    );
    expect((await eventsOf(bo.id, 'roadmap.assigned')).length).toBe(1);
  });

  it('assessment.evaluated and award.issued: the evaluation in one statement, once for each tenant', async () => {
    const [ar] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, asha.id));
    const linkId = await api.createOk(asha, resourceBody(bank, ar!.id, 0));
    const result = await api.take(linkId, bank, 'right', asha);
    expect(result.status).toBe('GENERATE_CERTIFICATE');
    const evaluated = (await eventsOf(asha.id, 'assessment.evaluated')).filter(
      (r) => r.payload.linkId === linkId,
    );
    expect(tenantsOf(evaluated)).toEqual(both());
    expect(evaluated[0]!.payload).toMatchObject({
      linkId,
      testType: 'RESOURCE',
      level: 'resource',
      passed: true,
      percentage: 100,
      learner: { id: asha.id },
    });
    const issued = (await eventsOf(asha.id, 'award.issued')).filter((r) => r.payload.awardId === linkId);
    expect(tenantsOf(issued)).toEqual(both());
    expect(issued[0]!.payload).toMatchObject({ kind: 'feather', level: 'resource' });
    // evaluating again gives back the result, and no event
    expect((await api.evaluate(linkId, [], asha)).statusCode).toBe(200);
    expect(
      (await eventsOf(asha.id, 'assessment.evaluated')).filter((r) => r.payload.linkId === linkId),
    ).toHaveLength(2);
  });

  it('a failed test: assessment.evaluated with passed false, and no award', async () => {
    const [ar] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, asha.id));
    const linkId = await api.createOk(asha, resourceBody(bank, ar!.id, 1));
    await api.take(linkId, bank, 'wrong', asha);
    const evaluated = (await eventsOf(asha.id, 'assessment.evaluated')).filter(
      (r) => r.payload.linkId === linkId,
    );
    expect(evaluated.map((r) => r.payload.passed)).toEqual([false, false]);
    expect((await eventsOf(asha.id, 'award.issued')).filter((r) => r.payload.awardId === linkId)).toEqual([]);
  });

  it('the long way and the sweep write them once too; an evaluation rolled back writes none', async () => {
    const [ar] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, asha.id));
    const count = async (linkId: string) =>
      (await eventsOf(asha.id, 'assessment.evaluated')).filter((r) => r.payload.linkId === linkId).length;
    // the long way: a sheet with one answer of several
    const partial = await api.createOk(asha, resourceBody(bank, ar!.id, 2));
    await api.start(partial, asha);
    const [q] = await api.questionsOf(partial);
    expect((await api.evaluate(partial, [rightAnswer(bank.questions.get(q!._id)!)], asha)).statusCode).toBe(
      200,
    );
    expect(await count(partial)).toBe(2);
    // rolled back: evaluated inside a transaction that fails
    const undone = await api.createOk(asha, resourceBody(bank, ar!.id, 3));
    await api.start(undone, asha);
    const link = (await findLink(h.db, undone))!;
    await expect(
      h.db.transaction(async (tx) => {
        await evaluateLink(tx, link, [], new Date(), linkHooks);
        expect(
          (await tx.select().from(events).where(sql`${events.payload}->>'linkId' = ${undone}`)).length,
        ).toBe(2);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await count(undone)).toBe(0);
    expect((await linkRowOf(h.db, undone)).isCompleted).toBe(false);
    // the sweep, twice, and a second evaluation at the same time: once
    await h.db
      .update(testLinks)
      .set({ deadlineAt: new Date(Date.now() - 60_000) })
      .where(eq(testLinks.linkId, undone));
    await Promise.all([
      sweepLinks(h.db, new Date(), linkHooks),
      evaluateLink(h.db, (await findLink(h.db, undone))!, [], new Date(), linkHooks),
    ]);
    await sweepLinks(h.db, new Date(), linkHooks);
    expect(await count(undone)).toBe(2);
  });

  it('roadmap.completed: the final test earns the certificate, in its one statement', async () => {
    const cleo = await h.learner('Cleo Finisher');
    await seat(mentor, cleo);
    const ar = await assignTo(h.db, cleo.id, bank);
    const linkId = await api.createOk(cleo, { type: 'ROADMAP', assignedRoadmapId: ar });
    const result = await api.take(linkId, bank, 'right', cleo);
    expect(result.status).toBe('GENERATE_CERTIFICATE');
    const completed = await eventsOf(cleo.id, 'roadmap.completed');
    expect(tenantsOf(completed)).toEqual([mentor.id]);
    expect(completed[0]!.payload).toMatchObject({ assignedRoadmapId: ar, finalLinkId: linkId });
    expect((await eventsOf(cleo.id, 'award.issued'))[0]!.payload).toMatchObject({
      kind: 'certificate',
      awardId: linkId,
    });
    // the long way's completion of the same copy (evaluateLink's onEarned) changes nothing more
    await markRoadmapCompleted(h.db, ar, linkId);
    expect(await eventsOf(cleo.id, 'roadmap.completed')).toHaveLength(1);
  });

  it('nothing for a learner no tenant holds', async () => {
    const [ar] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, solo.id));
    const linkId = await api.createOk(solo, resourceBody(bank, ar!.id, 0));
    await api.take(linkId, bank, 'right', solo);
    const mine = await h.db.select().from(events).where(eq(events.subjectUserId, solo.id));
    expect(mine).toEqual([]);
  });

  it('seat.removed: once, with when the seat stays readable until', async () => {
    const dee = await h.learner('Dee Leaving');
    await seat(mentor, dee);
    const res = await h.app.inject({
      method: 'DELETE',
      url: `/api/tenant/users/remove-user/${dee.id}`,
      headers: mentor.headers,
    });
    expect(res.statusCode).toBe(200);
    await h.app.inject({
      method: 'DELETE',
      url: `/api/tenant/users/remove-user/${dee.id}`,
      headers: mentor.headers,
    });
    const rows = await eventsOf(dee.id, 'seat.removed');
    expect(tenantsOf(rows)).toEqual([mentor.id]);
    expect(rows[0]!.payload).toMatchObject({ learner: { id: dee.id }, accessUntil: null });
  });

  it('seat.added via INVITATION when the invitee signs up, with the invitee in the activity log', async () => {
    const email = `invitee-${Date.now()}@example.com`;
    const invited = await h.app.inject({
      method: 'POST',
      url: '/api/tenant/users/invite-user',
      headers: mentor.headers,
      payload: { email },
    });
    expect(invited.statusCode).toBe(200);
    // the sign-up with the tenant's id (the invitation link's)
    const emulator = emulatorApi();
    const account = await emulator.createAccount({ verified: true, email });
    const token = await emulator.idToken(account);
    const signUp = await h.app.inject({
      method: 'POST',
      url: '/api/login/sign-in-with-firebase',
      payload: { token, role: 'USER', tenantId: mentor.id },
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    const learnerId = signUp.json().data.user._id as string;
    const rows = await eventsOf(learnerId, 'seat.added');
    expect(tenantsOf(rows)).toEqual([mentor.id]);
    expect(rows[0]!.payload).toMatchObject({ via: 'INVITATION', learner: { email } });
    const log = await h.app.inject({
      method: 'GET',
      url: '/api/tenant/audit-log?action=seat.added',
      headers: mentor.headers,
    });
    expect(log.json().data.entries[0]).toMatchObject({
      actor: { kind: 'person', id: learnerId, label: email },
      summary: `${email} accepted the invitation and took a seat`,
    });
  });

  it('award.revoked: once, when the mentor revokes it', async () => {
    const [issued] = await eventsOf(asha.id, 'award.issued');
    const awardId = issued!.payload.awardId as string;
    // the mentor assigned the roadmap the test was on
    await h.db
      .update(assignedRoadmaps)
      .set({ source: 'TENANT', assignedBy: mentor.id })
      .where(eq(assignedRoadmaps.id, issued!.payload.assignedRoadmapId as string));
    const revoke = () =>
      h.app.inject({
        method: 'POST',
        url: `/api/credentials/${awardId}/revoke`,
        headers: mentor.headers,
        payload: { reason: 'Shared answers.' },
      });
    expect((await revoke()).statusCode).toBe(201);
    expect((await revoke()).statusCode).toBe(200);
    const rows = (await eventsOf(asha.id, 'award.revoked')).filter((r) => r.payload.awardId === awardId);
    expect(tenantsOf(rows)).toEqual(both());
    expect(rows[0]!.payload).toMatchObject({
      kind: 'feather',
      reason: 'Shared answers.',
      revokedAs: 'MENTOR',
    });
    const log = await h.app.inject({
      method: 'GET',
      url: '/api/tenant/audit-log?action=award',
      headers: mentor.headers,
    });
    expect(log.json().data.entries).toHaveLength(1);
    // said again in the reader's language from its details (issue 31)
    await expectLogSaid(h.db, mentor.id, ['award.revoked']);
  });

  it('learning.day.closed: a finished day once, per roadmap, only to the tenants of its learner, however many run it', async () => {
    const now = new Date();
    const day = lastClosable(now);
    const [ar] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, asha.id));
    await h.db.insert(dailyTime).values([
      { userId: asha.id, day, resourceId: bank.resourceIds[0], ms: 30 * 60_000 },
      { userId: asha.id, day, resourceId: bank.resourceIds[2], ms: 15 * 60_000 + 30_000 },
      { userId: solo.id, day, resourceId: bank.resourceIds[0], ms: 10 * 60_000 },
    ]);
    const runs = await Promise.allSettled([closeLearningDays(h.db, now), closeLearningDays(h.db, now)]);
    expect(runs.every((r) => r.status === 'fulfilled')).toBe(true);
    await closeLearningDays(h.db, now);
    const rows = await eventsOf(asha.id, 'learning.day.closed');
    expect(tenantsOf(rows)).toEqual(both());
    expect(rows[0]!.payload).toEqual({
      day,
      learner: { id: asha.id, email: asha.email, name: 'Asha Learner' },
      minutes: 45.5,
      roadmaps: [
        { assignedRoadmapId: ar!.id, roadmapId: bank.roadmapId, name: expect.any(String), minutes: 45.5 },
      ],
    });
    expect(await eventsOf(solo.id, 'learning.day.closed')).toEqual([]);
    // the next day is not closed before it has ended
    const written = await h.db
      .select()
      .from(events)
      .where(and(eq(events.type, 'learning.day.closed'), inArray(events.tenantId, both())));
    expect(written.every((r) => r.payload.day === day)).toBe(true);
  });
});
