/**
 * Test links through the HTTP API: creation at four levels, isolation between learners, the answers view
 * and feedback after evaluation, a resource's link by its id, and the demo seed. Taking a test is
 * taking.test.ts; its evaluation, evaluation.test.ts.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assignedRoadmaps } from '../catalogue/tables';
import { outbox } from '../db/schema';
import { seedDemoAssessments } from '../demo/assessments';
import { assignTo, rightAnswer } from '../test/fixtures/assessments';
import { BACKENDS, linksSuite } from '../test/fixtures/links';
import { testLinks } from './tables';

for (const backend of BACKENDS) {
  describe(`test links on ${backend}`, () => {
    const suite = linksSuite(backend);

    describe('creating test links', () => {
      it('draws and freezes questions at all four levels with sensible counts', async () => {
        const counts: Record<string, number> = {};
        const bodies = {
          RESOURCE: suite.resourceBody(suite.asharoadmap),
          SECTION: {
            type: 'SECTION',
            assignedRoadmapId: suite.asharoadmap,
            sectionId: suite.bank.sectionIds[0],
          },
          ROADMAP: { type: 'ROADMAP', assignedRoadmapId: suite.asharoadmap },
          SUBJECT: { type: 'SUBJECT', subject: suite.bank.subjectId, lookingForJob: 'IN FUTURE' },
        };
        for (const [type, body] of Object.entries(bodies)) {
          const linkId = await suite.api.createOk(suite.asha, body);
          expect(linkId).toMatch(/^[A-Za-z0-9_-]{22}$/);
          const first = await suite.api.load(linkId);
          expect(first.statusCode).toBe(200);
          const again = await suite.api.load(linkId);
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
        const me = await suite.h.learner();
        const ar = await assignTo(suite.h.db, me.id, suite.bank);
        const firstLink = await suite.api.createOk(me, suite.resourceBody(ar));
        const first = await suite.api.questionsOf(firstLink);
        // an open attempt is given back; a passed one lets a new link be drawn at once
        expect(await suite.api.createOk(me, suite.resourceBody(ar))).toBe(firstLink);
        await suite.api.take(firstLink, suite.bank, 'right');
        const second = await suite.api.questionsOf(await suite.api.createOk(me, suite.resourceBody(ar)));
        const unseen = new Set([...first, ...second].map((q) => q._id));
        // the resource has 6 questions: the second link brings the one the first left out
        expect(unseen.size).toBe(6);
        expect(new Set([...first, ...second].map((q) => q.questionType))).toEqual(
          new Set(['MCQ', 'MSQ', 'CODE_MCQ', 'MCQ_IMAGE', 'MSQ_IMAGE', 'FILL_IN_BLANK']),
        );
      });

      it('creates links only for the learner’s own roadmaps, sections and resources', async () => {
        expect((await suite.api.create(suite.asha, suite.resourceBody(suite.raviRoadmap))).statusCode).toBe(
          404,
        );
        expect(
          (await suite.api.create(suite.asha, { type: 'ROADMAP', assignedRoadmapId: suite.raviRoadmap }))
            .statusCode,
        ).toBe(404);
        const wrongSection = await suite.api.create(suite.asha, {
          type: 'RESOURCE',
          assignedRoadmapId: suite.asharoadmap,
          sectionId: suite.bank.sectionIds[1],
          resourceId: suite.bank.resourceIds[0],
        });
        expect(wrongSection.statusCode).toBe(404);
        expect(wrongSection.json().message).toMatch(/not in this section/);
        const foreignSection = await suite.api.create(suite.asha, {
          type: 'SECTION',
          assignedRoadmapId: suite.asharoadmap,
          sectionId: '00000000-0000-4000-8000-000000000000',
        });
        expect(foreignSection.statusCode).toBe(404);
        // a tenant is not a learner
        expect((await suite.api.create(suite.mentor, suite.resourceBody(suite.asharoadmap))).statusCode).toBe(
          403,
        );
        // nobody signed in
        const anonymous = await suite.api.inject({
          method: 'POST',
          url: '/api/testlink/create',
          payload: suite.resourceBody(suite.asharoadmap),
        });
        expect(anonymous.statusCode).toBe(401);
      });

      it('refuses bad input with a 400 naming the field, writing nothing', async () => {
        const before = (await suite.h.db.select().from(testLinks)).length;
        const noJob = await suite.api.create(suite.asha, { type: 'SUBJECT', subject: suite.bank.subjectId });
        expect(noJob.statusCode).toBe(400);
        expect(noJob.json().field).toBe('lookingForJob');
        const noSubject = await suite.api.create(suite.asha, { type: 'SUBJECT', lookingForJob: 'YES' });
        expect(noSubject.json().field).toBe('subject');
        const unknownSubject = await suite.api.create(suite.asha, {
          type: 'SUBJECT',
          subject: '00000000-0000-4000-8000-000000000000',
          lookingForJob: 'YES',
        });
        expect(unknownSubject.statusCode).toBe(400);
        expect(unknownSubject.json()).toMatchObject({ field: 'subject', message: 'Please select a subject' });
        const badType = await suite.api.create(suite.asha, { type: 'PUZZLE' });
        expect(badType.statusCode).toBe(400);
        expect(badType.json().field).toBe('type');
        const badId = await suite.api.create(suite.asha, { type: 'ROADMAP', assignedRoadmapId: 'nope' });
        expect(badId.json().field).toBe('assignedRoadmapId');
        // a level without questions: a clear message, nothing created
        const empty = await suite.api.create(suite.asha, {
          type: 'SUBJECT',
          subject: suite.bank.emptySubjectId,
          lookingForJob: 'NO',
        });
        expect(empty.statusCode).toBe(400);
        expect(empty.json()).toMatchObject({ field: 'subject' });
        // in the learner’s language (their roadmap’s), which has none for this subject
        expect(empty.json().message).toMatch(/^There are no questions for this subject in Language \w+ yet/);
        const barren = await suite.api.create(suite.asha, {
          type: 'RESOURCE',
          assignedRoadmapId: suite.asharoadmap,
          sectionId: suite.bank.sectionIds[1],
          resourceId: suite.bank.barrenResourceId,
        });
        expect(barren.statusCode).toBe(400);
        expect(barren.json().field).toBe('resourceId');
        expect((await suite.h.db.select().from(testLinks)).length).toBe(before);
      });
    });

    describe('isolation', () => {
      it('refuses another learner’s token and a tenant’s token on every call of a link', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar));
        const qs = await suite.api.questionsOf(linkId);
        const a = rightAnswer(suite.bank.questions.get(qs[0]!._id)!);
        for (const who of [suite.ravi, suite.mentor]) {
          expect((await suite.api.load(linkId, who)).statusCode).toBe(403);
          expect((await suite.api.start(linkId, who)).statusCode).toBe(403);
          expect((await suite.api.answer(linkId, a, who)).statusCode).toBe(403);
          expect((await suite.api.activity(linkId, 'BLUR', who)).statusCode).toBe(403);
          expect((await suite.api.evaluate(linkId, [a], who)).statusCode).toBe(403);
        }
        expect((await suite.linkRow(linkId)).startedAt).toBeNull();
        await suite.api.start(linkId, me);
        await suite.api.evaluate(linkId, [a], me);
        expect((await suite.api.view(linkId, suite.ravi)).statusCode).toBe(403);
        expect((await suite.api.view(linkId, suite.mentor)).statusCode).toBe(403);
        const feedback = await suite.api.inject({
          method: 'POST',
          url: '/api/feedback-question/create',
          headers: suite.ravi.headers,
          payload: {
            feedback: 'This question is unclear to me.',
            testLinkId: linkId,
            questionId: qs[0]!._id,
          },
        });
        expect(feedback.statusCode).toBe(403);
        const list = (await suite.api.list(suite.ravi)).json().data as { linkId: string }[];
        expect(list.some((l) => l.linkId === linkId)).toBe(false);
        expect((await suite.api.load('no-such-link-0000')).statusCode).toBe(404);
      });
    });

    describe('after evaluation', () => {
      it('shows the answers view only once evaluated, with the correct options and points', async () => {
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar, 2));
        const early = await suite.api.view(linkId, me);
        expect(early.statusCode).toBe(409);
        expect(early.json().message).toMatch(/once the test is evaluated/);
        await suite.api.take(linkId, suite.bank, 'right');
        const view = await suite.api.view(linkId, me);
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
        const { me, ar } = await suite.fresh();
        const linkId = await suite.api.createOk(me, suite.resourceBody(ar, 3));
        const qs = await suite.api.questionsOf(linkId);
        const q = qs[0];
        const post = (payload: Record<string, unknown>) =>
          suite.api.inject({
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
        await suite.api.take(linkId, suite.bank, 'right');
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
          questionId: [...suite.bank.questions.keys()].find((id) => !qs.some((x) => x._id === id)),
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
        const me = await suite.h.learner();
        const ar = await assignTo(suite.h.db, me.id, suite.bank);
        const a = await suite.api.createOk(me, suite.resourceBody(ar));
        const b = await suite.api.createOk(me, {
          type: 'SUBJECT',
          subject: suite.bank.subjectId,
          lookingForJob: 'YES',
        });
        const c = await suite.api.createOk(me, {
          type: 'SECTION',
          assignedRoadmapId: ar,
          sectionId: suite.bank.sectionIds[1],
        });
        const all = (await suite.api.list(me)).json().data as {
          linkId: string;
          type: string;
          assignedSubjectName: string;
        }[];
        expect(all.map((l) => l.linkId)).toEqual([c, b, a]);
        expect(all[1]).toMatchObject({
          type: 'SUBJECT',
          assignedSubjectName: expect.stringMatching(/^Subject /),
        });
        const filtered = (await suite.api.list(me, ar)).json().data as { linkId: string }[];
        expect(filtered.map((l) => l.linkId)).toEqual([c, a]);
      });
    });

    describe('a resource test link by resource id', () => {
      it('creates a RESOURCE-FROM-WHATSAPP link for a resource of the learner’s roadmaps and can mail it', async () => {
        const res = await suite.api.inject({
          method: 'POST',
          url: `/api/testlink/resource/${suite.bank.resourceIds[2]}/generate?send=email`,
          headers: suite.asha.headers,
        });
        expect(res.statusCode).toBe(200);
        const { testLinkId, emailed } = res.json().data;
        expect(emailed).toBe(true);
        const row = await suite.linkRow(testLinkId);
        expect(row).toMatchObject({
          type: 'RESOURCE-FROM-WHATSAPP',
          assignedResourceName: 'Lesson 2.1',
          questionCount: 5,
        });
        const [mail] = await suite.h.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.to, suite.asha.email), eq(outbox.kind, 'test-link')));
        expect(mail!.text).toContain(`/test/${testLinkId}`);
        const quiet = await suite.api.inject({
          method: 'POST',
          url: `/api/testlink/resource/${suite.bank.resourceIds[2]}/generate`,
          headers: suite.asha.headers,
        });
        expect(quiet.json().data.emailed).toBe(false);
        const outsider = await suite.h.learner();
        const refused = await suite.api.inject({
          method: 'POST',
          url: `/api/testlink/resource/${suite.bank.resourceIds[2]}/generate`,
          headers: outsider.headers,
        });
        expect(refused.statusCode).toBe(404);
      });
    });

    describe('the demo seed', () => {
      it('gives the demo learner a roadmap with an earned feather, a failed section test, a certificate and a link to take, once', async () => {
        const demo = await suite.h.learner('Demo Learner');
        const email = demo.email;
        const first = await seedDemoAssessments(suite.h.db, { email });
        expect(first.links).toBe(4);
        const links = (await suite.api.list(demo)).json().data as {
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
        const [ar] = await suite.h.db
          .select()
          .from(assignedRoadmaps)
          .where(eq(assignedRoadmaps.userId, demo.id));
        expect(ar!.status).toBe('ONGOING');
        expect((await seedDemoAssessments(suite.h.db, { email })).links).toBe(0);
        expect((await suite.api.list(demo)).json().data).toHaveLength(4);
      });
    });
  });
}
