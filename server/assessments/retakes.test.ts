/**
 * Answer harvesting (decision 010): failing a test, reading its answers and asking for a new link must
 * not hand the learner the same questions again. A failed test can be retaken after a cool-down
 * (RETAKE_COOLDOWN_HOURS, 24 by default), refused before with RETAKE_COOLDOWN naming when it opens, on
 * every way to a new link; a new link draws questions the learner has not seen, then the least recently
 * seen; one attempt of a test is open at a time; attempts are numbered for the learner and the mentor.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantUsers } from '../db/schema';
import { questionTargets } from '../questions/tables';
import {
  addQuestion,
  assignTo,
  type Bank,
  calls,
  linkRowOf,
  resourceBody as resourceBodyOf,
  seedBank,
} from '../test/fixtures/assessments';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';
import { testLinkQuestions, testLinks } from './tables';

const HOUR = 3600_000;

for (const backend of BACKENDS) {
  describe(`retakes on ${backend}`, () => {
    let h: Harness;
    let bank: Bank;
    let api: ReturnType<typeof calls>;

    const resourceBody = (ar: string, r = 0) => resourceBodyOf(bank, ar, r);
    const linkRow = (linkId: string) => linkRowOf(h.db, linkId);

    /** Moves a completed link's completion (and its clock) back, as if it was taken `hours` ago. */
    async function ago(linkId: string, hours: number) {
      const row = await linkRow(linkId);
      const shift = (d: Date | null) => (d ? new Date(d.getTime() - hours * HOUR) : d);
      await h.db
        .update(testLinks)
        .set({
          createdAt: shift(row.createdAt)!,
          startedAt: shift(row.startedAt),
          deadlineAt: shift(row.deadlineAt),
          completedAt: shift(row.completedAt),
        })
        .where(eq(testLinks.id, row.id));
    }

    async function learnerWithRoadmap(): Promise<{ me: Person; ar: string }> {
      const me = await h.learner();
      return { me, ar: await assignTo(h.db, me.id, bank) };
    }

    const ids = async (linkId: string) => (await api.questionsOf(linkId)).map((q) => q._id).sort();

    beforeAll(async () => {
      h = await openHarness(backend);
      api = calls(h.app);
      bank = await seedBank(h.db);
      // the second resource: 10 questions, so two resource tests (5 each) can be entirely fresh
      for (let k = 0; k < 4; k++) {
        await addQuestion(h.db, {
          type: 'MCQ',
          text: `Resource 2 extra question ${k + 1}`,
          options: [
            { value: 'yes', isCorrect: true },
            { value: 'no', isCorrect: false },
          ],
          subjectId: bank.subjectId,
          languageId: bank.languageId,
          target: { kind: 'RESOURCE', id: bank.resourceIds[1] },
        }).then((q) => bank.questions.set(q.id, q));
      }
    }, 120_000);

    afterAll(async () => {
      await h?.close();
    });

    it('refuses a retake of a failed test during the cool-down, on every way to a new link, saying when it opens', async () => {
      const { me, ar } = await learnerWithRoadmap();
      const first = await api.createOk(me, resourceBody(ar));
      const failed = await api.take(first, bank, 'wrong', me);
      expect(failed.status).toBe('NO_ENOUGH_MARKS');
      // the answers view shows the correct answers: that is what a retake must not be able to use at once
      const view = await api.view(first, me);
      expect(view.statusCode).toBe(200);
      expect(
        view
          .json()
          .data.questions.every((q: { options: { isCorrect: boolean }[] }) =>
            q.options.some((o) => o.isCorrect),
          ),
      ).toBe(true);
      const completedAt = (await linkRow(first)).completedAt!;
      const opensAt = new Date(completedAt.getTime() + 24 * HOUR).toISOString();

      const again = await api.create(me, resourceBody(ar));
      // the old code answered 200 with the same five questions (the learner now knows every answer)
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({ errorCode: 'RETAKE_COOLDOWN', opensAt, field: 'resourceId' });
      expect(again.json().message).toContain(opensAt.slice(0, 16).replace('T', ' '));
      const wait = Number(again.headers['retry-after']);
      expect(Math.abs(wait - (Date.parse(opensAt) - Date.now()) / 1000)).toBeLessThan(3);

      // the same resource by its id (the e-mailed link, /generate-testlink) is the same test
      const generated = await api.inject({
        method: 'POST',
        url: `/api/testlink/resource/${bank.resourceIds[0]}/generate?send=email`,
        headers: me.headers,
      });
      expect(generated.statusCode).toBe(409);
      expect(generated.json()).toMatchObject({ errorCode: 'RETAKE_COOLDOWN', opensAt });

      // another test is not held back
      expect((await api.create(me, resourceBody(ar, 2))).statusCode).toBe(200);

      // the list says when each failed test opens again
      const listed = (await api.list(me)).json().data as { linkId: string; retakeAt: string | null }[];
      expect(listed.find((l) => l.linkId === first)?.retakeAt).toBe(opensAt);

      // so do the dashboard's cards (the roadmap's first resource is this one)
      const cards = await api.inject({
        method: 'GET',
        url: '/api/reports/dashboard/get-current-resource',
        headers: me.headers,
      });
      expect(cards.json().data).toEqual([
        expect.objectContaining({ resourceId: bank.resourceIds[0], retakeAt: opensAt }),
      ]);

      // once the cool-down is over, a new link
      await ago(first, 24);
      expect((await api.create(me, resourceBody(ar))).statusCode).toBe(200);
    });

    it('draws questions not seen before, then the least recently seen, attempt after attempt', async () => {
      const { me, ar } = await learnerWithRoadmap();
      const body = resourceBody(ar, 1);
      const a = await api.createOk(me, body);
      const first = await ids(a);
      await api.take(a, bank, 'wrong', me);
      await ago(a, 25);
      const b = await api.createOk(me, body);
      const second = await ids(b);
      // the pool has 10: the second attempt is entirely fresh
      expect(second.filter((id) => first.includes(id))).toEqual([]);
      await api.take(b, bank, 'wrong', me);
      await ago(b, 25);
      // nothing is fresh now: the questions seen longest ago come back first
      const third = await ids(await api.createOk(me, body));
      expect(third).toEqual(first);
    });

    it('gives back the open attempt instead of drawing another, even when asked at the same moment', async () => {
      const { me, ar } = await learnerWithRoadmap();
      const a = await api.createOk(me, resourceBody(ar));
      expect(await api.createOk(me, resourceBody(ar))).toBe(a);
      // started, it is still the open attempt
      await api.start(a, me);
      expect(await api.createOk(me, resourceBody(ar))).toBe(a);
      const many = await Promise.all(
        Array.from({ length: 5 }, () => api.createOk(me, { type: 'ROADMAP', assignedRoadmapId: ar })),
      );
      expect(new Set(many).size).toBe(1);
      const rows = await h.db
        .select({ id: testLinks.id })
        .from(testLinks)
        .where(and(eq(testLinks.userId, me.id), eq(testLinks.type, 'ROADMAP')));
      expect(rows).toHaveLength(1);
    });

    it('lets a passed test be taken again at once', async () => {
      const { me, ar } = await learnerWithRoadmap();
      const a = await api.createOk(me, resourceBody(ar, 3));
      expect((await api.take(a, bank, 'right', me)).status).toBe('GENERATE_CERTIFICATE');
      const b = await api.createOk(me, resourceBody(ar, 3));
      expect(b).not.toBe(a);
      const listed = (await api.list(me)).json().data as { linkId: string; retakeAt: string | null }[];
      expect(listed.find((l) => l.linkId === a)?.retakeAt).toBeNull();
    });

    it('refuses to start another link of a failed test during the cool-down', async () => {
      const { me, ar } = await learnerWithRoadmap();
      const a = await api.createOk(me, resourceBody(ar));
      // a second open link of the same test, as an older version could leave behind
      const row = await linkRow(a);
      const { id: _id, linkId: _linkId, testKey: _key, attempt: _attempt, ...rest } = row;
      const [twin] = await h.db
        .insert(testLinks)
        .values({ ...rest, linkId: `twin${Date.now()}abcdefghij` })
        .returning();
      const frozen = await h.db
        .select()
        .from(testLinkQuestions)
        .where(eq(testLinkQuestions.testLinkId, row.id));
      await h.db.insert(testLinkQuestions).values(frozen.map((f) => ({ ...f, testLinkId: twin!.id })));
      await api.take(a, bank, 'wrong', me);
      const started = await api.start(twin!.linkId, me);
      expect(started.statusCode).toBe(409);
      expect(started.json().errorCode).toBe('RETAKE_COOLDOWN');
      expect((await linkRow(twin!.linkId)).startedAt).toBeNull();
    });

    it('numbers the attempts of a test for the learner (list, answers view) and the mentor (tables, answers)', async () => {
      const { me, ar } = await learnerWithRoadmap();
      const mentor = await h.tenant();
      await h.db.insert(tenantUsers).values({ tenantId: mentor.id, learnerId: me.id });
      const body = resourceBody(ar, 1);
      const a = await api.createOk(me, body);
      // not started yet: no attempt
      expect(((await api.list(me)).json().data as { attempt: number | null }[])[0]!.attempt).toBeNull();
      await api.take(a, bank, 'wrong', me);
      await ago(a, 25);
      const b = await api.createOk(me, body);
      await api.take(b, bank, 'right', me);
      const other = await api.createOk(me, resourceBody(ar, 2));
      await api.take(other, bank, 'right', me);
      const attempts = (rows: { linkId: string; attempt: number | null }[]) =>
        Object.fromEntries(rows.map((r) => [r.linkId, r.attempt]));
      const mine = attempts((await api.list(me)).json().data);
      expect(mine).toEqual({ [a]: 1, [b]: 2, [other]: 1 });
      expect((await api.view(b, me)).json().data.attempt).toBe(2);
      const now = Math.floor(Date.now() / 1000);
      const theirs = await api.inject({
        method: 'GET',
        url: `/api/tenant/testlink/list/${me.id}?startTime=${now - 3 * 86400}&endTime=${now + 60}`,
        headers: mentor.headers,
      });
      expect(theirs.statusCode).toBe(200);
      expect(attempts(theirs.json().data)).toEqual(mine);
      const review = await api.inject({
        method: 'GET',
        url: `/api/tenant/testlink/user/${me.id}/testlink/${b}`,
        headers: mentor.headers,
      });
      expect(review.json().data.attempt).toBe(2);
    });
    it("reports to the assessment's author the pools too small to give a retake fresh questions", async () => {
      const mentor = await h.tenant();
      const created = await api.inject({
        method: 'POST',
        url: '/api/tenant/assessment/create',
        headers: mentor.headers,
        payload: { name: 'Pools' },
      });
      const assessmentId = created.json().data._id as string;
      // a question of the first resource (6 in its pool) and one of the second (10)
      const ofResource = async (r: number) => {
        const [row] = await h.db
          .select({ id: questionTargets.questionId })
          .from(questionTargets)
          .where(eq(questionTargets.targetId, bank.resourceIds[r]!))
          .limit(1);
        return row!.id;
      };
      for (const q of [await ofResource(0), await ofResource(1)]) {
        const added = await api.inject({
          method: 'PUT',
          url: `/api/tenant/assessment/${assessmentId}/add-question/${q}`,
          headers: mentor.headers,
        });
        expect(added.statusCode).toBe(200);
      }
      const res = await api.inject({
        method: 'GET',
        url: `/api/tenant/assessment/${assessmentId}/question-pools`,
        headers: mentor.headers,
      });
      expect(res.statusCode).toBe(200);
      const pools = res.json().data as { kind: string; id: string; freshRetake: boolean }[];
      // the smallest first: the first resource has 6 questions and a resource test draws 5
      expect(pools[0]).toMatchObject({
        kind: 'RESOURCE',
        id: bank.resourceIds[0],
        name: 'Lesson 1.1',
        questionCount: 6,
        drawCount: 5,
        freshRetake: false,
        missing: 4,
      });
      expect(pools.find((p) => p.id === bank.resourceIds[1])).toMatchObject({
        questionCount: 10,
        freshRetake: true,
        missing: 0,
      });
      expect(pools.find((p) => p.kind === 'SUBJECT')).toMatchObject({ id: bank.subjectId, drawCount: 20 });
      // another tenant's assessment is not theirs to read
      const other = await h.tenant();
      const refused = await api.inject({
        method: 'GET',
        url: `/api/tenant/assessment/${assessmentId}/question-pools`,
        headers: other.headers,
      });
      expect(refused.statusCode).toBe(404);
    });
  });
}
