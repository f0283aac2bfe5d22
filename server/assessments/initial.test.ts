/**
 * The prerequisite (initial) assessment through the HTTP API: drawing from each prerequisite, the taker's
 * payload without any correctness data, who may read and evaluate it, scoring on the server, the
 * learner's roadmap with the weak prerequisites' sections first, and evaluating twice.
 */
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignedRoadmaps, assignedSections, sections } from '../catalogue/tables';
import { questionOptions } from '../questions/tables';
import { answerTo, buildFixture, type Fixture } from '../test/fixtures/catalogue';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';
import { testAnswers, testLinkQuestions, testLinks } from './tables';

for (const backend of BACKENDS) {
  describe(`the prerequisite assessment on ${backend}`, () => {
    let h: Harness;
    let f: Fixture;
    let mentor: Person;

    beforeAll(async () => {
      h = await openHarness(backend);
      f = await buildFixture(h.db);
      mentor = await h.tenant('Mira');
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    });

    const call = (method: 'GET' | 'POST' | 'PUT', url: string, who?: Person, payload?: object) =>
      h.app.inject({ method, url, headers: who?.headers, payload });
    const generate = (roadmapId: string, who?: Person) =>
      call('POST', `/api/roadmap/generate-initial-assessment-questions/${roadmapId}`, who);
    const load = (linkId: string, who?: Person) => call('GET', `/api/roadmap/assessment/${linkId}`, who);
    const evaluate = (linkId: string, answers: object[], who?: Person) =>
      call('POST', '/api/roadmap/evaluvate-and-create-roadmap', who, { linkId, answers });
    async function newLink(who?: Person): Promise<string> {
      const res = await generate(f.beta.id, who);
      expect(res.statusCode).toBe(200);
      return res.json().data.linkId;
    }
    async function linkRow(linkId: string) {
      const [row] = await h.db.select().from(testLinks).where(eq(testLinks.linkId, linkId));
      return row!;
    }
    /** Answers every question: right for the prerequisites in `right`, wrong for the others. */
    async function answersFor(linkId: string, right: string[], who?: Person) {
      const qs = (await load(linkId, who)).json().data.questions as { _id: string }[];
      return qs.map((q) => {
        const key = f.bank.get(q._id)!;
        return answerTo(key, right.includes(key.roadmapId));
      });
    }
    async function sectionNamesOf(assignedId: string) {
      const rows = await h.db
        .select({ name: sections.name })
        .from(assignedSections)
        .innerJoin(sections, eq(sections.id, assignedSections.sectionId))
        .where(eq(assignedSections.assignedRoadmapId, assignedId))
        .orderBy(assignedSections.position);
      return rows.map((r) => r.name);
    }

    describe('drawing', () => {
      it('draws up to 5 published questions from each prerequisite, frozen with their option order', async () => {
        const linkId = await newLink();
        expect(linkId).toMatch(/^[A-Za-z0-9_-]{22}$/);
        const link = await linkRow(linkId);
        expect(link).toMatchObject({
          type: 'INITIAL-ASSESSMENT',
          userId: null,
          roadmapId: f.beta.id,
          questionCount: 8,
          isCompleted: false,
        });
        const frozen = await h.db
          .select()
          .from(testLinkQuestions)
          .where(eq(testLinkQuestions.testLinkId, link.id));
        const per = (id: string) => frozen.filter((q) => q.roadmapId === id).length;
        // Alpha has 6 published questions (one more in PREVIEW), Gamma 3
        expect(per(f.alpha.id)).toBe(5);
        expect(per(f.gamma.id)).toBe(3);
        for (const q of frozen) {
          const key = f.bank.get(q.questionId);
          expect(key, 'only published questions are drawn').toBeDefined();
          expect(key!.roadmapId).toBe(q.roadmapId);
          if (key!.type === 'FILL_IN_BLANK') expect(q.optionOrder).toEqual([]);
          else expect([...q.optionOrder].sort()).toEqual(key!.options.map((o) => o.id).sort());
        }
      });

      it('gives the taker no correctness data at all', async () => {
        const linkId = await newLink();
        const res = await load(linkId);
        expect(res.statusCode).toBe(200);
        const text = res.body;
        for (const secret of ['isCorrect', 'explanation', 'SECRET-EXPLANATION', 'correct', 'points":0']) {
          expect(text).not.toContain(secret);
        }
        const data = res.json().data;
        expect(data).toMatchObject({
          linkId,
          roadmapId: f.beta.id,
          roadmapName: f.beta.name,
          answers: [],
          isCompleted: false,
        });
        expect(data.questions).toHaveLength(8);
        for (const q of data.questions) {
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
          expect([f.alpha.name, f.gamma.name]).toContain(q.roadmapName);
          for (const o of q.options) expect(Object.keys(o).sort()).toEqual(['_id', 'value']);
          if (q.questionType === 'FILL_IN_BLANK') expect(q.options).toEqual([]);
        }
        // grouped by prerequisite, in the prerequisites' order (Alpha, then Gamma)
        const order = data.questions.map((q: { roadmapId: string }) => q.roadmapId);
        expect(order).toEqual([...Array(5).fill(f.alpha.id), ...Array(3).fill(f.gamma.id)]);
      });

      it('refuses a roadmap without prerequisites, prerequisites without questions, and mentors', async () => {
        const none = await generate(f.alpha.id);
        expect(none.statusCode).toBe(400);
        expect(none.json().message).toBe('This roadmap has no prerequisites: you can assign it directly.');
        const empty = await generate(f.epsilon.id);
        expect(empty.statusCode).toBe(400);
        expect(empty.json().message).toBe(
          'There are no questions for the prerequisites of this roadmap yet. Please try again later.',
        );
        expect((await generate(f.beta.id, mentor)).statusCode).toBe(403);
        expect((await generate(f.hiddenId)).statusCode).toBe(404);
        expect((await generate('beta')).statusCode).toBe(400);
      });
    });

    describe('who may read and evaluate', () => {
      it("a signed-in learner's assessment is theirs alone; an anonymous one belongs to whoever holds the link", async () => {
        const asha = await h.learner();
        const ravi = await h.learner();
        const mine = await newLink(asha);
        expect((await linkRow(mine)).userId).toBe(asha.id);
        expect((await load(mine, asha)).statusCode).toBe(200);
        expect((await load(mine, ravi)).statusCode).toBe(403);
        expect((await load(mine)).statusCode).toBe(403);
        expect((await evaluate(mine, [], ravi)).statusCode).toBe(403);
        expect((await evaluate(mine, [])).statusCode).toBe(403);
        expect((await linkRow(mine)).isCompleted).toBe(false);

        const anon = await newLink();
        expect((await load(anon)).statusCode).toBe(200);
        expect((await load(anon, ravi)).statusCode).toBe(200);
        expect((await evaluate(anon, [], mentor)).statusCode).toBe(403);
      });

      it('404 for an unknown link or a link of another type', async () => {
        expect((await load('doesNotExistAtAll12345')).statusCode).toBe(404);
        await h.db.insert(testLinks).values({ linkId: 'someResourceLink123456', type: 'RESOURCE' });
        const res = await load('someResourceLink123456');
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Assessment not found');
        expect((await load('short')).statusCode).toBe(400);
      });
    });

    describe('evaluation', () => {
      it('scores on the server and puts the sections of prerequisites below 60 % first', async () => {
        const asha = await h.learner();
        const linkId = await newLink(asha);
        const answers = await answersFor(linkId, [f.alpha.id], asha);
        const res = await evaluate(linkId, answers, asha);
        expect(res.statusCode).toBe(200);
        const data = res.json().data;
        expect(data).toMatchObject({
          roadmapId: f.beta.id,
          name: f.beta.name,
          status: 'ONGOING',
          userId: asha.id,
        });
        expect(data.prerequisiteScores).toEqual([
          { roadmapId: f.alpha.id, roadmapName: f.alpha.name, percentage: 100 },
          { roadmapId: f.gamma.id, roadmapName: f.gamma.name, percentage: 0 },
        ]);
        // Gamma (0 %) comes first, Alpha (100 %) is left out, then Beta's own section
        expect(await sectionNamesOf(data._id)).toEqual(['Consultas', 'Types']);
        const [row] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.id, data._id));
        expect(row).toMatchObject({ source: 'INITIAL_ASSESSMENT', prerequisites: 'ASSESSED' });

        // the preview shows the learner the result, and that it is theirs
        const preview = (await call('GET', `/api/roadmap/assigned-roadmap-noauth/${data._id}`, asha)).json()
          .data;
        expect(preview).toMatchObject({ claimed: true, mine: true });
        expect(preview.prerequisiteResults).toEqual(data.prerequisiteScores);
        // to anybody else it is a claimed roadmap, without the learner's result
        const other = await h.learner();
        for (const who of [other, undefined]) {
          const seen = (await call('GET', `/api/roadmap/assigned-roadmap-noauth/${data._id}`, who)).json()
            .data;
          expect(seen).toMatchObject({ claimed: true, mine: false, prerequisiteResults: null });
        }

        const link = await linkRow(linkId);
        expect(link).toMatchObject({
          isCompleted: true,
          score: 50,
          percentage: 62.5,
          assignedRoadmapId: data._id,
        });
        const stored = await h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, link.id));
        expect(stored).toHaveLength(8);
        expect(stored.filter((a) => Number(a.points) === 10)).toHaveLength(5);

        // the learner's copy shows the personalised order too
        const mine = (await call('GET', `/api/roadmap/assigned-roadmap/${data._id}`, asha)).json().data;
        expect(mine.sections.map((s: { name: string }) => s.name)).toEqual(['Consultas', 'Types']);

        // answers are kept for a reload, without their points
        const reload = (await load(linkId, asha)).json().data;
        expect(reload.isCompleted).toBe(true);
        expect(reload.answers).toHaveLength(8);
        for (const a of reload.answers) expect(a).not.toHaveProperty('points');
      });

      it('all prerequisites failed: all their sections first, in the prerequisites order', async () => {
        const asha = await h.learner();
        const linkId = await newLink(asha);
        const res = await evaluate(linkId, await answersFor(linkId, [], asha), asha);
        expect(await sectionNamesOf(res.json().data._id)).toEqual([
          'Basics',
          'Functions',
          'Consultas',
          'Types',
        ]);
      });

      it('MSQ partial credit counts through the shared rules', async () => {
        const asha = await h.learner();
        const linkId = await newLink(asha);
        const answers = await answersFor(linkId, [f.alpha.id, f.gamma.id], asha);
        const gammaMsq = answers.find(
          (a) => f.bank.get(a.questionId)!.type === 'MSQ' && a.roadmapId === f.gamma.id,
        )!;
        gammaMsq.answerId = [(gammaMsq.answerId as string[])[0]!];
        const scores = (await evaluate(linkId, answers, asha)).json().data.prerequisiteScores;
        // Gamma: 10 + 10 + 5 of 30
        expect(scores[1].percentage).toBe(83.33);
      });

      it('evaluating twice gives the same result and never a second roadmap', async () => {
        const asha = await h.learner();
        const linkId = await newLink(asha);
        const first = (await evaluate(linkId, await answersFor(linkId, [f.gamma.id], asha), asha)).json()
          .data;
        const second = await evaluate(linkId, await answersFor(linkId, [f.alpha.id, f.gamma.id], asha), asha);
        expect(second.statusCode).toBe(200);
        expect(second.json().data).toEqual(first);
        const concurrent = await Promise.all([1, 2, 3].map(() => evaluate(linkId, [], asha)));
        for (const r of concurrent) expect(r.json().data._id).toBe(first._id);
        expect(
          await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, asha.id)),
        ).toHaveLength(1);
      });

      it('concurrent first evaluations create one roadmap', async () => {
        const linkId = await newLink();
        const answers = await answersFor(linkId, []);
        const results = await Promise.all([1, 2, 3].map(() => evaluate(linkId, answers)));
        const ids = new Set(results.map((r) => r.json().data._id));
        expect(ids.size).toBe(1);
      });

      it('anonymous: creates an unclaimed roadmap that the learner claims after signing in', async () => {
        const linkId = await newLink();
        const res = await evaluate(linkId, await answersFor(linkId, [f.alpha.id, f.gamma.id]));
        expect(res.statusCode).toBe(200);
        const data = res.json().data;
        expect(data.userId).toBeNull();
        expect(await sectionNamesOf(data._id)).toEqual(['Types']);
        // whoever holds the unclaimed roadmap sees the result of its assessment
        const preview = (await call('GET', `/api/roadmap/assigned-roadmap-noauth/${data._id}`)).json().data;
        expect(preview).toMatchObject({ claimed: false, mine: false });
        expect(preview.prerequisiteResults).toEqual([
          { roadmapId: f.alpha.id, roadmapName: f.alpha.name, percentage: 100 },
          { roadmapId: f.gamma.id, roadmapName: f.gamma.name, percentage: 100 },
        ]);
        const asha = await h.learner();
        const claimed = await call('PUT', `/api/roadmap/assign-user-to-roadmap/${data._id}`, asha);
        expect(claimed.statusCode).toBe(201);
        expect((await linkRow(linkId)).userId).toBe(asha.id);
        // now it is Asha's: the link id alone no longer opens it
        expect((await load(linkId)).statusCode).toBe(403);
        expect((await load(linkId, asha)).statusCode).toBe(200);
      });

      it('an anonymous assessment evaluated after signing in becomes the learner’s at once', async () => {
        const linkId = await newLink();
        const asha = await h.learner();
        const data = (await evaluate(linkId, await answersFor(linkId, []), asha)).json().data;
        expect(data.userId).toBe(asha.id);
        expect((await linkRow(linkId)).userId).toBe(asha.id);
      });

      it('bad answers are refused naming the field, and nothing is written', async () => {
        const asha = await h.learner();
        const linkId = await newLink(asha);
        const answers = await answersFor(linkId, [f.alpha.id], asha);
        const wrongRoadmap = answers.map((a, i) => (i === 2 ? { ...a, roadmapId: f.beta.id } : a));
        const r1 = await evaluate(linkId, wrongRoadmap, asha);
        expect(r1.statusCode).toBe(400);
        expect(r1.json().field).toBe('answers.2.roadmapId');
        const foreign = answers.map((a, i) => (i === 1 ? { ...a, questionId: f.alpha.id } : a));
        const r2 = await evaluate(linkId, foreign, asha);
        expect(r2.statusCode).toBe(400);
        expect(r2.json().field).toBe('answers.1.questionId');
        const choice = answers.findIndex((a) =>
          ['MCQ', 'CODE_MCQ', 'MCQ_IMAGE'].includes(f.bank.get(a.questionId)!.type),
        );
        const [someOption] = await h.db
          .select({ id: questionOptions.id })
          .from(questionOptions)
          .where(ne(questionOptions.questionId, answers[choice]!.questionId))
          .limit(1);
        const badOption = answers.map((a, i) => (i === choice ? { ...a, answerId: someOption!.id } : a));
        const r3 = await evaluate(linkId, badOption, asha);
        expect(r3.statusCode).toBe(400);
        expect(r3.json().field).toBe(`answers.${choice}.answerId`);
        expect((await evaluate(linkId, [{ questionId: 'x' }], asha)).json().field).toBe(
          'answers.0.questionId',
        );

        const link = await linkRow(linkId);
        expect(link.isCompleted).toBe(false);
        expect(await h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, link.id))).toHaveLength(
          0,
        );
        expect(
          await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, asha.id)),
        ).toHaveLength(0);
      });

      it('a learner with two ongoing roadmaps is refused before anything is written', async () => {
        const asha = await h.learner();
        for (const id of [f.alpha.id, f.gamma.id]) {
          await call('POST', '/api/roadmap/assign-roadmap', asha, { roadmapId: id });
        }
        const linkId = await newLink(asha);
        const res = await evaluate(linkId, await answersFor(linkId, [], asha), asha);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe('Can only learn two roadmaps at a time.');
        expect((await linkRow(linkId)).isCompleted).toBe(false);
      });

      it('a learner who has the roadmap already keeps their copy', async () => {
        const asha = await h.learner();
        const first = await newLink(asha);
        const existing = (await evaluate(first, await answersFor(first, [f.alpha.id], asha), asha)).json()
          .data._id;
        const linkId = await newLink(asha);
        const res = await evaluate(linkId, await answersFor(linkId, [], asha), asha);
        expect(res.statusCode).toBe(200);
        expect(res.json().data._id).toBe(existing);
        expect((await linkRow(linkId)).assignedRoadmapId).toBe(existing);
      });
    });
  });
}
