/**
 * Taking a test through the HTTP API: the taker's view (no correctness data), the start on the server's
 * clock, answers saved as given and resumed, the focus record, the clock's limits.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assignTo, rightAnswer } from '../test/fixtures/assessments';
import { BACKENDS, linksSuite } from '../test/fixtures/links';
import type { Person } from '../test/harness';
import { testActivity, testAnswers, testLinks } from './tables';

for (const backend of BACKENDS) {
  describe(`taking a test on ${backend}`, () => {
    const suite = linksSuite(backend);

    describe('taking a test', () => {
      it('never sends correctness data before evaluation', async () => {
        const linkId = await suite.api.createOk(suite.asha, {
          type: 'ROADMAP',
          assignedRoadmapId: suite.asharoadmap,
        });
        for (const res of [await suite.api.load(linkId), await suite.api.start(linkId)]) {
          const raw = res.body;
          expect(raw).not.toMatch(/isCorrect|explanation|"points":0|Why: /);
          const data = res.json().data;
          for (const q of data.questions.questions) {
            expect(Object.keys(q).sort()).toEqual(
              [
                '_id',
                'code',
                'options',
                'points',
                'question',
                'questionImagePath',
                'questionType',
                'roadmapId',
                'roadmapName',
              ].sort(),
            );
            for (const o of q.options) expect(Object.keys(o).sort()).toEqual(['_id', 'value']);
            const key = suite.bank.questions.get(q._id)!;
            if (key.type === 'FILL_IN_BLANK') {
              expect(q.options).toEqual([]);
            }
          }
          // the accepted fill-in-blank values are nowhere in the payload
          for (const q of data.questions.questions) {
            const key = suite.bank.questions.get(q._id)!;
            if (key.type === 'FILL_IN_BLANK') expect(raw).not.toContain(`"value":"${key.value}"`);
          }
        }
      });

      it('opens without sign-in, starts on the server’s clock and resumes with every saved answer', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar));
        const loaded = await suite.api.load(linkId);
        expect(loaded.json().data.serverTime).toBeTruthy();
        const before = Date.now();
        const started = await suite.api.start(linkId);
        expect(started.statusCode).toBe(200);
        const s = started.json().data;
        expect(Date.parse(s.startedAt)).toBeGreaterThanOrEqual(before - 1000);
        // five questions: five minutes (a minute a question, at least five)
        expect(s.timeLimitMinutes).toBe(5);
        expect(Date.parse(s.deadlineAt) - Date.parse(s.startedAt)).toBe(5 * 60_000);
        // starting again changes nothing
        const again = (await suite.api.start(linkId)).json().data;
        expect(again.startedAt).toBe(s.startedAt);
        expect(again.deadlineAt).toBe(s.deadlineAt);
        // the start's own statement (update and view in one) shows what the long way and a reload show
        const loadedAfter = (await suite.api.load(linkId)).json().data;
        for (const other of [again, loadedAfter])
          expect({ ...other, serverTime: 0 }).toEqual({ ...s, serverTime: 0 });

        const qs = s.questions.questions as { _id: string }[];
        const given = qs.map((q) => rightAnswer(suite.bank.questions.get(q._id)!));
        for (const a of given) expect((await suite.api.answer(linkId, a)).statusCode).toBe(200);
        // a reload brings every answer back, in the shape it was given
        const reloaded = (await suite.api.load(linkId)).json().data;
        expect(reloaded.startedAt).toBe(s.startedAt);
        const byId = new Map(reloaded.answers.map((a: { questionId: string }) => [a.questionId, a]));
        for (const a of given) {
          const back = byId.get(a.questionId) as { answerId?: unknown; answer?: unknown };
          if (a.answer !== undefined) expect(back.answer).toBe(String(a.answer));
          else expect(back.answerId).toEqual(a.answerId);
        }
      });

      it('starts in one statement only what the long way would start: the window cuts the deadline, a spent window or an expired link is refused', async () => {
        const { me, ar } = await suite.fresh();
        const opened = async (patch: Partial<typeof testLinks.$inferInsert>) => {
          const linkId = await suite.api.createOk(me, suite.resourceBody(ar));
          await suite.h.db.update(testLinks).set(patch).where(eq(testLinks.linkId, linkId));
          // a new link per case: an open attempt of the same test would be given back
          const res = await suite.api.start(linkId, me);
          await suite.h.db.update(testLinks).set({ status: 'EXPIRED' }).where(eq(testLinks.linkId, linkId));
          return res;
        };
        const now = Date.now();
        // a window ending in two minutes cuts the five-minute limit
        const opens = now - 58 * 60_000;
        const cut = await opened({ startTime: new Date(opens), durationHours: 1 });
        expect(cut.statusCode).toBe(200);
        const c = cut.json().data;
        expect(Date.parse(c.deadlineAt)).toBe(opens + 3_600_000);
        expect(c.questions.questions).toHaveLength(5);
        // the window has ended, the link's expiry has passed, the window has not opened: refused, not started
        const spent = await opened({ startTime: new Date(now - 7_200_000), durationHours: 1 });
        expect(spent.json().errorCode).toBe('LINK_EXPIRED');
        const expired = await opened({ expiresAt: new Date(now - 1000) });
        expect(expired.json().errorCode).toBe('LINK_EXPIRED');
        const early = await opened({ startTime: new Date(now + 3_600_000), durationHours: 1 });
        expect(early.json().errorCode).toBe('ASSESSMENT_NOT_YET_STARTED');
        // another learner's token
        const other = await suite.h.learner();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar));
        expect((await suite.api.start(linkId, other)).statusCode).toBe(403);
        expect((await suite.linkRow(linkId)).startedAt).toBeNull();
      });

      it('keeps one answer per question: single choice replaces, multi-select stores the list, fill-in the value', async () => {
        const me = await suite.h.learner();
        const ar = await assignTo(suite.h.db, me.id, suite.bank);
        // two links cover every type of the first resource
        // the second link is drawn once the first is passed (an open attempt would be given back)
        for (const _attempt of [1, 2]) {
          const linkId = await suite.api.createOk(me, suite.resourceBody(ar));
          await suite.api.start(linkId);
          for (const q of await suite.api.questionsOf(linkId)) {
            const key = suite.bank.questions.get(q._id)!;
            if (key.type === 'MSQ' || key.type === 'MSQ_IMAGE') {
              expect(
                (await suite.api.answer(linkId, { questionId: q._id, answerId: [key.correct[0]] }))
                  .statusCode,
              ).toBe(200);
              expect(
                (await suite.api.answer(linkId, { questionId: q._id, answerId: key.correct })).statusCode,
              ).toBe(200);
            } else if (key.type === 'FILL_IN_BLANK') {
              expect((await suite.api.answer(linkId, { questionId: q._id, answer: 7 })).statusCode).toBe(200);
              expect((await suite.api.answer(linkId, { questionId: q._id, answer: ' 8 ' })).statusCode).toBe(
                200,
              );
            } else {
              expect(
                (await suite.api.answer(linkId, { questionId: q._id, answerId: key.wrong[0] })).statusCode,
              ).toBe(200);
              expect(
                (await suite.api.answer(linkId, { questionId: q._id, answerId: key.correct[0] })).statusCode,
              ).toBe(200);
            }
          }
          const row = await suite.linkRow(linkId);
          const saved = await suite.h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, row.id));
          expect(saved).toHaveLength(5);
          for (const s of saved) {
            const key = suite.bank.questions.get(s.questionId)!;
            if (key.type === 'FILL_IN_BLANK') expect(s.answerText).toBe('8');
            else expect([...s.answerIds].sort()).toEqual([...key.correct].sort());
          }
          const result = (await suite.api.evaluate(linkId)).json().data;
          expect(result).toMatchObject({ score: 50, percentage: 100, status: 'GENERATE_CERTIFICATE' });
        }
      });

      it('saves in one statement exactly what the long way would: each shape of answer stored or refused as normaliseAnswer says', async () => {
        const me = await suite.h.learner();
        const ar = await assignTo(suite.h.db, me.id, suite.bank);
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar));
        await suite.api.start(linkId, me);
        const row = await suite.linkRow(linkId);
        const stored = async (questionId: string) =>
          (
            await suite.h.db
              .select()
              .from(testAnswers)
              .where(and(eq(testAnswers.testLinkId, row.id), eq(testAnswers.questionId, questionId)))
          )[0];
        const qs = await suite.api.questionsOf(linkId);
        const ofKind = (test: (t: string) => boolean) =>
          qs.map((q) => suite.bank.questions.get(q._id)!).find((k) => test(k.type));
        const single = ofKind((t) => t === 'MCQ' || t === 'CODE_MCQ' || t === 'MCQ_IMAGE');
        const multi = ofKind((t) => t === 'MSQ' || t === 'MSQ_IMAGE');
        const text = ofKind((t) => t === 'FILL_IN_BLANK');
        const save = (body: Record<string, unknown>, who: Person = me) => suite.api.answer(linkId, body, who);
        if (single) {
          // one id in a list is that id; the same id twice is not one choice
          expect((await save({ questionId: single.id, answerId: [single.correct[0]] })).statusCode).toBe(200);
          expect((await stored(single.id))?.answerIds).toEqual([single.correct[0]]);
          const twice = await save({ questionId: single.id, answerId: [single.wrong[0], single.wrong[0]] });
          expect(twice.statusCode).toBe(400);
          expect(twice.json().field).toBe('answerId');
          expect((await stored(single.id))?.answerIds).toEqual([single.correct[0]]);
        }
        if (multi) {
          // duplicates stored once; an empty list is an answer with nothing chosen
          const dup = [multi.correct[0], multi.correct[0]];
          expect((await save({ questionId: multi.id, answerId: dup })).statusCode).toBe(200);
          expect((await stored(multi.id))?.answerIds).toEqual([multi.correct[0]]);
          expect((await save({ questionId: multi.id, answerId: [] })).statusCode).toBe(200);
          expect((await stored(multi.id))?.answerIds).toEqual([]);
        }
        if (text) {
          // an option id is no typed answer
          const wrongShape = await save({ questionId: text.id, answerId: single?.correct[0] ?? row.id });
          expect(wrongShape.statusCode).toBe(400);
          expect(wrongShape.json().field).toBe('answer');
          expect(await stored(text.id)).toBeUndefined();
        }
        // another learner's token, and a link past its deadline and grace: refused, nothing written
        const other = await suite.h.learner();
        expect((await save({ questionId: qs[0]!._id, answerId: [] }, other)).statusCode).toBe(403);
        await suite.h.db
          .update(testLinks)
          .set({ deadlineAt: new Date(Date.now() - 60_000) })
          .where(eq(testLinks.id, row.id));
        const before = await suite.h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, row.id));
        const late = await save({ questionId: qs[0]!._id, answerId: [] });
        expect(late.statusCode).toBe(410);
        const after = await suite.h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, row.id));
        expect(after.map((a) => [a.questionId, a.answerIds, a.answerText])).toEqual(
          before.map((a) => [a.questionId, a.answerIds, a.answerText]),
        );
      });

      it('refuses an option of another question, a foreign question and a missing value, saving nothing', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar, 1));
        const qs = await suite.api.questionsOf(linkId);
        // before the start nothing is saved
        const early = await suite.api.answer(linkId, rightAnswer(suite.bank.questions.get(qs[0]!._id)!));
        expect(early.statusCode).toBe(409);
        expect(early.json().errorCode).toBe('TEST_NOT_STARTED');
        await suite.api.start(linkId);
        const other = qs[1]!.options[0]!._id;
        const wrongOption = await suite.api.answer(linkId, { questionId: qs[0]!._id, answerId: other });
        expect(wrongOption.statusCode).toBe(400);
        expect(wrongOption.json().field).toBe('answerId');
        const foreign = await suite.api.answer(linkId, {
          questionId: [...suite.bank.questions.keys()].find((id) => !qs.some((q) => q._id === id)),
          answerId: other,
        });
        expect(foreign.statusCode).toBe(400);
        expect(foreign.json().field).toBe('questionId');
        const none = await suite.api.answer(linkId, { questionId: qs[0]!._id });
        expect(none.statusCode).toBe(400);
        expect(none.json().field).toBe('answerId');
        const notAnId = await suite.api.answer(linkId, { questionId: qs[0]!._id, answerId: 'x' });
        expect(notAnId.statusCode).toBe(400);
        expect(notAnId.json().field).toBe('answerId');
        const row = await suite.linkRow(linkId);
        expect(
          await suite.h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, row.id)),
        ).toHaveLength(0);
      });

      it('records focus and blur only while the test is started', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar, 2));
        expect((await suite.api.activity(linkId, 'BLUR')).statusCode).toBe(409);
        await suite.api.start(linkId);
        expect((await suite.api.activity(linkId, 'BLUR')).statusCode).toBe(200);
        expect((await suite.api.activity(linkId, 'FOCUS')).statusCode).toBe(200);
        const bad = await suite.api.inject({
          method: 'POST',
          url: '/api/testlink/activity',
          headers: suite.api.attemptOf(linkId),
          payload: { linkId, type: 'SCROLL', timeStamp: 1 },
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().field).toBe('type');
        await suite.api.evaluate(linkId);
        const late = await suite.api.activity(linkId, 'FOCUS');
        expect(late.statusCode).toBe(410);
        expect(late.json().errorCode).toBe('TEST_COMPLETED');
        const row = await suite.linkRow(linkId);
        const events = await suite.h.db
          .select()
          .from(testActivity)
          .where(eq(testActivity.testLinkId, row.id));
        expect(events.map((e) => e.type).sort()).toEqual(['BLUR', 'FOCUS']);
      });

      it("keeps a focus record on the server's clock and shows the same timeline and tier to the learner", async () => {
        const linkId = await suite.api.createOk(suite.asha, suite.resourceBody(suite.asharoadmap, 1));
        await suite.api.start(linkId);
        // the attempt began 20 minutes ago
        const row = await suite.linkRow(linkId);
        const began = Date.now() - 20 * 60_000;
        await suite.h.db
          .update(testLinks)
          .set({ startedAt: new Date(began), deadlineAt: new Date(began + 30 * 60_000) })
          .where(eq(testLinks.id, row.id));
        // the page's clock is a day off, and the events waited in its offline queue: the server places
        // them by how long they waited, not by the page's time
        const page = Date.now() + 86_400_000;
        const send = (payload: Record<string, unknown>) =>
          suite.api.inject({
            method: 'POST',
            url: '/api/testlink/activity',
            headers: suite.api.attemptOf(linkId),
            payload: { linkId, ...payload },
          });
        expect(
          (
            await send({
              type: 'BLUR',
              timeStamp: page - 600_000,
              sentAt: page,
              question: 7,
              id: 'evt-blur-0001',
            })
          ).statusCode,
        ).toBe(200);
        // sent twice (a retry after a lost answer): recorded once
        await send({
          type: 'BLUR',
          timeStamp: page - 600_000,
          sentAt: page,
          question: 7,
          id: 'evt-blur-0001',
        });
        await send({
          type: 'FOCUS',
          timeStamp: page - 470_000,
          sentAt: page,
          question: 7,
          id: 'evt-focus-001',
        });
        await send({
          type: 'PASTE',
          timeStamp: page - 60_000,
          sentAt: page,
          question: 3,
          chars: 12,
          id: 'evt-paste-01',
        });
        const absurd = await send({ type: 'FOCUS', timeStamp: 1e16 });
        expect(absurd.statusCode).toBe(400);
        expect(absurd.json().field).toBe('timeStamp');
        // an event the page held for longer than the attempt lasted is placed at its start
        await send({ type: 'OFFLINE', timeStamp: page - 3 * 3600_000, sentAt: page, id: 'evt-offline-1' });
        await send({ type: 'ONLINE', timeStamp: page - 1_140_000, sentAt: page, id: 'evt-online-01' });

        const stored = await suite.h.db
          .select()
          .from(testActivity)
          .where(eq(testActivity.testLinkId, row.id));
        expect(stored).toHaveLength(5);
        const blur = stored.find((e) => e.type === 'BLUR')!;
        expect(Math.abs(blur.at.getTime() - (Date.now() - 600_000))).toBeLessThan(5_000);
        expect(stored.find((e) => e.type === 'OFFLINE')!.at.getTime()).toBe(began);

        await suite.api.evaluate(linkId);
        const view = (await suite.api.view(linkId, suite.asha)).json().data;
        expect(
          view.timeline.map((t: { kind: string; seconds: number | null; question: number | null }) => [
            t.kind,
            t.seconds,
            t.question,
          ]),
        ).toEqual([
          ['OFFLINE', 60, null],
          ['AWAY', 130, 7],
          ['PASTE', null, 3],
        ]);
        expect(view.integrity).toMatchObject({
          tier: 'NOTABLE',
          awaySeconds: 130,
          absences: 1,
          pastes: 1,
          offlineSeconds: 60,
        });
        expect(view.integrity.reasons[0]).toMatch(/^2 min 10 s away in all/);
        const listed = (await suite.api.list(suite.asha))
          .json()
          .data.find((l: { linkId: string }) => l.linkId === linkId);
        expect(listed.integrity).toEqual(view.integrity);
        // a link not started has no record
        const fresh = await suite.api.createOk(suite.asha, suite.resourceBody(suite.asharoadmap, 0));
        expect(
          (await suite.api.list(suite.asha)).json().data.find((l: { linkId: string }) => l.linkId === fresh)
            .integrity,
        ).toBeNull();
      });

      it('never places an event before one the page says came earlier, however long each was held', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar));
        await suite.api.start(linkId);
        const send = (payload: Record<string, unknown>) =>
          suite.api.inject({
            method: 'POST',
            url: '/api/testlink/activity',
            headers: suite.api.attemptOf(linkId),
            payload: { linkId, ...payload },
          });
        // back on the test, reported at once; then leaving it 50 ms later, reported after waiting 5 s behind
        // a slow request: by its wait alone it would be placed before the return, and the absence that
        // follows would be lost (a BLUR before the FOCUS, then nothing to end it)
        const page = Date.now();
        await send({ type: 'FOCUS', timeStamp: page, sentAt: page, id: 'evt-back-0001' });
        await send({ type: 'BLUR', timeStamp: page + 50, sentAt: page + 5_050, id: 'evt-left-0001' });
        const row = await suite.linkRow(linkId);
        const stored = await suite.h.db
          .select()
          .from(testActivity)
          .where(eq(testActivity.testLinkId, row.id));
        const at = (type: string) => stored.find((e) => e.type === type)!.at.getTime();
        expect(at('BLUR')).toBeGreaterThanOrEqual(at('FOCUS'));
        // the pair is read back in the page's order, so leaving then comes back as an absence
        await new Promise((r) => setTimeout(r, 1_100));
        const back = Date.now();
        await send({ type: 'FOCUS', timeStamp: back, sentAt: back, id: 'evt-back-0002' });
        await suite.api.evaluate(linkId);
        const view = (await suite.api.view(linkId, me)).json().data;
        expect(view.timeline.map((t: { kind: string }) => t.kind)).toEqual(['AWAY']);
        expect(view.timeline[0].seconds).toBeGreaterThanOrEqual(1);
      });
    });
  });
}
