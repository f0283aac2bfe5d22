/**
 * Test links through the HTTP API: creation at four levels, the taker's view (no correctness data),
 * answers saved as given and resumed, the server's clock, evaluation on the server, the answers view,
 * feedback, and isolation between learners.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignedRoadmaps } from '../catalogue/tables';
import { outbox, users } from '../db/schema';
import { seedDemoAssessments } from '../demo/assessments';
import {
  assignTo,
  type Bank,
  calls,
  linkRowOf,
  resourceBody as resourceBodyOf,
  rightAnswer,
  seedBank,
  wrongAnswer,
} from '../test/fixtures/assessments';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';
import { sweepLinks } from './engine/link-life';
import { testActivity, testAnswers, testLinks } from './tables';

for (const backend of BACKENDS) {
  describe(`test links on ${backend}`, () => {
    let h: Harness;
    let bank: Bank;
    let api: ReturnType<typeof calls>;
    let asha: Person;
    let asharoadmap: string;
    let ravi: Person;
    let raviRoadmap: string;
    let mentor: Person;

    const resourceBody = (ar: string, r = 0) => resourceBodyOf(bank, ar, r);
    const linkRow = (linkId: string) => linkRowOf(h.db, linkId);

    /** A learner of their own with the roadmap assigned: each test's attempts are its own (decision 010). */
    async function fresh(): Promise<{ me: Person; ar: string }> {
      const me = await h.learner();
      return { me, ar: await assignTo(h.db, me.id, bank) };
    }

    /** Moves a completed link's completion back, as if it was taken `hours` ago (past the cool-down). */
    async function completedHoursAgo(linkId: string, hours: number) {
      const row = await linkRow(linkId);
      await h.db
        .update(testLinks)
        .set({ completedAt: new Date((row.completedAt ?? new Date()).getTime() - hours * 3600_000) })
        .where(eq(testLinks.id, row.id));
    }

    beforeAll(async () => {
      h = await openHarness(backend);
      api = calls(h.app);
      bank = await seedBank(h.db);
      asha = await h.learner('Asha Learner');
      ravi = await h.learner('Ravi Learner');
      mentor = await h.tenant('Mira Mentor');
      asharoadmap = await assignTo(h.db, asha.id, bank);
      raviRoadmap = await assignTo(h.db, ravi.id, bank);
    }, 120_000);

    afterAll(async () => {
      await h?.close();
    });

    describe('creating test links', () => {
      it('draws and freezes questions at all four levels with sensible counts', async () => {
        const counts: Record<string, number> = {};
        const bodies = {
          RESOURCE: resourceBody(asharoadmap),
          SECTION: { type: 'SECTION', assignedRoadmapId: asharoadmap, sectionId: bank.sectionIds[0] },
          ROADMAP: { type: 'ROADMAP', assignedRoadmapId: asharoadmap },
          SUBJECT: { type: 'SUBJECT', subject: bank.subjectId, lookingForJob: 'IN FUTURE' },
        };
        for (const [type, body] of Object.entries(bodies)) {
          const linkId = await api.createOk(asha, body);
          expect(linkId).toMatch(/^[A-Za-z0-9_-]{22}$/);
          const first = await api.load(linkId);
          expect(first.statusCode).toBe(200);
          const again = await api.load(linkId);
          // frozen: the same questions in the same order with the same option order
          expect(again.json().data.questions).toEqual(first.json().data.questions);
          expect(first.json().data).toMatchObject({
            type,
            status: 'TAKE_TEST',
            isCompleted: false,
            startedAt: null,
          });
          counts[type] = first.json().data.questionCount;
        }
        // resource 5; section 10 of its 16; roadmap 20 of 36; subject 20 of 36
        expect(counts).toEqual({ RESOURCE: 5, SECTION: 10, ROADMAP: 20, SUBJECT: 20 });
      });

      it('avoids the questions of the learner’s recent links while the bank allows', async () => {
        const me = await h.learner();
        const ar = await assignTo(h.db, me.id, bank);
        const firstLink = await api.createOk(me, resourceBody(ar));
        const first = await api.questionsOf(firstLink);
        // an open attempt is given back; a passed one lets a new link be drawn at once
        expect(await api.createOk(me, resourceBody(ar))).toBe(firstLink);
        await api.take(firstLink, bank, 'right');
        const second = await api.questionsOf(await api.createOk(me, resourceBody(ar)));
        const unseen = new Set([...first, ...second].map((q) => q._id));
        // the resource has 6 questions: the second link brings the one the first left out
        expect(unseen.size).toBe(6);
        expect(new Set([...first, ...second].map((q) => q.questionType))).toEqual(
          new Set(['MCQ', 'MSQ', 'CODE_MCQ', 'MCQ_IMAGE', 'MSQ_IMAGE', 'FILL_IN_BLANK']),
        );
      });

      it('creates links only for the learner’s own roadmaps, sections and resources', async () => {
        expect((await api.create(asha, resourceBody(raviRoadmap))).statusCode).toBe(404);
        expect((await api.create(asha, { type: 'ROADMAP', assignedRoadmapId: raviRoadmap })).statusCode).toBe(
          404,
        );
        const wrongSection = await api.create(asha, {
          type: 'RESOURCE',
          assignedRoadmapId: asharoadmap,
          sectionId: bank.sectionIds[1],
          resourceId: bank.resourceIds[0],
        });
        expect(wrongSection.statusCode).toBe(404);
        expect(wrongSection.json().message).toMatch(/not in this section/);
        const foreignSection = await api.create(asha, {
          type: 'SECTION',
          assignedRoadmapId: asharoadmap,
          sectionId: '00000000-0000-4000-8000-000000000000',
        });
        expect(foreignSection.statusCode).toBe(404);
        // a tenant is not a learner
        expect((await api.create(mentor, resourceBody(asharoadmap))).statusCode).toBe(403);
        // nobody signed in
        const anonymous = await api.inject({
          method: 'POST',
          url: '/api/testlink/create',
          payload: resourceBody(asharoadmap),
        });
        expect(anonymous.statusCode).toBe(401);
      });

      it('refuses bad input with a 400 naming the field, writing nothing', async () => {
        const before = (await h.db.select().from(testLinks)).length;
        const noJob = await api.create(asha, { type: 'SUBJECT', subject: bank.subjectId });
        expect(noJob.statusCode).toBe(400);
        expect(noJob.json().field).toBe('lookingForJob');
        const noSubject = await api.create(asha, { type: 'SUBJECT', lookingForJob: 'YES' });
        expect(noSubject.json().field).toBe('subject');
        const unknownSubject = await api.create(asha, {
          type: 'SUBJECT',
          subject: '00000000-0000-4000-8000-000000000000',
          lookingForJob: 'YES',
        });
        expect(unknownSubject.statusCode).toBe(400);
        expect(unknownSubject.json()).toMatchObject({ field: 'subject', message: 'Please select a subject' });
        const badType = await api.create(asha, { type: 'PUZZLE' });
        expect(badType.statusCode).toBe(400);
        expect(badType.json().field).toBe('type');
        const badId = await api.create(asha, { type: 'ROADMAP', assignedRoadmapId: 'nope' });
        expect(badId.json().field).toBe('assignedRoadmapId');
        // a level without questions: a clear message, nothing created
        const empty = await api.create(asha, {
          type: 'SUBJECT',
          subject: bank.emptySubjectId,
          lookingForJob: 'NO',
        });
        expect(empty.statusCode).toBe(400);
        expect(empty.json()).toMatchObject({ field: 'subject' });
        // in the learner’s language (their roadmap’s), which has none for this subject
        expect(empty.json().message).toMatch(/^There are no questions for this subject in Language \w+ yet/);
        const barren = await api.create(asha, {
          type: 'RESOURCE',
          assignedRoadmapId: asharoadmap,
          sectionId: bank.sectionIds[1],
          resourceId: bank.barrenResourceId,
        });
        expect(barren.statusCode).toBe(400);
        expect(barren.json().field).toBe('resourceId');
        expect((await h.db.select().from(testLinks)).length).toBe(before);
      });
    });

    describe('taking a test', () => {
      it('never sends correctness data before evaluation', async () => {
        const linkId = await api.createOk(asha, { type: 'ROADMAP', assignedRoadmapId: asharoadmap });
        for (const res of [await api.load(linkId), await api.start(linkId)]) {
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
            const key = bank.questions.get(q._id)!;
            if (key.type === 'FILL_IN_BLANK') {
              expect(q.options).toEqual([]);
            }
          }
          // the accepted fill-in-blank values are nowhere in the payload
          for (const q of data.questions.questions) {
            const key = bank.questions.get(q._id)!;
            if (key.type === 'FILL_IN_BLANK') expect(raw).not.toContain(`"value":"${key.value}"`);
          }
        }
      });

      it('opens without sign-in, starts on the server’s clock and resumes with every saved answer', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar));
        const loaded = await api.load(linkId);
        expect(loaded.json().data.serverTime).toBeTruthy();
        const before = Date.now();
        const started = await api.start(linkId);
        expect(started.statusCode).toBe(200);
        const s = started.json().data;
        expect(Date.parse(s.startedAt)).toBeGreaterThanOrEqual(before - 1000);
        // five questions: five minutes (a minute a question, at least five)
        expect(s.timeLimitMinutes).toBe(5);
        expect(Date.parse(s.deadlineAt) - Date.parse(s.startedAt)).toBe(5 * 60_000);
        // starting again changes nothing
        const again = (await api.start(linkId)).json().data;
        expect(again.startedAt).toBe(s.startedAt);
        expect(again.deadlineAt).toBe(s.deadlineAt);
        // the start's own statement (update and view in one) shows what the long way and a reload show
        const loadedAfter = (await api.load(linkId)).json().data;
        for (const other of [again, loadedAfter])
          expect({ ...other, serverTime: 0 }).toEqual({ ...s, serverTime: 0 });

        const qs = s.questions.questions as { _id: string }[];
        const given = qs.map((q) => rightAnswer(bank.questions.get(q._id)!));
        for (const a of given) expect((await api.answer(linkId, a)).statusCode).toBe(200);
        // a reload brings every answer back, in the shape it was given
        const reloaded = (await api.load(linkId)).json().data;
        expect(reloaded.startedAt).toBe(s.startedAt);
        const byId = new Map(reloaded.answers.map((a: { questionId: string }) => [a.questionId, a]));
        for (const a of given) {
          const back = byId.get(a.questionId) as { answerId?: unknown; answer?: unknown };
          if (a.answer !== undefined) expect(back.answer).toBe(String(a.answer));
          else expect(back.answerId).toEqual(a.answerId);
        }
      });

      it('starts in one statement only what the long way would start: the window cuts the deadline, a spent window or an expired link is refused', async () => {
        const { me, ar } = await fresh();
        const opened = async (patch: Partial<typeof testLinks.$inferInsert>) => {
          const linkId = await api.createOk(me, resourceBody(ar));
          await h.db.update(testLinks).set(patch).where(eq(testLinks.linkId, linkId));
          // a new link per case: an open attempt of the same test would be given back
          const res = await api.start(linkId, me);
          await h.db.update(testLinks).set({ status: 'EXPIRED' }).where(eq(testLinks.linkId, linkId));
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
        const other = await h.learner();
        const linkId = await api.createOk(me, resourceBody(ar));
        expect((await api.start(linkId, other)).statusCode).toBe(403);
        expect((await linkRow(linkId)).startedAt).toBeNull();
      });

      it('keeps one answer per question: single choice replaces, multi-select stores the list, fill-in the value', async () => {
        const me = await h.learner();
        const ar = await assignTo(h.db, me.id, bank);
        // two links cover every type of the first resource
        // the second link is drawn once the first is passed (an open attempt would be given back)
        for (const _attempt of [1, 2]) {
          const linkId = await api.createOk(me, resourceBody(ar));
          await api.start(linkId);
          for (const q of await api.questionsOf(linkId)) {
            const key = bank.questions.get(q._id)!;
            if (key.type === 'MSQ' || key.type === 'MSQ_IMAGE') {
              expect(
                (await api.answer(linkId, { questionId: q._id, answerId: [key.correct[0]] })).statusCode,
              ).toBe(200);
              expect(
                (await api.answer(linkId, { questionId: q._id, answerId: key.correct })).statusCode,
              ).toBe(200);
            } else if (key.type === 'FILL_IN_BLANK') {
              expect((await api.answer(linkId, { questionId: q._id, answer: 7 })).statusCode).toBe(200);
              expect((await api.answer(linkId, { questionId: q._id, answer: ' 8 ' })).statusCode).toBe(200);
            } else {
              expect(
                (await api.answer(linkId, { questionId: q._id, answerId: key.wrong[0] })).statusCode,
              ).toBe(200);
              expect(
                (await api.answer(linkId, { questionId: q._id, answerId: key.correct[0] })).statusCode,
              ).toBe(200);
            }
          }
          const row = await linkRow(linkId);
          const saved = await h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, row.id));
          expect(saved).toHaveLength(5);
          for (const s of saved) {
            const key = bank.questions.get(s.questionId)!;
            if (key.type === 'FILL_IN_BLANK') expect(s.answerText).toBe('8');
            else expect([...s.answerIds].sort()).toEqual([...key.correct].sort());
          }
          const result = (await api.evaluate(linkId)).json().data;
          expect(result).toMatchObject({ score: 50, percentage: 100, status: 'GENERATE_CERTIFICATE' });
        }
      });

      it('saves in one statement exactly what the long way would: each shape of answer stored or refused as normaliseAnswer says', async () => {
        const me = await h.learner();
        const ar = await assignTo(h.db, me.id, bank);
        const linkId = await api.createOk(me, resourceBody(ar));
        await api.start(linkId, me);
        const row = await linkRow(linkId);
        const stored = async (questionId: string) =>
          (
            await h.db
              .select()
              .from(testAnswers)
              .where(and(eq(testAnswers.testLinkId, row.id), eq(testAnswers.questionId, questionId)))
          )[0];
        const qs = await api.questionsOf(linkId);
        const ofKind = (test: (t: string) => boolean) =>
          qs.map((q) => bank.questions.get(q._id)!).find((k) => test(k.type));
        const single = ofKind((t) => t === 'MCQ' || t === 'CODE_MCQ' || t === 'MCQ_IMAGE');
        const multi = ofKind((t) => t === 'MSQ' || t === 'MSQ_IMAGE');
        const text = ofKind((t) => t === 'FILL_IN_BLANK');
        const save = (body: Record<string, unknown>, who: Person = me) => api.answer(linkId, body, who);
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
        const other = await h.learner();
        expect((await save({ questionId: qs[0]!._id, answerId: [] }, other)).statusCode).toBe(403);
        await h.db
          .update(testLinks)
          .set({ deadlineAt: new Date(Date.now() - 60_000) })
          .where(eq(testLinks.id, row.id));
        const before = await h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, row.id));
        const late = await save({ questionId: qs[0]!._id, answerId: [] });
        expect(late.statusCode).toBe(410);
        const after = await h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, row.id));
        expect(after.map((a) => [a.questionId, a.answerIds, a.answerText])).toEqual(
          before.map((a) => [a.questionId, a.answerIds, a.answerText]),
        );
      });

      it('refuses an option of another question, a foreign question and a missing value, saving nothing', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar, 1));
        const qs = await api.questionsOf(linkId);
        // before the start nothing is saved
        const early = await api.answer(linkId, rightAnswer(bank.questions.get(qs[0]!._id)!));
        expect(early.statusCode).toBe(409);
        expect(early.json().errorCode).toBe('TEST_NOT_STARTED');
        await api.start(linkId);
        const other = qs[1]!.options[0]!._id;
        const wrongOption = await api.answer(linkId, { questionId: qs[0]!._id, answerId: other });
        expect(wrongOption.statusCode).toBe(400);
        expect(wrongOption.json().field).toBe('answerId');
        const foreign = await api.answer(linkId, {
          questionId: [...bank.questions.keys()].find((id) => !qs.some((q) => q._id === id)),
          answerId: other,
        });
        expect(foreign.statusCode).toBe(400);
        expect(foreign.json().field).toBe('questionId');
        const none = await api.answer(linkId, { questionId: qs[0]!._id });
        expect(none.statusCode).toBe(400);
        expect(none.json().field).toBe('answerId');
        const notAnId = await api.answer(linkId, { questionId: qs[0]!._id, answerId: 'x' });
        expect(notAnId.statusCode).toBe(400);
        expect(notAnId.json().field).toBe('answerId');
        const row = await linkRow(linkId);
        expect(await h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, row.id))).toHaveLength(
          0,
        );
      });

      it('records focus and blur only while the test is started', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar, 2));
        expect((await api.activity(linkId, 'BLUR')).statusCode).toBe(409);
        await api.start(linkId);
        expect((await api.activity(linkId, 'BLUR')).statusCode).toBe(200);
        expect((await api.activity(linkId, 'FOCUS')).statusCode).toBe(200);
        const bad = await api.inject({
          method: 'POST',
          url: '/api/testlink/activity',
          headers: api.attemptOf(linkId),
          payload: { linkId, type: 'SCROLL', timeStamp: 1 },
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().field).toBe('type');
        await api.evaluate(linkId);
        const late = await api.activity(linkId, 'FOCUS');
        expect(late.statusCode).toBe(410);
        expect(late.json().errorCode).toBe('TEST_COMPLETED');
        const row = await linkRow(linkId);
        const events = await h.db.select().from(testActivity).where(eq(testActivity.testLinkId, row.id));
        expect(events.map((e) => e.type).sort()).toEqual(['BLUR', 'FOCUS']);
      });

      it("keeps a focus record on the server's clock and shows the same timeline and tier to the learner", async () => {
        const linkId = await api.createOk(asha, resourceBody(asharoadmap, 1));
        await api.start(linkId);
        // the attempt began 20 minutes ago
        const row = await linkRow(linkId);
        const began = Date.now() - 20 * 60_000;
        await h.db
          .update(testLinks)
          .set({ startedAt: new Date(began), deadlineAt: new Date(began + 30 * 60_000) })
          .where(eq(testLinks.id, row.id));
        // the page's clock is a day off, and the events waited in its offline queue: the server places
        // them by how long they waited, not by the page's time
        const page = Date.now() + 86_400_000;
        const send = (payload: Record<string, unknown>) =>
          api.inject({
            method: 'POST',
            url: '/api/testlink/activity',
            headers: api.attemptOf(linkId),
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

        const stored = await h.db.select().from(testActivity).where(eq(testActivity.testLinkId, row.id));
        expect(stored).toHaveLength(5);
        const blur = stored.find((e) => e.type === 'BLUR')!;
        expect(Math.abs(blur.at.getTime() - (Date.now() - 600_000))).toBeLessThan(5_000);
        expect(stored.find((e) => e.type === 'OFFLINE')!.at.getTime()).toBe(began);

        await api.evaluate(linkId);
        const view = (await api.view(linkId, asha)).json().data;
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
        const listed = (await api.list(asha))
          .json()
          .data.find((l: { linkId: string }) => l.linkId === linkId);
        expect(listed.integrity).toEqual(view.integrity);
        // a link not started has no record
        const fresh = await api.createOk(asha, resourceBody(asharoadmap, 0));
        expect(
          (await api.list(asha)).json().data.find((l: { linkId: string }) => l.linkId === fresh).integrity,
        ).toBeNull();
      });

      it('never places an event before one the page says came earlier, however long each was held', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar));
        await api.start(linkId);
        const send = (payload: Record<string, unknown>) =>
          api.inject({
            method: 'POST',
            url: '/api/testlink/activity',
            headers: api.attemptOf(linkId),
            payload: { linkId, ...payload },
          });
        // back on the test, reported at once; then leaving it 50 ms later, reported after waiting 5 s behind
        // a slow request: by its wait alone it would be placed before the return, and the absence that
        // follows would be lost (a BLUR before the FOCUS, then nothing to end it)
        const page = Date.now();
        await send({ type: 'FOCUS', timeStamp: page, sentAt: page, id: 'evt-back-0001' });
        await send({ type: 'BLUR', timeStamp: page + 50, sentAt: page + 5_050, id: 'evt-left-0001' });
        const row = await linkRow(linkId);
        const stored = await h.db.select().from(testActivity).where(eq(testActivity.testLinkId, row.id));
        const at = (type: string) => stored.find((e) => e.type === type)!.at.getTime();
        expect(at('BLUR')).toBeGreaterThanOrEqual(at('FOCUS'));
        // the pair is read back in the page's order, so leaving then comes back as an absence
        await new Promise((r) => setTimeout(r, 1_100));
        const back = Date.now();
        await send({ type: 'FOCUS', timeStamp: back, sentAt: back, id: 'evt-back-0002' });
        await api.evaluate(linkId);
        const view = (await api.view(linkId, me)).json().data;
        expect(view.timeline.map((t: { kind: string }) => t.kind)).toEqual(['AWAY']);
        expect(view.timeline[0].seconds).toBeGreaterThanOrEqual(1);
      });
    });

    describe('evaluation on the server', () => {
      it('merges given answers over saved ones, scores, and gives the same result when evaluated twice', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar, 3));
        await api.start(linkId);
        const qs = await api.questionsOf(linkId);
        // two right answers saved, then one of them overridden wrong and two more right at submission
        await api.answer(linkId, rightAnswer(bank.questions.get(qs[0]!._id)!));
        await api.answer(linkId, rightAnswer(bank.questions.get(qs[1]!._id)!));
        const res = await api.evaluate(linkId, [
          wrongAnswer(bank.questions.get(qs[1]!._id)!),
          rightAnswer(bank.questions.get(qs[2]!._id)!),
          rightAnswer(bank.questions.get(qs[3]!._id)!),
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
        const view = (await api.view(linkId, me)).json().data as {
          answers: { questionId: string; points: number }[];
        };
        const pointsOf = new Map(view.answers.map((a) => [a.questionId, a.points]));
        expect(qs.slice(0, 4).map((q) => pointsOf.get(q._id))).toEqual([10, 0, 10, 10]);
        // again, even with other answers: the stored result
        const second = await api.evaluate(linkId, [rightAnswer(bank.questions.get(qs[1]!._id)!)]);
        expect(second.json().data).toEqual(first);
        const row = await linkRow(linkId);
        expect(row).toMatchObject({ isCompleted: true, score: 30, percentage: 60 });
        expect(row.completedIn).toBeGreaterThanOrEqual(0);
        // the test cannot be loaded or answered any more
        const reload = await api.load(linkId);
        expect(reload.statusCode).toBe(410);
        expect(reload.json()).toMatchObject({ errorCode: 'TEST_COMPLETED' });
        expect(reload.json().message).toMatch(/generate a new link/);
        expect((await api.answer(linkId, rightAnswer(bank.questions.get(qs[4]!._id)!))).statusCode).toBe(410);
      });

      it('scores below 6 a question as No Enough Marks', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar, 1));
        const result = await api.take(linkId, bank, 'wrong');
        expect(result).toMatchObject({ score: 0, percentage: 0, status: 'NO_ENOUGH_MARKS' });
      });

      it('evaluates once when submitted several times at the same moment: every answer gets the first result', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar, 2));
        await api.start(linkId);
        const qs = await api.questionsOf(linkId);
        const right = qs.map((q) => rightAnswer(bank.questions.get(q._id)!));
        const wrong = qs.map((q) => wrongAnswer(bank.questions.get(q._id)!));
        const results = await Promise.all([right, wrong, right, wrong].map((a) => api.evaluate(linkId, a)));
        expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
        const first = results[0]!.json().data;
        expect([0, 50]).toContain(first.score);
        for (const r of results) expect(r.json().data).toEqual(first);
        // the stored answers are the ones that were scored
        const view = (await api.view(linkId, me)).json().data as {
          score: number;
          answers: { points: number }[];
        };
        expect(view.score).toBe(first.score);
        expect(view.answers.reduce((sum, a) => sum + a.points, 0)).toBe(first.score);
      });

      it('gives a multi-select answer with any wrong option 0, and compares fill-in-blank numbers as numbers', async () => {
        const me = await h.learner();
        const ar = await assignTo(h.db, me.id, bank);
        for (const _attempt of [1, 2]) {
          const linkId = await api.createOk(me, resourceBody(ar));
          await api.start(linkId);
          const answers = [];
          for (const q of await api.questionsOf(linkId)) {
            const key = bank.questions.get(q._id)!;
            if (key.type === 'MSQ' || key.type === 'MSQ_IMAGE') {
              answers.push({ questionId: q._id, answerId: [...key.correct, key.wrong[0]] });
            } else if (key.type === 'FILL_IN_BLANK') {
              answers.push({ questionId: q._id, answer: '8.0' });
            } else answers.push(rightAnswer(key));
          }
          await api.evaluate(linkId, answers);
          const view = (await api.view(linkId, me)).json().data;
          for (const a of view.answers as { questionId: string; points: number }[]) {
            const key = bank.questions.get(a.questionId)!;
            if (key.type === 'MSQ' || key.type === 'MSQ_IMAGE') expect(a.points).toBe(0);
            else expect(a.points).toBe(10);
          }
        }
      });

      it('splits multi-select points across the correct options', async () => {
        const me = await h.learner();
        const ar = await assignTo(h.db, me.id, bank);
        for (const _attempt of [1, 2]) {
          const linkId = await api.createOk(me, resourceBody(ar));
          await api.start(linkId);
          const msq = (await api.questionsOf(linkId)).filter(
            (q) => bank.questions.get(q._id)!.type === 'MSQ_IMAGE',
          );
          if (msq.length === 0) {
            // not drawn this time: the attempt fails, and the next is drawn once the cool-down is over
            await api.evaluate(linkId);
            await completedHoursAgo(linkId, 25);
            continue;
          }
          const key = bank.questions.get(msq[0]!._id)!;
          await api.evaluate(linkId, [{ questionId: key.id, answerId: key.correct.slice(0, 2) }]);
          const view = (await api.view(linkId, me)).json().data;
          const a = view.answers.find((x: { questionId: string }) => x.questionId === key.id);
          // three correct options: two of them earn 2/3 of 10
          expect(a.points).toBeCloseTo(6.67, 2);
          await completedHoursAgo(linkId, 25);
        }
      });

      it('evaluates a test whose deadline has passed with the answers it has, on access and in the sweep', async () => {
        const { me, ar } = await fresh();
        // on access
        const linkId = await api.createOk(me, resourceBody(ar, 2));
        await api.start(linkId);
        const qs = await api.questionsOf(linkId);
        for (const q of qs.slice(0, 4)) await api.answer(linkId, rightAnswer(bank.questions.get(q._id)!));
        const row = await linkRow(linkId);
        await h.db
          .update(testLinks)
          .set({
            startedAt: new Date(Date.now() - 10 * 60_000),
            deadlineAt: new Date(Date.now() - 5 * 60_000),
          })
          .where(eq(testLinks.id, row.id));
        const late = await api.answer(linkId, rightAnswer(bank.questions.get(qs[4]!._id)!));
        expect(late.statusCode).toBe(410);
        expect(late.json().errorCode).toBe('TEST_COMPLETED');
        const done = await linkRow(linkId);
        expect(done).toMatchObject({
          isCompleted: true,
          score: 40,
          percentage: 80,
          status: 'GENERATE_CERTIFICATE',
        });
        expect(done.completedIn).toBe(5 * 60);
        // answers sent with a late submission do not count
        const submitted = await api.evaluate(linkId, [rightAnswer(bank.questions.get(qs[4]!._id)!)]);
        expect(submitted.json().data.score).toBe(40);

        // in the sweep
        const swept = await api.createOk(me, resourceBody(ar, 3));
        await api.start(swept);
        const sq = await api.questionsOf(swept);
        await api.answer(swept, rightAnswer(bank.questions.get(sq[0]!._id)!));
        const sweptRow = await linkRow(swept);
        await h.db
          .update(testLinks)
          .set({ deadlineAt: new Date(Date.now() - 60_000) })
          .where(eq(testLinks.id, sweptRow.id));
        const r = await sweepLinks(h.db, new Date());
        expect(r.evaluated).toBeGreaterThanOrEqual(1);
        expect(await linkRow(swept)).toMatchObject({
          isCompleted: true,
          score: 10,
          status: 'NO_ENOUGH_MARKS',
        });
      });

      it('expires an unused link past its expiry and refuses it with LINK_EXPIRED', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar, 1));
        const row = await linkRow(linkId);
        await h.db
          .update(testLinks)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(testLinks.id, row.id));
        for (const res of [await api.load(linkId), await api.start(linkId)]) {
          expect(res.statusCode).toBe(410);
          expect(res.json()).toMatchObject({ errorCode: 'LINK_EXPIRED' });
          expect(res.json().message).toMatch(/expired/);
        }
        expect((await api.evaluate(linkId)).json().errorCode).toBe('LINK_EXPIRED');
        const list = (await api.list(me)).json().data as { linkId: string; status: string }[];
        expect(list.find((l) => l.linkId === linkId)?.status).toBe('EXPIRED');
      });

      it('keeps a custom test closed before its window (ASSESSMENT_NOT_YET_STARTED) and expired after', async () => {
        const soon = await h.db
          .insert(testLinks)
          .values({
            linkId: `custom${Date.now()}soon`,
            type: 'CUSTOM-TEST',
            userId: asha.id,
            assignedSubjectName: 'Mentor quiz',
            questionCount: 0,
            timeLimitMinutes: 60,
            startTime: new Date(Date.now() + 3600_000),
            durationHours: 1,
            expiresAt: new Date(Date.now() + 2 * 3600_000),
          })
          .returning();
        const early = await api.load(soon[0]!.linkId);
        expect(early.statusCode).toBe(403);
        expect(early.json()).toMatchObject({ errorCode: 'ASSESSMENT_NOT_YET_STARTED' });
        expect(early.json().message).toMatch(/starts at/);
        expect((await api.start(soon[0]!.linkId)).json().errorCode).toBe('ASSESSMENT_NOT_YET_STARTED');
        const past = await h.db
          .insert(testLinks)
          .values({
            linkId: `custom${Date.now()}past`,
            type: 'CUSTOM-TEST',
            userId: asha.id,
            questionCount: 0,
            timeLimitMinutes: 60,
            startTime: new Date(Date.now() - 3 * 3600_000),
            durationHours: 1,
            expiresAt: new Date(Date.now() - 2 * 3600_000),
          })
          .returning();
        const late = await api.load(past[0]!.linkId);
        expect(late.statusCode).toBe(410);
        expect(late.json().errorCode).toBe('LINK_EXPIRED');
      });

      it('completes the assigned roadmap when the final (roadmap) test earns its certificate', async () => {
        const me = await h.learner();
        const ar = await assignTo(h.db, me.id, bank);
        const failed = await api.createOk(me, { type: 'ROADMAP', assignedRoadmapId: ar });
        expect((await api.take(failed, bank, 'wrong')).status).toBe('NO_ENOUGH_MARKS');
        const [still] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.id, ar));
        expect(still!.status).toBe('ONGOING');
        // the retake, once the cool-down after the failure is over
        await completedHoursAgo(failed, 25);
        const passed = await api.createOk(me, { type: 'ROADMAP', assignedRoadmapId: ar });
        expect((await api.take(passed, bank, 'right')).status).toBe('GENERATE_CERTIFICATE');
        const [done] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.id, ar));
        expect(done).toMatchObject({ status: 'COMPLETED', finalAssesmentId: passed });
        // a completed roadmap takes no more tests
        expect((await api.create(me, resourceBody(ar))).statusCode).toBe(409);
      });
    });

    describe('isolation', () => {
      it('refuses another learner’s token and a tenant’s token on every call of a link', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar));
        const qs = await api.questionsOf(linkId);
        const a = rightAnswer(bank.questions.get(qs[0]!._id)!);
        for (const who of [ravi, mentor]) {
          expect((await api.load(linkId, who)).statusCode).toBe(403);
          expect((await api.start(linkId, who)).statusCode).toBe(403);
          expect((await api.answer(linkId, a, who)).statusCode).toBe(403);
          expect((await api.activity(linkId, 'BLUR', who)).statusCode).toBe(403);
          expect((await api.evaluate(linkId, [a], who)).statusCode).toBe(403);
        }
        expect((await linkRow(linkId)).startedAt).toBeNull();
        await api.start(linkId, me);
        await api.evaluate(linkId, [a], me);
        expect((await api.view(linkId, ravi)).statusCode).toBe(403);
        expect((await api.view(linkId, mentor)).statusCode).toBe(403);
        const feedback = await api.inject({
          method: 'POST',
          url: '/api/feedback-question/create',
          headers: ravi.headers,
          payload: {
            feedback: 'This question is unclear to me.',
            testLinkId: linkId,
            questionId: qs[0]!._id,
          },
        });
        expect(feedback.statusCode).toBe(403);
        const list = (await api.list(ravi)).json().data as { linkId: string }[];
        expect(list.some((l) => l.linkId === linkId)).toBe(false);
        expect((await api.load('no-such-link-0000')).statusCode).toBe(404);
      });
    });

    describe('after evaluation', () => {
      it('shows the answers view only once evaluated, with the correct options and points', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar, 2));
        const early = await api.view(linkId, me);
        expect(early.statusCode).toBe(409);
        expect(early.json().message).toMatch(/once the test is evaluated/);
        await api.take(linkId, bank, 'right');
        const view = await api.view(linkId, me);
        expect(view.statusCode).toBe(200);
        const data = view.json().data;
        expect(data).toMatchObject({ linkId, isCompleted: true, score: 50, status: 'GENERATE_CERTIFICATE' });
        expect(data.questions).toHaveLength(5);
        for (const q of data.questions) {
          expect(q.options.some((o: { isCorrect: boolean }) => o.isCorrect)).toBe(true);
          expect(q.explanation[0].value).toMatch(/^Why: /);
        }
        expect(data.answers.every((a: { points: number }) => a.points === 10)).toBe(true);
      });

      it('takes question feedback of 10 to 500 characters on a question of the learner’s evaluated link', async () => {
        const { me, ar } = await fresh();
        const linkId = await api.createOk(me, resourceBody(ar, 3));
        const qs = await api.questionsOf(linkId);
        const q = qs[0];
        const post = (payload: Record<string, unknown>) =>
          api.inject({
            method: 'POST',
            url: '/api/feedback-question/create',
            headers: me.headers,
            payload,
          });
        const before = await post({
          feedback: 'Too early to say anything.',
          testLinkId: linkId,
          questionId: q!._id,
        });
        expect(before.statusCode).toBe(409);
        await api.take(linkId, bank, 'right');
        const short = await post({ feedback: 'Too short', testLinkId: linkId, questionId: q!._id });
        expect(short.statusCode).toBe(400);
        expect(short.json()).toMatchObject({
          field: 'feedback',
          message: 'feedback: Feedback at least 10 characters',
        });
        const long = await post({ feedback: 'x'.repeat(501), testLinkId: linkId, questionId: q!._id });
        expect(long.json()).toMatchObject({ field: 'feedback' });
        const foreign = await post({
          feedback: 'This is not a question of this test.',
          testLinkId: linkId,
          questionId: [...bank.questions.keys()].find((id) => !qs.some((x) => x._id === id)),
        });
        expect(foreign.statusCode).toBe(400);
        expect(foreign.json().field).toBe('questionId');
        const good = await post({
          feedback: 'Option B reads ambiguously.',
          testLinkId: linkId,
          questionId: q!._id,
        });
        expect(good.statusCode).toBe(200);
      });

      it('lists the learner’s links newest first, filtered by assigned roadmap', async () => {
        const me = await h.learner();
        const ar = await assignTo(h.db, me.id, bank);
        const a = await api.createOk(me, resourceBody(ar));
        const b = await api.createOk(me, { type: 'SUBJECT', subject: bank.subjectId, lookingForJob: 'YES' });
        const c = await api.createOk(me, {
          type: 'SECTION',
          assignedRoadmapId: ar,
          sectionId: bank.sectionIds[1],
        });
        const all = (await api.list(me)).json().data as {
          linkId: string;
          type: string;
          assignedSubjectName: string;
        }[];
        expect(all.map((l) => l.linkId)).toEqual([c, b, a]);
        expect(all[1]).toMatchObject({
          type: 'SUBJECT',
          assignedSubjectName: expect.stringMatching(/^Subject /),
        });
        const filtered = (await api.list(me, ar)).json().data as { linkId: string }[];
        expect(filtered.map((l) => l.linkId)).toEqual([c, a]);
      });
    });

    describe('a resource test link by resource id', () => {
      it('creates a RESOURCE-FROM-WHATSAPP link for a resource of the learner’s roadmaps and can mail it', async () => {
        // the mail speaks the learner's language (decision 040)
        await h.db.update(users).set({ language: 'ar' }).where(eq(users.id, asha.id));
        const res = await api.inject({
          method: 'POST',
          url: `/api/testlink/resource/${bank.resourceIds[2]}/generate?send=email`,
          headers: asha.headers,
        });
        expect(res.statusCode).toBe(200);
        const { testLinkId, emailed } = res.json().data;
        expect(emailed).toBe(true);
        const row = await linkRow(testLinkId);
        expect(row).toMatchObject({
          type: 'RESOURCE-FROM-WHATSAPP',
          assignedResourceName: 'Lesson 2.1',
          questionCount: 5,
        });
        const [mail] = await h.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.to, asha.email), eq(outbox.kind, 'test-link')));
        expect(mail!.text).toContain(`/test/${testLinkId}`);
        expect(mail!.subject).toBe('رابط اختبارك لـ Lesson 2.1');
        expect(mail!.text).toContain('يبقى الرابط صالحًا');
        await h.db.update(users).set({ language: 'en' }).where(eq(users.id, asha.id));
        const quiet = await api.inject({
          method: 'POST',
          url: `/api/testlink/resource/${bank.resourceIds[2]}/generate`,
          headers: asha.headers,
        });
        expect(quiet.json().data.emailed).toBe(false);
        const outsider = await h.learner();
        const refused = await api.inject({
          method: 'POST',
          url: `/api/testlink/resource/${bank.resourceIds[2]}/generate`,
          headers: outsider.headers,
        });
        expect(refused.statusCode).toBe(404);
      });
    });

    describe('the demo seed', () => {
      it('gives the demo learner a roadmap with an earned feather, a failed section test, a certificate and a link to take, once', async () => {
        const demo = await h.learner('Demo Learner');
        const email = demo.email;
        const first = await seedDemoAssessments(h.db, { email });
        expect(first.links).toBe(4);
        const links = (await api.list(demo)).json().data as {
          type: string;
          status: string;
          isCompleted: boolean;
        }[];
        expect(links.map((l) => `${l.type} ${l.status}`).sort()).toEqual([
          'RESOURCE GENERATE_CERTIFICATE',
          'RESOURCE TAKE_TEST',
          'SECTION NO_ENOUGH_MARKS',
          'SUBJECT GENERATE_CERTIFICATE',
        ]);
        // answered within the time limit: the section test has some right answers, not just too few
        const section = (
          links as unknown as { type: string; score: number; completedIn: number; questionCount: number }[]
        ).find((l) => l.type === 'SECTION')!;
        expect(section.score).toBeGreaterThan(0);
        expect(section.completedIn).toBeLessThan(section.questionCount * 60);
        const [ar] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, demo.id));
        expect(ar!.status).toBe('ONGOING');
        expect((await seedDemoAssessments(h.db, { email })).links).toBe(0);
        expect((await api.list(demo)).json().data).toHaveLength(4);
      });
    });
  });
}
