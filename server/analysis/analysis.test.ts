/**
 * Item analysis through the HTTP API (issue 30): a mentor's assessment taken by learners (autosaved answers,
 * then the whole sheet submitted), its statistics, the question table as a file, the question bank's column
 * and one question's figures; the figures of a fixed response matrix checked against simple-statistics after
 * the database has added them up; each attempt counted once however many folds run at once; and who may see
 * them — another tenant (404), a learner (403), nobody signed in (401), the platform's staff for its own tests.
 */

import { randomUUID } from 'node:crypto';
import { attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import { and, eq } from 'drizzle-orm';
import * as ss from 'simple-statistics';
import { beforeAll, describe, expect, it } from 'vitest';
import { testAnswers, testLinkQuestions, testLinks } from '../assessments/tables';
import { tenantAssessmentQuestions } from '../authoring/tables';
import { tenantUsers } from '../db/schema';
import { questionOptions } from '../questions/tables';
import { authoringApi, questionBody, type SubjectFixture, seedSubject } from '../test/fixtures/authoring';
import type { Person } from '../test/harness';
import { type Json, setupServer, uniqueEmail } from '../test/helper';
import { catchUp, foldJob, foldLinks } from './fold';
import { itemAttempts, itemSums } from './tables';

const STAFF = uniqueEmail('staff');
const server = setupServer({ env: { PLATFORM_STAFF_EMAILS: STAFF } });
const api = authoringApi(server);
const { call, ok } = api;
const STEP = 15 * 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('item analysis', () => {
  let mentor: Person;
  let rival: Person;
  let learner: Person;
  let staff: Person;
  let s: SubjectFixture;
  let taken: string;
  const qs: string[] = [];

  /** The options of a question, in order, with their correctness. */
  const optionsOf = async (questionId: string) =>
    server.db
      .select({ id: questionOptions.id, isCorrect: questionOptions.isCorrect })
      .from(questionOptions)
      .where(eq(questionOptions.questionId, questionId))
      .orderBy(questionOptions.position);

  beforeAll(async () => {
    [mentor, rival, learner] = await Promise.all([
      api.person('TENANT', 'Mira Mentor'),
      api.person('TENANT', 'Rex Rival'),
      api.person('USER', 'Lena Learner'),
    ]);
    const signed = await server.signedIn('USER', { email: STAFF, name: 'Sam Staff' });
    staff = { id: signed.user._id, email: STAFF, headers: { authorization: `Bearer ${signed.token}` } };
    s = await seedSubject(server);
    taken = await api.createAssessment(mentor, 'Taken through the API');
    for (let i = 0; i < 10; i++) {
      qs.push(
        await api.publishQuestion(
          mentor,
          questionBody(i === 9 ? 'MSQ' : 'MCQ', s, { question: `Question ${i + 1}` }),
          taken,
        ),
      );
    }
  });

  describe('an assessment taken by learners', () => {
    const learners: { id: string; email: string }[] = [];
    const links = new Map<string, string>();

    beforeAll(async () => {
      for (let i = 0; i < 3; i++) learners.push(await api.quietLearner(`Taker ${i}`));
      await server.db
        .insert(tenantUsers)
        .values(learners.map((l) => ({ tenantId: mentor.id, learnerId: l.id })));
      const startTime = Math.ceil((Date.now() + 5 * 60_000) / STEP) * STEP;
      await ok('PUT', `/tenant/assessment/${taken}/assign-users`, mentor, {
        userIds: learners.map((l) => l.id),
        createdAt: Date.now(),
        startTime,
        duration: 1,
      });
      // the window opens now rather than at the next quarter hour
      await server.db
        .update(testLinks)
        .set({ startTime: new Date(Date.now() - 60_000) })
        .where(eq(testLinks.tenantAssessmentId, taken));
      const rows = await server.db
        .select({ userId: testLinks.userId, linkId: testLinks.linkId })
        .from(testLinks)
        .where(eq(testLinks.tenantAssessmentId, taken));
      for (const r of rows) links.set(r.userId!, r.linkId);
    });

    it('times each autosaved answer, and the submission keeps those times', async () => {
      // taker 0: everything right; taker 1: the first five right; taker 2: everything wrong
      for (const [t, learnerRow] of learners.entries()) {
        const linkId = links.get(learnerRow.id)!;
        // the taker's browser holds the attempt's token, sent with the start and every write (decision 031)
        const headers = attemptHeaders(newAttemptToken());
        const start = await server.app.inject({
          method: 'PUT',
          url: `/api/testlink/verify/${linkId}`,
          headers,
        });
        expect(start.statusCode).toBe(200);
        const answers: Json[] = [];
        for (const [i, q] of qs.entries()) {
          const options = await optionsOf(q);
          const right = t === 0 || (t === 1 && i < 5);
          const chosen = options.filter((o) => o.isCorrect === right).map((o) => o.id);
          answers.push({ questionId: q, answerId: i === 9 ? chosen : chosen[0] });
        }
        // the first two answers are saved as given, a little apart; the rest come with the submission
        for (const a of answers.slice(0, 2)) {
          const saved = await server.app.inject({
            method: 'PUT',
            url: `/api/testlink/${linkId}/answer`,
            headers,
            payload: a,
          });
          expect(saved.statusCode).toBe(200);
          await sleep(300);
        }
        // an answer saved a moment before the submission is told apart from one saved by it
        await sleep(1_000);
        const done = await server.app.inject({
          method: 'POST',
          url: '/api/testlink/evaluvate/v2',
          headers,
          payload: { linkId, answers },
        });
        expect(done.statusCode).toBe(200);
      }
      const link = await server.db
        .select({ id: testLinks.id })
        .from(testLinks)
        .where(eq(testLinks.linkId, links.get(learners[0]!.id)!));
      const saved = await server.db
        .select({
          q: testAnswers.questionId,
          first: testAnswers.firstAnsweredAt,
          last: testAnswers.answeredAt,
        })
        .from(testAnswers)
        .where(eq(testAnswers.testLinkId, link[0]!.id));
      const second = saved.find((a) => a.q === qs[1])!;
      // the submission rewrote answered_at; the first save's time stands
      expect(second.first!.getTime()).toBeLessThan(second.last.getTime());

      const stats = await ok('GET', `/tenant/assessment/${taken}/stats`, mentor);
      expect(stats.summary.attempts).toBe(3);
      expect(stats.summary.takers).toBe(3);
      expect(stats.summary.smallSample).toBe(true);
      expect(stats.questions.map((q: Json) => q.questionId)).toEqual(qs);
      const second$ = stats.questions[1].figures;
      expect(second$.timedAttempts).toBe(3);
      expect(second$.averageSeconds).toBeGreaterThan(0.2);
      expect(second$.averageSeconds).toBeLessThan(10);
      // answers first saved by the submission have no time
      expect(stats.questions[5].figures.timedAttempts).toBe(0);
    });

    it('gives the facility of each question and the score figures of the assessment', async () => {
      const stats = await ok('GET', `/tenant/assessment/${taken}/stats`, mentor);
      expect(stats.questions[0].figures.facility).toBeCloseTo(2 / 3, 10);
      expect(stats.questions[7].figures.facility).toBeCloseTo(1 / 3, 10);
      expect(stats.questions[0].figures.flags).toEqual([]);
      expect(stats.summary.score.mean).toBeCloseTo(ss.mean([100, 50, 0]), 10);
      expect(stats.summary.score.median).toBe(50);
      expect(stats.summary.passRate).toBeCloseTo(1 / 3, 10);
      expect(stats.summary.histogram).toHaveLength(10);
      expect(
        stats.summary.histogram[0].count +
          stats.summary.histogram[5].count +
          stats.summary.histogram[9].count,
      ).toBe(3);
      expect(stats.summary.reliability.method).toBe('ALPHA');
      const opts = stats.questions[0].figures.options as Json[];
      expect(opts.find((o) => o.isKey).share).toBeCloseTo(2 / 3, 10);
      expect(opts.at(-1).option).toBe('none');
    });

    it('exports the question table as CSV and NDJSON', async () => {
      const csv = await server.app.inject({
        method: 'GET',
        url: `/api/tenant/assessment/${taken}/stats/export`,
        headers: mentor.headers,
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.headers['content-disposition']).toMatch(/assessment-statistics.*\.csv/);
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe(
        'Position,Question,Type,Attempts,Facility,Discrimination,Average time (s),Small sample,Flags,Options',
      );
      expect(lines).toHaveLength(11);
      expect(lines[1]).toMatch(/^1,Question 1,MCQ,3,0\.667,/);
      const nd = await server.app.inject({
        method: 'GET',
        url: `/api/tenant/assessment/${taken}/stats/export?format=ndjson`,
        headers: mentor.headers,
      });
      const first = JSON.parse(nd.body.split('\n')[0]!);
      expect(first).toMatchObject({ Position: 1, Attempts: 3, Type: 'MCQ' });
    });

    it('shows the bank column and one question’s figures, per assessment', async () => {
      const bank = await ok('GET', '/tenant/question/stats', mentor);
      const row = bank.questions.find((q: Json) => q.questionId === qs[0]);
      expect(row.figures.attempts).toBe(3);
      expect(bank.attempts).toBeGreaterThanOrEqual(3);
      const one = await ok('GET', `/tenant/question/${qs[0]}/stats`, mentor);
      expect(one.overall.attempts).toBe(3);
      expect(one.byAssessment).toEqual([
        expect.objectContaining({ assessmentId: taken, name: 'Taken through the API' }),
      ]);
    });

    it('is the assessment’s tenant’s only: another tenant 404, a learner 403, nobody 401', async () => {
      for (const url of [`/tenant/assessment/${taken}/stats`, `/tenant/assessment/${taken}/stats/export`]) {
        const other = await call('GET', url, rival);
        expect(other.status, url).toBe(404);
        expect(other.body.message).toBe('Assessment not found');
        expect((await call('GET', url, learner)).status, url).toBe(403);
        expect((await call('GET', url)).status, url).toBe(401);
      }
      // another tenant reading the question (it is published) sees only their own submissions: none
      const one = await ok('GET', `/tenant/question/${qs[0]}/stats`, rival);
      expect(one.overall.attempts).toBe(0);
      expect(one.byAssessment).toEqual([]);
      const bank = await ok('GET', '/tenant/question/stats', rival);
      expect(bank.questions.find((q: Json) => q.questionId === qs[0])).toBeUndefined();
      expect((await call('GET', '/tenant/question/stats', learner)).status).toBe(403);
      expect((await call('GET', `/tenant/question/${qs[0]}/stats`, learner)).status).toBe(403);
    });
  });

  describe('a fixed response matrix added up by the database', () => {
    // 40 takers × 5 single-choice questions: 1 right, 0 wrong; each taker's choice of option per question
    const N = 40;
    const cell = (i: number, j: number): number => ((i * 7 + j * 3) % 10 < 4 + j ? 1 : 0) || (i < 6 ? 1 : 0);
    const matrix = Array.from({ length: N }, (_, i) => Array.from({ length: 5 }, (_, j) => cell(i, j)));
    let matrixAssessment: string;
    const mq: string[] = [];
    const linkIds: string[] = [];

    beforeAll(async () => {
      matrixAssessment = await api.createAssessment(mentor, 'Matrix');
      for (let j = 0; j < 5; j++) {
        mq.push(
          await api.publishQuestion(
            mentor,
            questionBody('MCQ', s, { question: `Matrix ${j + 1}` }),
            matrixAssessment,
          ),
        );
      }
      const options = await Promise.all(mq.map(optionsOf));
      const completedAt = new Date(Date.now() - 3600_000);
      for (let i = 0; i < N; i++) {
        const score = matrix[i]!.reduce((a, b) => a + b, 0) * 10;
        const [link] = await server.db
          .insert(testLinks)
          .values({
            linkId: `matrix-${randomUUID()}`,
            type: 'CUSTOM-TEST',
            userId: null,
            tenantAssessmentId: matrixAssessment,
            assignedSubjectName: 'Matrix',
            status: score >= 30 ? 'GENERATE_CERTIFICATE' : 'NO_ENOUGH_MARKS',
            isCompleted: true,
            score,
            percentage: score * 2,
            questionCount: 5,
            startedAt: new Date(completedAt.getTime() - 300_000),
            completedAt,
            completedIn: 120 + i,
          })
          .returning({ id: testLinks.id });
        linkIds.push(link!.id);
        await server.db
          .insert(testLinkQuestions)
          .values(mq.map((q, j) => ({ testLinkId: link!.id, questionId: q, position: j, optionOrder: [] })));
        await server.db.insert(testAnswers).values(
          mq.map((q, j) => {
            const right = matrix[i]![j] === 1;
            // a wrong answer picks the second option, or the third for every third taker
            const o = right ? options[j]![0]! : options[j]![i % 3 === 0 ? 2 : 1]!;
            return { testLinkId: link!.id, questionId: q, answerIds: [o.id], points: right ? 10 : 0 };
          }),
        );
      }
    });

    it('counts each attempt once, however many folds run at once', async () => {
      const now = new Date();
      await Promise.all([
        foldJob(server.db, now),
        catchUp(server.db, now),
        foldLinks(server.db, linkIds),
        foldLinks(server.db, linkIds),
      ]);
      await foldJob(server.db, now);
      const attempts = await server.db
        .select({ id: itemAttempts.testLinkId })
        .from(itemAttempts)
        .where(eq(itemAttempts.testKey, `CUSTOM-TEST:${matrixAssessment}`));
      expect(attempts).toHaveLength(N);
      const sums = await server.db
        .select({ n: itemSums.n })
        .from(itemSums)
        .where(and(eq(itemSums.testKey, `CUSTOM-TEST:${matrixAssessment}`), eq(itemSums.questionId, mq[0]!)));
      expect(sums[0]!.n).toBe(N);
    });

    it('gives the facility, point-biserial and KR-20 that simple-statistics computes from the matrix', async () => {
      const stats = await ok('GET', `/tenant/assessment/${matrixAssessment}/stats`, mentor);
      expect(stats.summary.attempts).toBe(N);
      const totals = matrix.map((r) => ss.sum(r));
      for (let j = 0; j < 5; j++) {
        const col = matrix.map((r) => r[j]!);
        const rest = matrix.map((r) => (ss.sum(r) - r[j]!) / 4);
        const f = stats.questions[j].figures;
        expect(f.facility).toBeCloseTo(ss.mean(col), 10);
        expect(f.discrimination).toBeCloseTo(ss.sampleCorrelation(col, rest), 8);
        expect(f.smallSample).toBe(false);
      }
      const pq = ss.sum(
        [0, 1, 2, 3, 4].map(
          (j) => ss.mean(matrix.map((r) => r[j]!)) * (1 - ss.mean(matrix.map((r) => r[j]!))),
        ),
      );
      const kr20 = (5 / 4) * (1 - pq / ss.variance(totals));
      expect(stats.summary.reliability.method).toBe('KR-20');
      expect(stats.summary.reliability.value).toBeCloseTo(kr20, 8);
      const percentages = totals.map((t) => t * 20);
      expect(stats.summary.score.median).toBe(ss.median(percentages));
      expect(stats.summary.score.sd).toBeCloseTo(ss.sampleStandardDeviation(percentages), 8);
      expect(stats.summary.reliability.sem).toBeCloseTo(
        ss.sampleStandardDeviation(percentages) * Math.sqrt(1 - kr20),
        8,
      );
      expect(stats.summary.time.median).toBe(ss.median(Array.from({ length: N }, (_, i) => 120 + i)));
      expect(stats.summary.takers).toBe(N);
    });

    it('raises the flags the rules give, with the rule shown', async () => {
      const stats = await ok('GET', `/tenant/assessment/${matrixAssessment}/stats`, mentor);
      // the fourth option of every question is never chosen
      for (const q of stats.questions) {
        const rare = q.figures.flags.find((f: Json) => f.code === 'RARE_DISTRACTOR');
        expect(rare.rule).toBe('A wrong option chosen by fewer than 5 % of takers.');
        expect(rare.detail).toContain('“static” chosen by 0.0 %');
        // and what it names, for the portal to say in its reader's language (decision 048)
        expect(rare.params.options).toContainEqual({ label: 'static', share: 0 });
      }
    });

    it('follows a question removed from the assessment: still listed, with no place', async () => {
      await server.db
        .delete(tenantAssessmentQuestions)
        .where(
          and(
            eq(tenantAssessmentQuestions.assessmentId, matrixAssessment),
            eq(tenantAssessmentQuestions.questionId, mq[4]!),
          ),
        );
      const stats = await ok('GET', `/tenant/assessment/${matrixAssessment}/stats`, mentor);
      const gone = stats.questions.find((q: Json) => q.questionId === mq[4]);
      expect(gone.position).toBeNull();
      expect(gone.figures.attempts).toBe(N);
    });
  });

  describe('the platform’s own tests', () => {
    it('are its staff’s only', async () => {
      const key = `SUBJECT:${s.subjectId}`;
      expect((await call('GET', `/admin/test/${key}/stats`, mentor)).status).toBe(403);
      expect((await call('GET', '/admin/question/stats', learner)).status).toBe(403);
      const mine = await ok('GET', `/admin/test/${key}/stats`, staff);
      expect(mine.summary.attempts).toBe(0);
      const bank = await ok('GET', '/admin/question/stats', staff);
      expect(Array.isArray(bank.questions)).toBe(true);
      expect((await call('GET', '/admin/test/CUSTOM-TEST:abc/stats', staff)).status).toBe(400);
    });
  });
});
