/**
 * A tenant's sandbox (decision 041) through the HTTP API: made once (two requests at once make one),
 * demo learners with open links that never expire, none of it billed nor seen among the tenant's real
 * learners, no retake cool-down, every test and award marked Sandbox, no credential ever issued for its
 * awards, and a reset that puts every attempt back to its start — each tenant's sandbox its own.
 */
import { SANDBOX_EMAIL_DOMAIN, SANDBOX_TEXT, SANDBOX_WORDS } from '@shared/rules/sandbox';
import type { Sandbox } from '@shared/schemas/sandbox';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepLinks } from '../assessments/engine/link-life';
import { testActivity, testAnswers, testLinks } from '../assessments/tables';
import { credentials } from '../credentials/tables';
import { users } from '../db/schema';
import { translatorFor } from '../lib/i18n';
import { type Bank, calls, seedBank } from '../test/fixtures/assessments';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';

for (const backend of BACKENDS) {
  describe(`a tenant's sandbox on ${backend}`, () => {
    let h: Harness;
    let bank: Bank;
    let api: ReturnType<typeof calls>;
    let mentor: Person;
    let sandbox: Sandbox;

    const get = (who: Person, url: string) => h.app.inject({ method: 'GET', url, headers: who.headers });
    const post = (who: Person, url: string) => h.app.inject({ method: 'POST', url, headers: who.headers });
    const linkRow = async (linkId: string) =>
      (await h.db.select().from(testLinks).where(eq(testLinks.linkId, linkId)))[0]!;

    beforeAll(async () => {
      h = await openHarness(backend);
      api = calls(h.app);
      bank = await seedBank(h.db);
      mentor = await h.tenant('Mira Mentor');
    }, 120_000);

    afterAll(async () => {
      await h?.close();
    });

    it('is made once: 201 with its learners and open links, then 200 with the same; two at once make one', async () => {
      expect((await get(mentor, '/api/tenant/sandbox')).json()).toEqual({ data: null });
      const first = await post(mentor, '/api/tenant/sandbox');
      expect(first.statusCode).toBe(201);
      sandbox = first.json().data;
      expect(sandbox.learners.map((l) => l.name)).toEqual(['Asha Sandbox', 'Ben Sandbox', 'Chen Sandbox']);
      for (const l of sandbox.learners) expect(l.email.endsWith(`@${SANDBOX_EMAIL_DOMAIN}`)).toBe(true);
      // each learner a resource's link and its section's, on a roadmap of the catalogue
      expect(sandbox.links).toHaveLength(6);
      expect(sandbox.links.map((l) => l.type).sort()).toEqual(
        ['RESOURCE', 'RESOURCE', 'RESOURCE', 'SECTION', 'SECTION', 'SECTION'].sort(),
      );
      expect(sandbox.roadmaps.map((r) => r._id)).toEqual([bank.roadmapId]);
      for (const l of sandbox.links) {
        expect(l).toMatchObject({ status: 'TAKE_TEST', isCompleted: false, awardUrl: null });
        expect(l.testUrl.endsWith(`/test/${l.linkId}`)).toBe(true);
        expect(await linkRow(l.linkId)).toMatchObject({ sandbox: true, expiresAt: null });
      }
      const again = await post(mentor, '/api/tenant/sandbox');
      expect(again.statusCode).toBe(200);
      expect(again.json().data.links.map((l: { linkId: string }) => l.linkId)).toEqual(
        sandbox.links.map((l) => l.linkId),
      );
      // another tenant's two requests at once: one sandbox, three learners
      const other = await h.tenant('Omar Other');
      const both = await Promise.all([
        post(other, '/api/tenant/sandbox'),
        post(other, '/api/tenant/sandbox'),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
      const theirs = await h.db.select().from(users).where(eq(users.sandboxOf, other.id));
      expect(theirs).toHaveLength(3);
    });

    it("is each tenant's own: another tenant sees and resets only its own", async () => {
      const stranger = await h.tenant('Sam Stranger');
      expect((await get(stranger, '/api/tenant/sandbox')).json()).toEqual({ data: null });
      const reset = await post(stranger, '/api/tenant/sandbox/reset');
      expect(reset.statusCode).toBe(404);
      expect(reset.json().message).toBe(SANDBOX_TEXT.none);
      // a learner is no tenant
      const learner = await h.learner();
      expect((await get(learner, '/api/tenant/sandbox')).statusCode).toBe(403);
    });

    it("is never billed and never among the tenant's learners: no seat, no count, no seat can be made of it", async () => {
      const list = await get(mentor, '/api/tenant/users/list');
      expect(list.json().data).toMatchObject({ tenantUserList: [], totalUserCount: 0 });
      const stats = (await get(mentor, '/api/tenant/dashboard/stats')).json().data;
      expect(stats).toMatchObject({ totalUserCount: 0, totalTestLink: 0, totalTestLinkCompleted: 0 });
      const info = (await get(mentor, '/api/tenant/subscription/info')).json().data;
      expect(info).toMatchObject({ isSubscribed: false, subscriptionQuantity: 0, isAccessToAddUser: true });
      // the demo learner's address is nobody a seat can be given to
      const email = sandbox.learners[0]!.email;
      for (const url of ['/api/tenant/users/before-check-add-user', '/api/tenant/users/add-user-v2']) {
        const res = await h.app.inject({ method: 'POST', url, headers: mentor.headers, payload: { email } });
        expect(res.statusCode).toBe(404);
        expect(res.json().errorCode).toBe('EMAIL_NOT_FOUND');
      }
      expect((await get(mentor, '/api/tenant/users/list')).json().data.totalUserCount).toBe(0);
    });

    it('marks every test and award Sandbox, holds no link back for a cool-down, and issues no credential', async () => {
      const [resource] = sandbox.links.filter((l) => l.type === 'RESOURCE');
      const loaded = await api.load(resource!.linkId);
      expect(loaded.json().data).toMatchObject({ linkId: resource!.linkId, sandbox: true });
      // failed, then a second attempt of the same test at once: no cool-down holds it back
      expect((await api.take(resource!.linkId, bank, 'wrong')).status).toBe('NO_ENOUGH_MARKS');
      const done = await api.load(resource!.linkId, undefined, '?closed=state');
      expect(done.json().data).toMatchObject({ sandbox: true, closed: { errorCode: 'TEST_COMPLETED' } });
      const row = await linkRow(resource!.linkId);
      const [second] = await h.db
        .insert(testLinks)
        .values({
          linkId: `sandboxSecond${Date.now()}`,
          type: 'RESOURCE',
          userId: row.userId,
          subjectId: row.subjectId,
          roadmapId: row.roadmapId,
          assignedRoadmapId: row.assignedRoadmapId,
          sectionId: row.sectionId,
          resourceId: row.resourceId,
          assignedResourceName: row.assignedResourceName,
          questionCount: row.questionCount,
          sandbox: true,
        })
        .returning();
      expect((await api.start(second!.linkId)).statusCode).toBe(200);
      // the same outside a sandbox is refused (the rule the sandbox lifts)
      const [outside] = await h.db
        .insert(testLinks)
        .values({
          ...second!,
          id: undefined,
          linkId: `notSandbox${Date.now()}`,
          sandbox: false,
          startedAt: null,
        })
        .returning();
      const refused = await api.start(outside!.linkId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().errorCode).toBe('RETAKE_COOLDOWN');
      await h.db.delete(testLinks).where(inArray(testLinks.id, [second!.id, outside!.id]));

      // the section's test earned: its award says Sandbox, and no credential is, or ever will be, issued
      const section = sandbox.links.find((l) => l.type === 'SECTION' && l.learnerId === resource!.learnerId)!;
      expect((await api.take(section.linkId, bank, 'right')).status).toBe('GENERATE_CERTIFICATE');
      const info = await h.app.inject({
        method: 'GET',
        url: `/api/certificate/certificate-info-v2/${section.linkId}`,
      });
      expect(info.json().data).toMatchObject({ linkId: section.linkId, sandbox: true });
      for (const url of [`/api/credentials/${section.linkId}`, `/api/credentials/${section.linkId}/status`]) {
        const res = await h.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ errorCode: 'SANDBOX_AWARD', message: SANDBOX_TEXT.notCredential });
        // said in the language the request asks for
        const spanish = await h.app.inject({ method: 'GET', url, headers: { 'accept-language': 'es' } });
        expect(spanish.json().message).toBe(translatorFor('es').t(SANDBOX_WORDS.notCredential));
        expect(spanish.json().message).not.toBe(SANDBOX_TEXT.notCredential);
      }
      // the credential queue had its turn (issueLater): still none
      await new Promise((r) => setTimeout(r, 200));
      expect(await h.db.select().from(credentials).where(eq(credentials.awardId, section.linkId))).toEqual(
        [],
      );
      const listed = (await get(mentor, '/api/tenant/sandbox')).json().data as Sandbox;
      expect(listed.links.find((l) => l.linkId === section.linkId)).toMatchObject({
        isCompleted: true,
        status: 'GENERATE_CERTIFICATE',
        awardUrl: expect.stringMatching(new RegExp(`/badge/${section.linkId}$`)),
      });
    });

    it('never expires its links, and resets every attempt to its start: same ids and questions, nothing kept', async () => {
      const swept = await sweepLinks(h.db, new Date(Date.now() + 365 * 86_400_000));
      expect(swept).toBeDefined();
      const ids = sandbox.links.map((l) => l.linkId);
      const before = await h.db.select().from(testLinks).where(inArray(testLinks.linkId, ids));
      expect(before.filter((l) => l.status === 'EXPIRED')).toEqual([]);
      const taken = before.filter((l) => l.isCompleted).map((l) => l.id);
      expect(taken.length).toBeGreaterThan(0);
      const questionsBefore = await Promise.all(ids.map((id) => api.questionsOf(id).catch(() => null)));

      const res = await post(mentor, '/api/tenant/sandbox/reset');
      expect(res.statusCode).toBe(200);
      const reset = res.json().data as Sandbox;
      expect(reset.resets).toBe(1);
      expect(Date.parse(reset.resetAt!)).toBeGreaterThan(Date.now() - 60_000);
      expect(reset.links.map((l) => l.linkId)).toEqual(ids);
      for (const l of reset.links)
        expect(l).toMatchObject({
          status: 'TAKE_TEST',
          isCompleted: false,
          percentage: null,
          awardUrl: null,
        });
      const after = await h.db.select().from(testLinks).where(inArray(testLinks.linkId, ids));
      for (const l of after) {
        expect(l).toMatchObject({
          startedAt: null,
          completedAt: null,
          score: null,
          attemptTokenHash: null,
          certificateGenerated: false,
          sandbox: true,
          expiresAt: null,
        });
      }
      expect(await h.db.select().from(testAnswers).where(inArray(testAnswers.testLinkId, taken))).toEqual([]);
      expect(await h.db.select().from(testActivity).where(inArray(testActivity.testLinkId, taken))).toEqual(
        [],
      );
      // the same questions, and the test opens on its Ready page again
      for (const [i, id] of ids.entries()) {
        const qs = await api.questionsOf(id);
        if (questionsBefore[i]) expect(qs.map((q) => q._id)).toEqual(questionsBefore[i]!.map((q) => q._id));
        expect((await api.load(id)).json().data).toMatchObject({
          startedAt: null,
          isCompleted: false,
          sandbox: true,
        });
      }
      // another tenant's sandbox was not touched
      const others = await h.db
        .select({ sandbox: testLinks.sandbox })
        .from(testLinks)
        .innerJoin(users, eq(users.id, testLinks.userId))
        .where(and(eq(testLinks.sandbox, true)));
      expect(others.length).toBeGreaterThan(ids.length);
    });
  });
}
