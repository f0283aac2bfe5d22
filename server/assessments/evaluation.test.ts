/**
 * The evaluation of a test through the HTTP API: scored on the server with the shared rules, once, late
 * answers refused, the sweep, awards and what they complete.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assignedRoadmaps } from '../catalogue/tables';
import { assignTo, rightAnswer, wrongAnswer } from '../test/fixtures/assessments';
import { BACKENDS, linksSuite } from '../test/fixtures/links';
import { sweepLinks } from './engine/link-life';
import { testLinks } from './tables';

for (const backend of BACKENDS) {
  describe(`evaluating a test on ${backend}`, () => {
    const suite = linksSuite(backend);

    describe('evaluation on the server', () => {
      it('merges given answers over saved ones, scores, and gives the same result when evaluated twice', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar, 3));
        await suite.api.start(linkId);
        const qs = await suite.api.questionsOf(linkId);
        // two right answers saved, then one of them overridden wrong and two more right at submission
        await suite.api.answer(linkId, rightAnswer(suite.bank.questions.get(qs[0]!._id)!));
        await suite.api.answer(linkId, rightAnswer(suite.bank.questions.get(qs[1]!._id)!));
        const res = await suite.api.evaluate(linkId, [
          wrongAnswer(suite.bank.questions.get(qs[1]!._id)!),
          rightAnswer(suite.bank.questions.get(qs[2]!._id)!),
          rightAnswer(suite.bank.questions.get(qs[3]!._id)!),
        ]);
        expect(res.statusCode).toBe(200);
        const first = res.json().data;
        expect(first).toEqual({
          linkId,
          testType: 'RESOURCE',
          points: 30,
          score: 30,
          percentage: 60,
          questionCount: 5,
          status: 'GENERATE_CERTIFICATE',
          certificateEligible: true,
        });
        // every answer keeps its points: saved before and not given again, overridden, given at submission
        const view = (await suite.api.view(linkId, me)).json().data as {
          answers: { questionId: string; points: number }[];
        };
        const pointsOf = new Map(view.answers.map((a) => [a.questionId, a.points]));
        expect(qs.slice(0, 4).map((q) => pointsOf.get(q._id))).toEqual([10, 0, 10, 10]);
        // again, even with other answers: the stored result
        const second = await suite.api.evaluate(linkId, [rightAnswer(suite.bank.questions.get(qs[1]!._id)!)]);
        expect(second.json().data).toEqual(first);
        const row = await suite.linkRow(linkId);
        expect(row).toMatchObject({ isCompleted: true, score: 30, percentage: 60 });
        expect(row.completedIn).toBeGreaterThanOrEqual(0);
        // the test cannot be loaded or answered any more
        const reload = await suite.api.load(linkId);
        expect(reload.statusCode).toBe(410);
        expect(reload.json()).toMatchObject({ errorCode: 'TEST_COMPLETED' });
        expect(reload.json().message).toMatch(/generate a new link/);
        expect(
          (await suite.api.answer(linkId, rightAnswer(suite.bank.questions.get(qs[4]!._id)!))).statusCode,
        ).toBe(410);
      });

      it('scores below 6 a question as No Enough Marks', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar, 1));
        const result = await suite.api.take(linkId, suite.bank, 'wrong');
        expect(result).toMatchObject({ score: 0, percentage: 0, status: 'NO_ENOUGH_MARKS' });
      });

      it('evaluates once when submitted several times at the same moment: every answer gets the first result', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar, 2));
        await suite.api.start(linkId);
        const qs = await suite.api.questionsOf(linkId);
        const right = qs.map((q) => rightAnswer(suite.bank.questions.get(q._id)!));
        const wrong = qs.map((q) => wrongAnswer(suite.bank.questions.get(q._id)!));
        const results = await Promise.all(
          [right, wrong, right, wrong].map((a) => suite.api.evaluate(linkId, a)),
        );
        expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
        const first = results[0]!.json().data;
        expect([0, 50]).toContain(first.score);
        for (const r of results) expect(r.json().data).toEqual(first);
        // the stored answers are the ones that were scored
        const view = (await suite.api.view(linkId, me)).json().data as {
          score: number;
          answers: { points: number }[];
        };
        expect(view.score).toBe(first.score);
        expect(view.answers.reduce((sum, a) => sum + a.points, 0)).toBe(first.score);
      });

      it('gives a multi-select answer with any wrong option 0, and compares fill-in-blank numbers as numbers', async () => {
        const me = await suite.h.learner();
        const ar = await assignTo(suite.h.db, me.id, suite.bank);
        for (const _attempt of [1, 2]) {
          const linkId = await suite.api.createOk(me, suite.resourceBody(ar));
          await suite.api.start(linkId);
          const answers = [];
          for (const q of await suite.api.questionsOf(linkId)) {
            const key = suite.bank.questions.get(q._id)!;
            if (key.type === 'MSQ' || key.type === 'MSQ_IMAGE') {
              answers.push({ questionId: q._id, answerId: [...key.correct, key.wrong[0]] });
            } else if (key.type === 'FILL_IN_BLANK') {
              answers.push({ questionId: q._id, answer: '8.0' });
            } else answers.push(rightAnswer(key));
          }
          await suite.api.evaluate(linkId, answers);
          const view = (await suite.api.view(linkId, me)).json().data;
          for (const a of view.answers as { questionId: string; points: number }[]) {
            const key = suite.bank.questions.get(a.questionId)!;
            if (key.type === 'MSQ' || key.type === 'MSQ_IMAGE') expect(a.points).toBe(0);
            else expect(a.points).toBe(10);
          }
        }
      });

      it('splits multi-select points across the correct options', async () => {
        const me = await suite.h.learner();
        const ar = await assignTo(suite.h.db, me.id, suite.bank);
        for (const _attempt of [1, 2]) {
          const linkId = await suite.api.createOk(me, suite.resourceBody(ar));
          await suite.api.start(linkId);
          const msq = (await suite.api.questionsOf(linkId)).filter(
            (q) => suite.bank.questions.get(q._id)!.type === 'MSQ_IMAGE',
          );
          if (msq.length === 0) {
            // not drawn this time: the attempt fails, and the next is drawn once the cool-down is over
            await suite.api.evaluate(linkId);
            await suite.completedHoursAgo(linkId, 25);
            continue;
          }
          const key = suite.bank.questions.get(msq[0]!._id)!;
          await suite.api.evaluate(linkId, [{ questionId: key.id, answerId: key.correct.slice(0, 2) }]);
          const view = (await suite.api.view(linkId, me)).json().data;
          const a = view.answers.find((x: { questionId: string }) => x.questionId === key.id);
          // three correct options: two of them earn 2/3 of 10
          expect(a.points).toBeCloseTo(6.67, 2);
          await suite.completedHoursAgo(linkId, 25);
        }
      });

      it('evaluates a test whose deadline has passed with the answers it has, on access and in the sweep', async () => {
        const { me, ar } = await suite.fresh();
        // on access
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar, 2));
        await suite.api.start(linkId);
        const qs = await suite.api.questionsOf(linkId);
        for (const q of qs.slice(0, 4))
          await suite.api.answer(linkId, rightAnswer(suite.bank.questions.get(q._id)!));
        const row = await suite.linkRow(linkId);
        await suite.h.db
          .update(testLinks)
          .set({
            startedAt: new Date(Date.now() - 10 * 60_000),
            deadlineAt: new Date(Date.now() - 5 * 60_000),
          })
          .where(eq(testLinks.id, row.id));
        const late = await suite.api.answer(linkId, rightAnswer(suite.bank.questions.get(qs[4]!._id)!));
        expect(late.statusCode).toBe(410);
        expect(late.json().errorCode).toBe('TEST_COMPLETED');
        const done = await suite.linkRow(linkId);
        expect(done).toMatchObject({
          isCompleted: true,
          score: 40,
          percentage: 80,
          status: 'GENERATE_CERTIFICATE',
        });
        expect(done.completedIn).toBe(5 * 60);
        // answers sent with a late submission do not count
        const submitted = await suite.api.evaluate(linkId, [
          rightAnswer(suite.bank.questions.get(qs[4]!._id)!),
        ]);
        expect(submitted.json().data.score).toBe(40);

        // in the sweep
        const swept = await suite.api.createOk(me, suite.resourceBody(ar, 3));
        await suite.api.start(swept);
        const sq = await suite.api.questionsOf(swept);
        await suite.api.answer(swept, rightAnswer(suite.bank.questions.get(sq[0]!._id)!));
        const sweptRow = await suite.linkRow(swept);
        await suite.h.db
          .update(testLinks)
          .set({ deadlineAt: new Date(Date.now() - 60_000) })
          .where(eq(testLinks.id, sweptRow.id));
        const r = await sweepLinks(suite.h.db, new Date());
        expect(r.evaluated).toBeGreaterThanOrEqual(1);
        expect(await suite.linkRow(swept)).toMatchObject({
          isCompleted: true,
          score: 10,
          status: 'NO_ENOUGH_MARKS',
        });
      });

      it('expires an unused link past its expiry and refuses it with LINK_EXPIRED', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar, 1));
        const row = await suite.linkRow(linkId);
        await suite.h.db
          .update(testLinks)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(testLinks.id, row.id));
        for (const res of [await suite.api.load(linkId), await suite.api.start(linkId)]) {
          expect(res.statusCode).toBe(410);
          expect(res.json()).toMatchObject({ errorCode: 'LINK_EXPIRED' });
          expect(res.json().message).toMatch(/expired/);
        }
        expect((await suite.api.evaluate(linkId)).json().errorCode).toBe('LINK_EXPIRED');
        const list = (await suite.api.list(me)).json().data as { linkId: string; status: string }[];
        expect(list.find((l) => l.linkId === linkId)?.status).toBe('EXPIRED');
      });

      it('keeps a custom test closed before its window (ASSESSMENT_NOT_YET_STARTED) and expired after', async () => {
        const soon = await suite.h.db
          .insert(testLinks)
          .values({
            linkId: `custom${Date.now()}soon`,
            type: 'CUSTOM-TEST',
            userId: suite.asha.id,
            assignedSubjectName: 'Mentor quiz',
            questionCount: 0,
            timeLimitMinutes: 60,
            startTime: new Date(Date.now() + 3600_000),
            durationHours: 1,
            expiresAt: new Date(Date.now() + 2 * 3600_000),
          })
          .returning();
        const early = await suite.api.load(soon[0]!.linkId);
        expect(early.statusCode).toBe(403);
        expect(early.json()).toMatchObject({ errorCode: 'ASSESSMENT_NOT_YET_STARTED' });
        expect(early.json().message).toMatch(/starts at/);
        expect((await suite.api.start(soon[0]!.linkId)).json().errorCode).toBe('ASSESSMENT_NOT_YET_STARTED');
        const past = await suite.h.db
          .insert(testLinks)
          .values({
            linkId: `custom${Date.now()}past`,
            type: 'CUSTOM-TEST',
            userId: suite.asha.id,
            questionCount: 0,
            timeLimitMinutes: 60,
            startTime: new Date(Date.now() - 3 * 3600_000),
            durationHours: 1,
            expiresAt: new Date(Date.now() - 2 * 3600_000),
          })
          .returning();
        const late = await suite.api.load(past[0]!.linkId);
        expect(late.statusCode).toBe(410);
        expect(late.json().errorCode).toBe('LINK_EXPIRED');
      });

      it('answers a link that cannot be taken as data when asked (closed=state), the same refusal', async () => {
        // expired, not open yet, completed: each the error the default answer gives, with 200
        const { me, ar } = await suite.fresh();
        const expired = await suite.api.createOk(me, suite.resourceBody(ar, 1));
        await suite.h.db
          .update(testLinks)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(testLinks.id, (await suite.linkRow(expired)).id));
        const [soon] = await suite.h.db
          .insert(testLinks)
          .values({
            linkId: `custom${Date.now()}state`,
            type: 'CUSTOM-TEST',
            userId: me.id,
            questionCount: 0,
            timeLimitMinutes: 60,
            startTime: new Date(Date.now() + 3600_000),
            durationHours: 1,
            expiresAt: new Date(Date.now() + 2 * 3600_000),
          })
          .returning();
        const done = await suite.api.createOk(me, suite.resourceBody(ar));
        await suite.api.take(done, suite.bank, 'right');
        for (const linkId of [expired, soon!.linkId, done]) {
          const asError = await suite.api.load(linkId);
          const asState = await suite.api.load(linkId, undefined, '?closed=state');
          expect(asState.statusCode).toBe(200);
          expect(asState.json()).toEqual({ data: { linkId, closed: asError.json(), sandbox: false } });
          expect([403, 410]).toContain(asError.statusCode);
          expect(asState.json().data.closed.statusCode).toBe(asError.statusCode);
        }
        // an open link answers the test as ever; an unknown one is still a 404
        const open = await suite.api.createOk(me, suite.resourceBody(ar, 2));
        const test = await suite.api.load(open, undefined, '?closed=state');
        expect(test.statusCode).toBe(200);
        expect(test.json().data).toMatchObject({ linkId: open, attemptHeld: false });
        expect(test.json().data.closed).toBeUndefined();
        expect((await suite.api.load('noSuchLink000000', undefined, '?closed=state')).statusCode).toBe(404);
        // said in the reader's language (issue 31)
        const spanish = await suite.h.app.inject({
          method: 'GET',
          url: '/api/testlink/assessment/noSuchLink000000',
          headers: { 'accept-language': 'es' },
        });
        expect(spanish.json().message).toBe('No se encontró el enlace de la prueba');
        expect((await suite.api.load(open, undefined, '?closed=maybe')).statusCode).toBe(400);
      });

      it('completes the assigned roadmap when the final (roadmap) test earns its certificate', async () => {
        const me = await suite.h.learner();
        const ar = await assignTo(suite.h.db, me.id, suite.bank);
        const failed = await suite.api.createOk(me, { type: 'ROADMAP', assignedRoadmapId: ar });
        expect((await suite.api.take(failed, suite.bank, 'wrong')).status).toBe('NO_ENOUGH_MARKS');
        const [still] = await suite.h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.id, ar));
        expect(still!.status).toBe('ONGOING');
        // the retake, once the cool-down after the failure is over
        await suite.completedHoursAgo(failed, 25);
        const passed = await suite.api.createOk(me, { type: 'ROADMAP', assignedRoadmapId: ar });
        expect((await suite.api.take(passed, suite.bank, 'right')).status).toBe('GENERATE_CERTIFICATE');
        const [done] = await suite.h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.id, ar));
        expect(done).toMatchObject({ status: 'COMPLETED', finalAssesmentId: passed });
        // a completed roadmap takes no more tests
        expect((await suite.api.create(me, suite.resourceBody(ar))).statusCode).toBe(409);
      });
    });
  });
}
