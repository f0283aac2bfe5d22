/**
 * The tenant calls through the HTTP API, with people signed in through the Auth emulator: who may call
 * (signed out 401, a learner 403, another tenant's learner refused, malformed ids 400), adding learners by
 * e-mail with its answers (11000, 'Email Not Found' with isAllowToInvite, the 10 free seats), invitations
 * and sign-up with the tenant's id, removal, and a learner's analytics, tests and roadmaps — which must
 * read the same figures as the learner's own calls.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { allCalls } from '@shared/contract/registry';
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestHeartbeats } from '../activity/ingest';
import { dailyTime } from '../activity/tables';
import { offerCodes } from '../billing/tables';
import { assignedRoadmaps, resources, roadmapPrerequisites } from '../catalogue/tables';
import { tenantUsers, users } from '../db/schema';
import { DEMO_OFFER_CODE, seedDemoTenant } from '../demo/tenant';
import { assignTo, type Bank, calls, seedBank } from '../test/fixtures/assessments';
import { authoringApi } from '../test/fixtures/authoring';
import type { Person } from '../test/harness';
import { type Json, setupServer } from '../test/helper';
import { tenantInvitations } from './tables';

const server = setupServer();
const NIL = '00000000-0000-4000-8000-000000000000';
const DAY = 86_400;

/** A learner account that never signs in (seat filler). */
async function quietLearner(name = 'Quiet Learner'): Promise<{ id: string; email: string }> {
  const email = `quiet-${randomBytes(5).toString('hex')}@example.com`;
  const [u] = await server.db
    .insert(users)
    .values({ firebaseUid: randomUUID(), email, role: 'USER', name, emailVerified: true })
    .returning({ id: users.id });
  return { id: u!.id, email };
}

/** A signed-in person with this name. */
const { person } = authoringApi(server);

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: Person, payload?: object) =>
  server.app.inject({ method, url: `/api${url}`, headers: who?.headers, payload });
const json = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  who?: Person,
  payload?: object,
) => {
  const res = await call(method, url, who, payload);
  return { status: res.statusCode, body: res.json() as Json };
};

describe('tenant calls', () => {
  let mentor: Person;
  let rival: Person;
  let asha: Person;
  let ravi: Person;
  let bank: Bank;
  let ashaRoadmap: string;

  beforeAll(async () => {
    mentor = await person('TENANT', 'Mira Mentor');
    rival = await person('TENANT', 'Rex Rival');
    asha = await person('USER', 'Asha Learner');
    ravi = await person('USER', 'Ravi Learner');
    bank = await seedBank(server.db);
    ashaRoadmap = await assignTo(server.db, asha.id, bank);
    await assignTo(server.db, ravi.id, bank);
    // Asha is Mira's, Ravi is Rex's
    expect((await json('POST', '/tenant/users/add-user-v2', mentor, { email: asha.email })).status).toBe(200);
    expect((await json('POST', '/tenant/users/add-user', rival, { email: ravi.email })).status).toBe(200);
  }, 120_000);

  describe('who may call', () => {
    const tenantCalls = allCalls().filter(({ call: c }) => c.path.startsWith('/tenant/'));
    const fill = (path: string, value: (name: string) => string) =>
      path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
    const validId = (name: string) => (name === 'linkId' ? 'abcdefghij12' : NIL);

    it('declares every tenant call for TENANT callers only', () => {
      expect(tenantCalls.length).toBeGreaterThanOrEqual(30);
      for (const { name, call: c } of tenantCalls) expect(c.access, name).toEqual(['TENANT']);
    });

    it('refuses a signed-out caller (401) and a learner (403) on every tenant call', async () => {
      for (const { call: c } of tenantCalls) {
        const url = fill(c.path, (n) =>
          c.path.includes('checkout-session') ? 'cs_test_abcdefghij' : validId(n),
        );
        const signedOut = await call(c.method as 'GET', url, undefined, c.method === 'GET' ? undefined : {});
        expect(signedOut.statusCode, `${c.method} ${c.path}`).toBe(401);
        const learner = await call(c.method as 'GET', url, asha, c.method === 'GET' ? undefined : {});
        expect(learner.statusCode, `${c.method} ${c.path}`).toBe(403);
        expect(learner.json().message).toBe('Not permitted');
      }
    });

    it('answers a malformed id with 400 naming the field, never 500', async () => {
      for (const { call: c } of tenantCalls.filter(({ call: c }) => c.path.includes('{'))) {
        const names = [...c.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        for (const bad of names) {
          const url = fill(c.path, (n) =>
            n === bad ? '42' : c.path.includes('checkout-session') ? 'cs_test_abcdefghij' : validId(n),
          );
          const res = await call(c.method as 'GET', url, mentor, c.method === 'GET' ? undefined : {});
          expect(res.statusCode, `${c.method} ${url}`).toBe(400);
          expect(res.json().field, `${c.method} ${url}`).toBe(bad);
        }
      }
      const badBody = await json('POST', '/tenant/roadmap/assign-roadmap', mentor, {
        roadmapId: '42',
        userId: asha.id,
      });
      expect(badBody.status).toBe(400);
      expect(badBody.body.field).toBe('roadmapId');
      const badQuery = await json(
        'GET',
        `/tenant/dashboard/get-tenant-user-awards-by-type?certificateType=BADGE`,
        mentor,
      );
      expect(badQuery.status).toBe(400);
      expect(badQuery.body.field).toBe('certificateType');
      const badRange = await json(
        'GET',
        `/tenant/dashboard/time-spent-by-user-daywise/${asha.id}?startTime=100&endTime=50`,
        mentor,
      );
      expect(badRange.status).toBe(400);
      expect(badRange.body.field).toBe('endTime');
    });

    it("refuses another tenant's learner on every learner call, with no data", async () => {
      const range = `startTime=${Math.floor(Date.now() / 1000) - 7 * DAY}&endTime=${Math.floor(Date.now() / 1000)}`;
      const urls = [
        `/tenant/users/user-info/${ravi.id}`,
        `/tenant/dashboard/user-achievements/${ravi.id}?${range}`,
        `/tenant/testlink/list/${ravi.id}?${range}`,
        `/tenant/dashboard/time-spent-by-user-daywise/${ravi.id}?${range}`,
        `/tenant/dashboard/time-spent-on-resource-by-user/${ravi.id}?${range}&skip=1&limit=5`,
        `/tenant/dashboard/get-resource/${ravi.id}/${bank.resourceIds[0]}`,
        `/tenant/testlink/user/${ravi.id}/testlink/abcdefghijkl`,
        `/tenant/roadmap/assigned-roadmaps/${ravi.id}`,
        `/tenant/roadmap/${bank.roadmapId}/check-roadmap-assigned-to-user/${ravi.id}`,
        `/tenant/roadmap/assigned-roadmap/${ravi.id}/${NIL}`,
      ];
      for (const url of urls) {
        const res = await json('GET', url, mentor);
        expect(res.status, url).toBe(404);
        expect(res.body.data, url).toBeUndefined();
        expect(res.body.message, url).toBe('This learner is not one of your users.');
      }
      const assign = await json('POST', '/tenant/roadmap/assign-roadmap', mentor, {
        roadmapId: bank.roadmapId,
        userId: ravi.id,
      });
      expect(assign.status).toBe(404);
      const remove = await json('DELETE', `/tenant/users/remove-user/${ravi.id}`, mentor);
      expect(remove.status).toBe(404);
      // Rex still has Ravi
      expect((await json('GET', `/tenant/users/user-info/${ravi.id}`, rival)).status).toBe(200);
      // and a learner of one's own whose test link belongs to someone else is refused too
      const api = calls(server.app);
      const raviLink = await api.createOk(ravi, {
        type: 'RESOURCE',
        assignedRoadmapId: await roadmapOf(ravi.id),
        sectionId: bank.sectionIds[0],
        resourceId: bank.resourceIds[0],
      });
      const crossed = await json('GET', `/tenant/testlink/user/${asha.id}/testlink/${raviLink}`, mentor);
      expect(crossed.status).toBe(404);
      expect(crossed.body.data).toBeUndefined();
    });
  });

  async function roadmapOf(userId: string) {
    const [row] = await server.db
      .select({ id: assignedRoadmaps.id })
      .from(assignedRoadmaps)
      .where(eq(assignedRoadmaps.userId, userId))
      .limit(1);
    return row!.id;
  }

  describe('adding learners', () => {
    it('checks an address before adding: unknown, a mentor, a learner, one already added', async () => {
      const unknown = await json('POST', '/tenant/users/before-check-add-user', mentor, {
        email: 'nobody-here@example.com',
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({
        message: 'Email Not Found',
        isAllowToInvite: true,
        field: 'email',
      });
      const tenant = await json('POST', '/tenant/users/before-check-add-user', mentor, {
        email: rival.email,
      });
      expect(tenant.status).toBe(404);
      expect(tenant.body.isAllowToInvite).toBe(false);
      const fresh = await quietLearner('Fresh Learner');
      const ok = await json('POST', '/tenant/users/before-check-add-user', mentor, {
        email: fresh.email.toUpperCase(),
      });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ isExist: true, learnerId: fresh.id, isAccessToAddUser: true });
      const dup = await json('POST', '/tenant/users/before-check-add-user', mentor, { email: asha.email });
      expect(dup.status).toBe(409);
      expect(dup.body).toMatchObject({
        code: 11000,
        message: 'Email Already Assigned For You',
        field: 'email',
      });
      // the check writes nothing
      const [seat] = await server.db
        .select()
        .from(tenantUsers)
        .where(and(eq(tenantUsers.tenantId, mentor.id), eq(tenantUsers.learnerId, fresh.id)));
      expect(seat).toBeUndefined();
    });

    it('checks a roster at once, saying of each address what the single check says, with the seat counts', async () => {
      const fresh = await quietLearner('Roster Learner');
      const invitee = `invited-${randomBytes(4).toString('hex')}@example.com`;
      expect((await json('POST', '/tenant/users/invite-user', mentor, { email: invitee })).status).toBe(200);
      const emails = [
        fresh.email.toUpperCase(),
        asha.email,
        rival.email,
        'nobody-at-all@example.com',
        invitee,
        asha.email,
      ];
      const res = await json('POST', '/tenant/users/before-check-add-users', mentor, { emails });
      expect(res.status).toBe(200);
      expect(res.body.data.results).toEqual([
        {
          email: fresh.email,
          outcome: 'ADD',
          learnerId: fresh.id,
          name: 'Roster Learner',
          invitable: false,
          invited: false,
        },
        {
          email: asha.email,
          outcome: 'ALREADY_ASSIGNED',
          learnerId: asha.id,
          name: 'Asha Learner',
          invitable: false,
          invited: false,
        },
        {
          email: rival.email,
          outcome: 'EMAIL_NOT_FOUND',
          learnerId: null,
          name: null,
          invitable: false,
          invited: false,
        },
        {
          email: 'nobody-at-all@example.com',
          outcome: 'EMAIL_NOT_FOUND',
          learnerId: null,
          name: null,
          invitable: true,
          invited: false,
        },
        {
          email: invitee,
          outcome: 'EMAIL_NOT_FOUND',
          learnerId: null,
          name: null,
          invitable: true,
          invited: true,
        },
        expect.objectContaining({ email: asha.email, outcome: 'ALREADY_ASSIGNED' }),
      ]);
      // each address as the single check answers it
      const single = { 200: 'ADD', 409: 'ALREADY_ASSIGNED', 404: 'EMAIL_NOT_FOUND' } as Record<
        number,
        string
      >;
      for (const entry of res.body.data.results as Json[]) {
        const one = await json('POST', '/tenant/users/before-check-add-user', mentor, { email: entry.email });
        expect(single[one.status], entry.email).toBe(entry.outcome);
      }
      const info = (await json('GET', '/tenant/subscription/info', mentor)).body.data;
      expect(res.body.data.seats).toEqual({
        allowance: info.totalQuantity,
        active: info.seatCount,
        pending: info.pendingInvitations,
      });
      // it writes nothing
      const seats = await server.db
        .select()
        .from(tenantUsers)
        .where(and(eq(tenantUsers.tenantId, mentor.id), eq(tenantUsers.learnerId, fresh.id)));
      expect(seats).toEqual([]);
      await server.db.delete(tenantInvitations).where(eq(tenantInvitations.email, invitee));

      const bad = await json('POST', '/tenant/users/before-check-add-users', mentor, {
        emails: [fresh.email, 'not-an-address'],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('emails.1');
      const tooMany = await json('POST', '/tenant/users/before-check-add-users', mentor, {
        emails: Array.from({ length: 1001 }, (_, i) => `x${i}@example.com`),
      });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.field).toBe('emails');
    });

    it('validates the e-mail with the form messages', async () => {
      const missing = await json('POST', '/tenant/users/add-user-v2', mentor, {});
      expect(missing.status).toBe(400);
      expect(missing.body.fields.email).toBe('Required');
      const invalid = await json('POST', '/tenant/users/add-user-v2', mentor, { email: 'not-an-address' });
      expect(invalid.status).toBe(400);
      expect(invalid.body.fields.email).toBe('Invalid email address');
    });

    it('adds a learner at once while a free seat is left, and refuses a duplicate with 11000', async () => {
      const fresh = await quietLearner('Added Learner');
      const added = await json('POST', '/tenant/users/add-user', mentor, { email: fresh.email });
      expect(added.status).toBe(200);
      expect(added.body.message).toBe('User added');
      expect(added.body.data).toMatchObject({ outcome: 'ADDED', learnerId: fresh.id });
      expect(added.body.data.user.learnerId.email).toBe(fresh.email);
      const again = await json('POST', '/tenant/users/add-user-v2', mentor, { email: fresh.email });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 11000, message: 'Email Already Assigned For You' });
      const list = await json('GET', '/tenant/users/list?limit=15', mentor);
      expect(list.body.data.tenantUserList.map((e: Json) => e.learnerId._id)).toContain(fresh.id);
      const search = await json(
        'GET',
        `/tenant/users/search-list?searchText=${encodeURIComponent('added learner')}`,
        mentor,
      );
      expect(search.body.data).toEqual([{ _id: fresh.id, email: fresh.email, name: 'Added Learner' }]);
    });

    it('keeps 10 seats free; the 11th learner is "not yet subscribed" and nothing is written', async () => {
      const tenant = await person('TENANT', 'Tara Ten');
      for (let i = 0; i < 10; i++) {
        const l = await quietLearner(`Seat ${i}`);
        const res = await json('POST', '/tenant/users/add-user-v2', tenant, { email: l.email });
        expect(res.body.data.outcome, `seat ${i}`).toBe('ADDED');
      }
      const eleventh = await quietLearner('Eleventh');
      const res = await json('POST', '/tenant/users/add-user-v2', tenant, { email: eleventh.email });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('not yet subscribed');
      expect(res.body.data).toMatchObject({
        outcome: 'NOT_YET_SUBSCRIBED',
        user: null,
        quantity: 11,
        learnerId: eleventh.id,
      });
      const seats = await server.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, tenant.id));
      expect(seats).toHaveLength(10);
      // no seat is free for an invitation either
      const unknown = await json('POST', '/tenant/users/before-check-add-user', tenant, {
        email: 'someone-new@example.com',
      });
      expect(unknown.body.isAllowToInvite).toBe(false);
      const invite = await json('POST', '/tenant/users/invite-user', tenant, {
        email: 'someone-new@example.com',
      });
      expect(invite.status).toBe(400);
      expect(invite.body.field).toBe('email');
      const info = await json('GET', '/tenant/subscription/info', tenant);
      expect(info.body.data).toMatchObject({
        isSubscribed: false,
        isAccessToAddUser: false,
        seatCount: 10,
        totalQuantity: 10,
      });
    });

    it('removes a seat of an unsubscribed tenant at once', async () => {
      const l = await quietLearner('Short Stay');
      await json('POST', '/tenant/users/add-user-v2', mentor, { email: l.email });
      const res = await json('DELETE', `/tenant/users/remove-user/${l.id}`, mentor);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ removed: true, isDisabled: false, accessUntil: null });
      expect((await json('GET', `/tenant/users/user-info/${l.id}`, mentor)).status).toBe(404);
      expect((await json('DELETE', `/tenant/users/remove-user/${l.id}`, mentor)).status).toBe(404);
    });
  });

  describe('invitations', () => {
    it('records an invitation, validates its link, and makes the invitee a seat when they sign up with the tenant id', async () => {
      const email = `invitee-${randomBytes(4).toString('hex')}@example.com`;
      const res = await json('POST', '/tenant/users/invite-user', mentor, { email: email.toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ email, status: 'PENDING', tenantId: mentor.id });
      const link = new URL(res.body.data.continueUrl);
      expect(link.searchParams.get('tenantId')).toBe(mentor.id);
      expect(link.searchParams.get('email')).toBe(email);
      const check = await json(
        'GET',
        `/invitation/check?tenantId=${mentor.id}&email=${encodeURIComponent(email)}`,
      );
      expect(check.body.data).toMatchObject({ valid: true, tenantName: 'Mira Mentor' });
      const wrong = await json(
        'GET',
        `/invitation/check?tenantId=${rival.id}&email=${encodeURIComponent(email)}`,
      );
      expect(wrong.body.data).toEqual({ valid: false, tenantName: null, expiresAt: null });
      const info = await json('GET', '/tenant/subscription/info', mentor);
      expect(info.body.data.pendingInvitations).toBeGreaterThanOrEqual(1);

      // the invitee signs up through the e-mail link: the portal sends role USER and the tenant's id
      const account = await server.emulator.createAccount({ email, verified: true });
      const signUp = await server.signIn(account, { role: 'USER', tenantId: mentor.id });
      expect(signUp.status).toBe(200);
      const learnerId = signUp.body.data.user._id as string;
      const seat = await json('GET', `/tenant/users/user-info/${learnerId}`, mentor);
      expect(seat.status).toBe(200);
      expect(seat.body.data).toMatchObject({ email, isDisabled: false });
      const [inv] = await server.db
        .select()
        .from(tenantInvitations)
        .where(and(eq(tenantInvitations.tenantId, mentor.id), eq(tenantInvitations.email, email)));
      expect(inv).toMatchObject({ status: 'ACCEPTED', learnerId });
      const after = await json(
        'GET',
        `/invitation/check?tenantId=${mentor.id}&email=${encodeURIComponent(email)}`,
      );
      expect(after.body.data.valid).toBe(false);
      const listed = await json('GET', '/tenant/users/invitations', mentor);
      expect(listed.body.data.find((i: Json) => i.email === email).status).toBe('ACCEPTED');
    });

    it('gives no seat to someone who signs up with a tenant id but was not invited', async () => {
      const account = await server.emulator.createAccount({ verified: true });
      const signUp = await server.signIn(account, { role: 'USER', tenantId: mentor.id });
      expect(signUp.status).toBe(200);
      const seat = await json('GET', `/tenant/users/user-info/${signUp.body.data.user._id}`, mentor);
      expect(seat.status).toBe(404);
    });

    it('refuses to invite an address that has an account, and cancels an invitation', async () => {
      const taken = await json('POST', '/tenant/users/invite-user', mentor, { email: ravi.email });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe(11000);
      const email = `later-${randomBytes(4).toString('hex')}@example.com`;
      const made = await json('POST', '/tenant/users/invite-user', mentor, { email });
      const cancelled = await json('DELETE', `/tenant/users/invitations/${made.body.data._id}`, mentor);
      expect(cancelled.body.data.status).toBe('CANCELED');
      expect((await json('DELETE', `/tenant/users/invitations/${made.body.data._id}`, rival)).status).toBe(
        404,
      );
      const check = await json(
        'GET',
        `/invitation/check?tenantId=${mentor.id}&email=${encodeURIComponent(email)}`,
      );
      expect(check.body.data.valid).toBe(false);
    });
  });

  describe("a learner's analytics, tests and roadmaps", () => {
    const now = () => Math.floor(Date.now() / 1000);
    const yesterdayEnd = () => Math.floor(now() / DAY) * DAY - 1;
    const range = () => `startTime=${yesterdayEnd() + 1 - 7 * DAY}&endTime=${yesterdayEnd()}`;
    let feather: string;

    beforeAll(async () => {
      // Asha learns two resources on two days (heartbeats through the ingestion the extension uses)
      const urls = await server.db.select({ id: resources.id, url: resources.url }).from(resources);
      const urlOf = new Map(urls.map((r) => [r.id, r.url]));
      const beats = [];
      for (const [dayBack, resourceId, minutes, hour] of [
        [2, bank.resourceIds[0], 20, 10],
        [3, bank.resourceIds[1], 10, 10],
        [3, bank.resourceIds[0], 6, 14],
      ] as const) {
        const start = (Math.floor(now() / DAY) - dayBack) * DAY * 1000 + hour * 3600_000;
        for (let i = 0; i <= minutes * 2; i++) {
          beats.push({
            id: `hb-${resourceId.slice(0, 8)}-${dayBack}-${i}`,
            resourceId,
            url: urlOf.get(resourceId)!,
            time: start + i * 30_000,
            tabActive: true,
            audible: false,
          });
        }
      }
      for (let i = 0; i < beats.length; i += 100)
        await ingestHeartbeats(server.db, asha.id, beats.slice(i, i + 100));
      // a feather earned, and a section test without enough marks
      const api = calls(server.app);
      feather = await api.createOk(asha, {
        type: 'RESOURCE',
        assignedRoadmapId: ashaRoadmap,
        sectionId: bank.sectionIds[0],
        resourceId: bank.resourceIds[0],
      });
      await api.take(feather, bank, 'right', asha);
      const section = await api.createOk(asha, {
        type: 'SECTION',
        assignedRoadmapId: ashaRoadmap,
        sectionId: bank.sectionIds[0],
      });
      await api.take(section, bank, 'wrong', asha);
    }, 120_000);

    it("reads the same learning time as the learner's own dashboard", async () => {
      const mine = await json('GET', `/reports/dashboard/time-spent-by-user-daywise?${range()}`, asha);
      const theirs = await json(
        'GET',
        `/tenant/dashboard/time-spent-by-user-daywise/${asha.id}?${range()}`,
        mentor,
      );
      expect(theirs.status).toBe(200);
      expect(theirs.body.data).toEqual(mine.body.data);
      expect(theirs.body.data.reduce((s: number, d: Json) => s + d.timespent, 0)).toBeGreaterThan(35 * 60);
      const page = `${range()}&skip=1&limit=5`;
      const mineR = await json('GET', `/reports/dashboard/time-spent-on-resource-by-user?${page}`, asha);
      const theirsR = await json(
        'GET',
        `/tenant/dashboard/time-spent-on-resource-by-user/${asha.id}?${page}`,
        mentor,
      );
      expect(theirsR.body.data).toEqual(mineR.body.data);
      expect(theirsR.body.data.totalCount).toBe(2);
    });

    it('lists the tests, their achievements and the assessments of a resource', async () => {
      const list = await json(
        'GET',
        `/tenant/testlink/list/${asha.id}?startTime=${now() - DAY}&endTime=${now() + 60}`,
        mentor,
      );
      expect(list.status).toBe(200);
      const mine = await json('GET', '/testlink/list', asha);
      const ids = (rows: Json[]) => rows.map((r) => r.linkId).sort();
      expect(ids(list.body.data)).toEqual(
        ids(mine.body.data.filter((l: Json) => l.type !== 'INITIAL-ASSESSMENT')),
      );
      const old = await json(
        'GET',
        `/tenant/testlink/list/${asha.id}?startTime=${now() - 10 * DAY}&endTime=${now() - 5 * DAY}`,
        mentor,
      );
      expect(old.body.data).toEqual([]);
      // one assigned roadmap's links, of any date (the window is optional then)
      const roadmapIds = [...new Set(list.body.data.map((l: Json) => l.assignedRoadmapId).filter(Boolean))];
      expect(roadmapIds.length).toBeGreaterThan(0);
      const ofRoadmap = await json(
        'GET',
        `/tenant/testlink/list/${asha.id}?assignedRoadmapId=${roadmapIds[0]}`,
        mentor,
      );
      expect(ofRoadmap.status).toBe(200);
      expect(ids(ofRoadmap.body.data)).toEqual(
        ids(list.body.data.filter((l: Json) => l.assignedRoadmapId === roadmapIds[0])),
      );
      for (const [query, name] of [
        ['', 'startTime'],
        [`startTime=${now()}`, 'endTime'],
        [`assignedRoadmapId=${roadmapIds[0]}&endTime=${now()}`, 'startTime'],
        ['assignedRoadmapId=nope', 'assignedRoadmapId'],
        [`startTime=${now()}&endTime=${now() - 1}`, 'endTime'],
      ]) {
        const res = await json('GET', `/tenant/testlink/list/${asha.id}?${query}`, mentor);
        expect(res.status, query).toBe(400);
        expect(JSON.stringify(res.body), query).toContain(name);
      }
      const ach = await json(
        'GET',
        `/tenant/dashboard/user-achievements/${asha.id}?startTime=${now() - DAY}&endTime=${now() + 60}`,
        mentor,
      );
      expect(ach.body.data).toEqual([
        { _id: 'RESOURCE', count: 1 },
        { _id: 'SECTION', count: 0 },
        { _id: 'ROADMAP', count: 0 },
      ]);
      const res = await json(
        'GET',
        `/tenant/dashboard/get-resource/${asha.id}/${bank.resourceIds[0]}`,
        mentor,
      );
      expect(res.body.data.assessmentIds).toEqual([feather]);
      expect(res.body.data.testLinks[0].status).toMatch(/CERTIFICATE/);
    });

    it("shows a test's answers exactly as the learner's review, only after evaluation", async () => {
      const api = calls(server.app);
      const open = await api.createOk(asha, {
        type: 'RESOURCE',
        assignedRoadmapId: ashaRoadmap,
        sectionId: bank.sectionIds[0],
        resourceId: bank.resourceIds[1],
      });
      const before = await json('GET', `/tenant/testlink/user/${asha.id}/testlink/${open}`, mentor);
      expect(before.status).toBe(409);
      expect(before.body.errorCode).toBe('TEST_NOT_EVALUATED');
      const theirs = await json('GET', `/tenant/testlink/user/${asha.id}/testlink/${feather}`, mentor);
      const mine = await api.view(feather, asha);
      expect(theirs.status).toBe(200);
      expect(theirs.body.data).toEqual(mine.json().data);
      expect(theirs.body.data.questions[0].options.some((o: Json) => o.isCorrect)).toBe(true);
    });

    it('fills the statistics cards, the award tables and the learning report', async () => {
      const stats = await json('GET', '/tenant/dashboard/stats', mentor);
      expect(stats.status).toBe(200);
      expect(stats.body.data).toMatchObject({
        totalFeatherGenerated: 1,
        totalBadgeGenerated: 0,
        totalCertificateGenerated: 0,
      });
      expect(stats.body.data.totalTestLink).toBeGreaterThanOrEqual(3);
      expect(stats.body.data.totalTestLinkCompleted).toBe(2);
      const feathers = await json(
        'GET',
        '/tenant/dashboard/get-tenant-user-awards-by-type?certificateType=RESOURCE',
        mentor,
      );
      expect(feathers.body.data).toHaveLength(1);
      expect(feathers.body.data[0]).toMatchObject({
        userId: asha.id,
        name: 'Asha Learner',
        email: asha.email,
        testlinks: { linkId: feather, type: 'RESOURCE', percentage: 100 },
      });
      const badges = await json(
        'GET',
        '/tenant/dashboard/get-tenant-user-awards-by-type?certificateType=SECTION',
        mentor,
      );
      expect(badges.body.data).toEqual([]);
      // Rex sees none of Mira's
      const rex = await json(
        'GET',
        '/tenant/dashboard/get-tenant-user-awards-by-type?certificateType=RESOURCE',
        rival,
      );
      expect(rex.body.data).toEqual([]);
      const report = await json('GET', '/tenant/dashboard/get-tenant-user-learning-report', mentor);
      const row = report.body.data.find((r: Json) => r.email === asha.email);
      expect(row.TotalDayReports).toBe(2);
      expect(row.TotalTimeSpent).toBeGreaterThan(35 * 60);
      expect(row.averageTimeSpent).toBe(Math.round(row.TotalTimeSpent / 2));
      // the stat is seconds per learner per day of learning, over all of Mira's learners
      const days = report.body.data.reduce((s: number, r: Json) => s + r.TotalDayReports, 0);
      const total = report.body.data.reduce((s: number, r: Json) => s + r.TotalTimeSpent, 0);
      expect(Math.abs(stats.body.data.totalUserAverageLearningTime - total / days)).toBeLessThanOrEqual(1);
      const ranged = await json(
        'GET',
        `/tenant/dashboard/get-tenant-user-learning-report?startTime=${(Math.floor(now() / DAY) - 2) * DAY}&endTime=${now()}`,
        mentor,
      );
      expect(ranged.body.data.find((r: Json) => r.email === asha.email).TotalDayReports).toBe(1);
    });

    it('gives every table as a file: all its rows, CSV that reads back (BOM, quoting, guarded formulas), or NDJSON', async () => {
      const download = async (url: string, who: Person = mentor) => {
        const res = await call('GET', url, who);
        return res;
      };
      const csvOf = (body: string) => parse(body, { bom: true }) as string[][];
      // a name that a spreadsheet would run as a formula
      await server.db
        .update(users)
        .set({ name: '=HYPERLINK("http://evil.example","Asha")' })
        .where(eq(users.id, asha.id));
      try {
        const report = await download('/tenant/export/learning-report');
        expect(report.statusCode).toBe(200);
        expect(report.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(report.headers['content-disposition']).toMatch(
          /attachment; filename="waymark-learning-report-.*\.csv"/,
        );
        expect(report.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
        const rows = csvOf(report.body);
        // the columns in one style (shared/reports/columns.ts), the units in the header
        expect(rows[0]).toEqual([
          'Name',
          'Email',
          'Mobile',
          'Joined At',
          'Total Spent Days',
          'Total Spent Time (seconds)',
          'Average Learning Time (seconds per learning day)',
          'Learner ID',
        ]);
        const listed = (await json('GET', '/tenant/dashboard/get-tenant-user-learning-report', mentor)).body
          .data;
        expect(rows).toHaveLength(listed.length + 1);
        const ashaRow = rows.find((r) => r[1] === asha.email)!;
        expect(ashaRow[0]).toBe('\'=HYPERLINK("http://evil.example","Asha")');
        const fromApi = listed.find((r: Json) => r.email === asha.email);
        expect(Number(ashaRow[4])).toBe(fromApi.TotalDayReports);
        expect(Number(ashaRow[5])).toBe(fromApi.TotalTimeSpent);
        // the same rows for scripts
        const nd = await download('/tenant/export/learning-report?format=ndjson');
        expect(nd.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
        const objects = nd.body
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(objects).toHaveLength(listed.length);
        expect(objects.find((o) => o.Email === asha.email)['Total Spent Time (seconds)']).toBe(
          fromApi.TotalTimeSpent,
        );
      } finally {
        await server.db.update(users).set({ name: 'Asha Learner' }).where(eq(users.id, asha.id));
      }

      const feathers = csvOf((await download('/tenant/export/awards?certificateType=RESOURCE')).body);
      expect(feathers).toHaveLength(2);
      expect(feathers[0]).toEqual([
        'Name',
        'Email',
        'Award',
        'Roadmap Name',
        'Section Name',
        'Resource Name',
        'Percentage',
        'Completed At',
        'Award Page',
      ]);
      expect(feathers[1]!.slice(0, 3)).toEqual(['Asha Learner', asha.email, 'Feather']);
      expect(feathers[1]![8]).toMatch(new RegExp(`/feather/${feather}$`));
      const all = csvOf((await download('/tenant/export/awards')).body);
      expect(all).toHaveLength(2);
      expect(csvOf((await download('/tenant/export/awards', rival)).body)).toHaveLength(1);

      const seats = csvOf((await download('/tenant/export/users?searchText=asha')).body);
      expect(seats[0]).toEqual([
        'Name',
        'Mobile',
        'Email',
        'Status',
        'Added At',
        'Access Until',
        'Learner ID',
      ]);
      expect(seats.map((r) => r[2])).toEqual(['Email', asha.email]);
      expect(seats[1]![3]).toBe('Active');

      const resources = csvOf((await download(`/tenant/export/resource-report/${asha.id}?${range()}`)).body);
      const page = await json(
        'GET',
        `/tenant/dashboard/time-spent-on-resource-by-user/${asha.id}?${range()}&skip=1&limit=5`,
        mentor,
      );
      expect(resources[0]).toEqual(['#', 'Resource Title', 'Watch Time (seconds)', 'Resource ID']);
      expect(resources.slice(1).map((r) => Number(r[2]))).toEqual(
        page.body.data.timeSpentOnResource.map((r: Json) => r.timespent),
      );
      const tests = csvOf(
        (await download(`/tenant/export/testlinks/${asha.id}?startTime=${now() - DAY}&endTime=${now() + 60}`))
          .body,
      );
      const listed = await json(
        'GET',
        `/tenant/testlink/list/${asha.id}?startTime=${now() - DAY}&endTime=${now() + 60}`,
        mentor,
      );
      expect(tests).toHaveLength(listed.body.data.length + 1);
      expect(tests[0]).toEqual([
        '#',
        'Type',
        'Roadmap',
        'Section',
        'Resource',
        'Subject',
        'Score',
        'Percentage',
        'Created At',
        'Completed In (seconds)',
        'Status',
        'Focus Record',
        'Time Away (seconds)',
        'Absences',
        'Pastes',
        'Answers',
      ]);
      expect(tests.some((r) => r[10] === 'View Certificate' || r[10] === 'Not Generated Yet')).toBe(true);

      // another tenant's learner, a bad range, a learner's token
      expect((await download(`/tenant/export/testlinks/${ravi.id}`)).statusCode).toBe(404);
      const years = await json(
        'GET',
        `/tenant/export/learning-report?startTime=946684800&endTime=${now()}`,
        mentor,
      );
      expect(years.status).toBe(400);
      expect(years.body.field).toBe('endTime');
      const half = await json('GET', `/tenant/export/awards?startTime=${now()}`, mentor);
      expect(half.body.field).toBe('endTime');
      expect((await download('/tenant/export/users', asha)).statusCode).toBe(403);
    });

    it('assigns roadmaps to a learner, at most two ongoing, and shows them as the learner sees them', async () => {
      const second = await seedBank(server.db);
      const third = await seedBank(server.db);
      const check = (roadmapId: string) =>
        json('GET', `/tenant/roadmap/${roadmapId}/check-roadmap-assigned-to-user/${asha.id}`, mentor);
      expect((await check(second.roadmapId)).body.data).toEqual({ assigned: false, assignedRoadmapId: null });
      const assigned = await json('POST', '/tenant/roadmap/assign-roadmap', mentor, {
        roadmapId: second.roadmapId,
        userId: asha.id,
      });
      expect(assigned.status).toBe(201);
      expect(assigned.body.data.created).toBe(true);
      expect((await check(second.roadmapId)).body.data).toEqual({
        assigned: true,
        assignedRoadmapId: assigned.body.data.assignedRoadmapId,
      });
      const again = await json('POST', '/tenant/roadmap/assign-roadmap', mentor, {
        roadmapId: second.roadmapId,
        userId: asha.id,
      });
      expect(again.body.data).toEqual({
        assignedRoadmapId: assigned.body.data.assignedRoadmapId,
        created: false,
      });
      const limit = await json('POST', '/tenant/roadmap/assign-roadmap', mentor, {
        roadmapId: third.roadmapId,
        userId: asha.id,
      });
      expect(limit.status).toBe(400);
      expect(limit.body.message).toBe('Already two Roadmaps are assigned');
      const list = await json('GET', `/tenant/roadmap/assigned-roadmaps/${asha.id}`, mentor);
      const mine = await json('GET', '/roadmap/my-roadmaps', asha);
      expect(list.body.data).toEqual(mine.body.data);
      const detail = await json('GET', `/tenant/roadmap/assigned-roadmap/${asha.id}/${ashaRoadmap}`, mentor);
      const own = await json('GET', `/roadmap/assigned-roadmap/${ashaRoadmap}`, asha);
      expect(detail.body.data).toEqual(own.body.data);
      // the roadmap list and one roadmap of the catalogue
      const catalogue = await json('GET', '/tenant/roadmap/list', mentor);
      expect(catalogue.body.data.map((r: Json) => r._id)).toContain(third.roadmapId);
      const one = await json('GET', `/tenant/roadmap/${third.roadmapId}`, mentor);
      expect(one.body.data.sections.length).toBe(2);
      expect((await json('GET', `/tenant/roadmap/${NIL}`, mentor)).status).toBe(404);
    });
  });
  describe('a roadmap with prerequisites (decision 011)', () => {
    it("is assigned only with the mentor's explicit choice: the prerequisites first, or waived", async () => {
      const basics = await seedBank(server.db);
      const advanced = await seedBank(server.db);
      await server.db
        .insert(roadmapPrerequisites)
        .values({ roadmapId: advanced.roadmapId, prerequisiteId: basics.roadmapId, position: 0 });
      const [nia, omar] = [await person('USER', 'Nia Learner'), await person('USER', 'Omar Learner')];
      for (const p of [nia, omar]) {
        expect((await json('POST', '/tenant/users/add-user-v2', mentor, { email: p.email })).status).toBe(
          200,
        );
      }
      const assign = (userId: string, prerequisites?: string) =>
        json('POST', '/tenant/roadmap/assign-roadmap', mentor, {
          roadmapId: advanced.roadmapId,
          userId,
          ...(prerequisites ? { prerequisites } : {}),
        });
      // no choice: refused, naming the field, and nothing written
      const refused = await assign(nia.id);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        field: 'prerequisites',
        errorCode: 'PREREQUISITES_CHOICE_REQUIRED',
      });
      expect((await assign(nia.id, 'SKIP')).body.field).toBe('prerequisites');
      expect(
        await server.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, nia.id)),
      ).toEqual([]);
      const sectionsOf = async (learnerId: string, id: string) =>
        (
          await json('GET', `/tenant/roadmap/assigned-roadmap/${learnerId}/${id}`, mentor)
        ).body.data.sections.map((s: Json) => s._id);
      const own = (await json('GET', `/tenant/roadmap/${advanced.roadmapId}`, mentor)).body.data.sections.map(
        (s: Json) => s._id,
      );
      const before = (
        await json('GET', `/tenant/roadmap/${basics.roadmapId}`, mentor)
      ).body.data.sections.map((s: Json) => s._id);
      // INCLUDE: every prerequisite's sections first, then the roadmap's own
      const included = await assign(nia.id, 'INCLUDE');
      expect(included.status).toBe(201);
      expect(await sectionsOf(nia.id, included.body.data.assignedRoadmapId)).toEqual([...before, ...own]);
      // WAIVE: the roadmap's own sections only, recorded as waived by this mentor
      const waived = await assign(omar.id, 'WAIVE');
      expect(waived.status).toBe(201);
      expect(await sectionsOf(omar.id, waived.body.data.assignedRoadmapId)).toEqual(own);
      const [row] = await server.db
        .select()
        .from(assignedRoadmaps)
        .where(eq(assignedRoadmaps.id, waived.body.data.assignedRoadmapId));
      expect(row).toMatchObject({ prerequisites: 'WAIVED', source: 'TENANT', assignedBy: mentor.id });
      // assigning again answers with the copy, whatever the choice
      expect((await assign(nia.id)).body.data).toEqual({
        assignedRoadmapId: included.body.data.assignedRoadmapId,
        created: false,
      });
      // the learner cannot take it past the assessment
      const direct = await json('POST', '/roadmap/assign-roadmap', omar, { roadmapId: basics.roadmapId });
      expect(direct.status).toBe(201);
      const self = await person('USER', 'Pia Learner');
      const past = await json('POST', '/roadmap/assign-roadmap', self, { roadmapId: advanced.roadmapId });
      expect(past.status).toBe(400);
      expect(past.body).toMatchObject({ field: 'roadmapId', errorCode: 'PREREQUISITE_ASSESSMENT_REQUIRED' });
    });
  });

  describe('demo content', () => {
    it('gives the demo mentor the demo learner with learning time, and running it again adds nothing', async () => {
      const demoMentor = await quietLearner('Demo Mentor');
      await server.db.update(users).set({ role: 'TENANT' }).where(eq(users.id, demoMentor.id));
      const demoLearner = await quietLearner('Demo Learner');
      await assignTo(server.db, demoLearner.id, bank);
      const opts = { mentorEmail: demoMentor.email, learnerEmail: demoLearner.email };
      await seedDemoTenant(server.db, opts);
      const [seat] = await server.db
        .select()
        .from(tenantUsers)
        .where(and(eq(tenantUsers.tenantId, demoMentor.id), eq(tenantUsers.learnerId, demoLearner.id)));
      expect(seat).toBeDefined();
      const days = async () =>
        (await server.db.select().from(dailyTime).where(eq(dailyTime.userId, demoLearner.id)))
          .map((r) => `${r.day}/${r.resourceId}/${r.ms}`)
          .sort();
      const first = await days();
      expect(new Set(first.map((d) => d.split('/')[0])).size).toBeGreaterThanOrEqual(8);
      await seedDemoTenant(server.db, opts);
      expect(await days()).toEqual(first);
      const [offer] = await server.db.select().from(offerCodes).where(eq(offerCodes.code, DEMO_OFFER_CODE));
      expect(offer?.percentOff).toBe(20);
    });
  });
});
