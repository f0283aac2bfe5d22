/**
 * What a server process holds of the bank's questions (engine/question-cache.ts, issue 15) must never show or
 * score a question as it was: the version that migration 0015's triggers move on with every change of a
 * question or its options is checked by every statement that relies on what is held. Edits here are made in
 * SQL, beside the server, as another process (or a person at psql) would make them: the server learns of
 * them from the database alone.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { assignedRoadmaps } from '../catalogue/tables';
import { rowsOf } from '../db/helpers';
import { questionOptions, questions } from '../questions/tables';
import {
  assignTo,
  type BankQuestion,
  bankSuite,
  statementsOf as countStatements,
  linkRowOf,
  resourceBody,
  rightAnswer,
  type TakerQuestionJson,
  wrongAnswer,
} from '../test/fixtures/assessments';
import { BACKENDS, type Person } from '../test/harness';
import { testAnswers, testLinks } from './tables';

for (const backend of BACKENDS) {
  describe(`questions held by the server on ${backend}`, () => {
    const s = bankSuite(backend);

    const versionOf = async (id: string) =>
      Number(
        (await s.h.db.select({ v: questions.version }).from(questions).where(eq(questions.id, id)))[0]!.v,
      );

    /** A learner with a started resource test (resource 1: five single-choice questions). */
    async function started(): Promise<{ me: Person; linkId: string; qs: TakerQuestionJson[] }> {
      const me = await s.h.learner();
      const ar = await assignTo(s.h.db, me.id, s.bank);
      const linkId = await s.api.createOk(me, resourceBody(s.bank, ar, 1));
      const res = await s.api.start(linkId, me);
      expect(res.statusCode).toBe(200);
      return { me, linkId, qs: res.json().data.questions.questions };
    }

    const statementsOf = (fn: () => Promise<unknown>) => countStatements(s.h.db, fn);

    const bankOf = (q: { _id: string }): BankQuestion => s.bank.questions.get(q._id)!;

    it('moves a question on with every change of it or of its options, whoever makes it', async () => {
      const q = [...s.bank.questions.values()].find((x) => x.type === 'MCQ')!;
      let v = await versionOf(q.id);
      const moved = async () => {
        const now = await versionOf(q.id);
        expect(now).toBeGreaterThan(v);
        v = now;
      };
      await s.h.db.update(questions).set({ question: 'Edited in place' }).where(eq(questions.id, q.id));
      await moved();
      await s.h.db
        .update(questionOptions)
        .set({ value: 'renamed' })
        .where(eq(questionOptions.id, q.wrong[0]!));
      await moved();
      const [added] = await s.h.db
        .insert(questionOptions)
        .values({ questionId: q.id, value: 'added', position: 9 })
        .returning({ id: questionOptions.id });
      await moved();
      await s.h.db.delete(questionOptions).where(eq(questionOptions.id, added!.id));
      await moved();
      // one statement over many questions' options moves each of them on once
      const two = [...s.bank.questions.values()].filter((x) => x.type === 'MCQ').slice(0, 2);
      const before = await Promise.all(two.map((x) => versionOf(x.id)));
      await s.h.db.execute(
        sql`update question_options set points = points where question_id in (${two[0]!.id}, ${two[1]!.id})`,
      );
      expect(await Promise.all(two.map((x) => versionOf(x.id)))).toEqual(before.map((b) => b + 1));
    });

    it('evaluates the whole answer sheet in one statement, as the long way does', async () => {
      // warm: this process holds the resource's questions
      const a = await started();
      const b = await started();
      const pattern = (qs: TakerQuestionJson[]) =>
        qs.map((q, i) => (i % 3 === 0 ? rightAnswer(bankOf(q)) : wrongAnswer(bankOf(q))));
      const sheetA = pattern(a.qs);
      let resA: Awaited<ReturnType<typeof s.api.evaluate>> | undefined;
      expect(
        await statementsOf(async () => {
          resA = await s.api.evaluate(a.linkId, sheetA, a.me);
        }),
      ).toBe(1);
      // the long way: every answer saved first, then evaluated with none given
      for (const answer of pattern(b.qs))
        expect((await s.api.answer(b.linkId, answer, b.me)).statusCode).toBe(200);
      const resB = await s.api.evaluate(b.linkId, [], b.me);
      expect(resA!.statusCode).toBe(200);
      expect(resB.statusCode).toBe(200);
      const { linkId: _a, ...fast } = resA!.json().data;
      const { linkId: _b, ...long } = resB.json().data;
      expect(fast).toEqual(long);
      // 2 of 5 right: 20 points, 40 %, no award (an award's credential would be issued behind the answer, and
      // its statements counted with the next call's)
      expect(fast).toMatchObject({ score: 20, percentage: 40, questionCount: 5, certificateEligible: false });
      const rowA = await linkRowOf(s.h.db, a.linkId);
      const rowB = await linkRowOf(s.h.db, b.linkId);
      const kept = (r: typeof rowA) => ({
        isCompleted: r.isCompleted,
        score: r.score,
        percentage: r.percentage,
        questionCount: r.questionCount,
        status: r.status,
      });
      expect(kept(rowA)).toEqual(kept(rowB));
      expect(rowA.completedAt).not.toBeNull();
      expect(Math.abs(rowA.completedIn! - rowB.completedIn!)).toBeLessThanOrEqual(1);
      const pointsOf = async (linkRowId: string) =>
        (await s.h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, linkRowId)))
          .map((r) => Number(r.points))
          .sort();
      expect(await pointsOf(rowA.id)).toEqual(await pointsOf(rowB.id));
      // given again: the same result, nothing written twice
      const again = await s.api.evaluate(
        a.linkId,
        pattern(a.qs).map((x, i) => (i ? x : wrongAnswer(bankOf(a.qs[0]!)))),
        a.me,
      );
      expect(again.json().data).toEqual(resA!.json().data);
    });

    it('evaluates a final test that earns its certificate, and completes the roadmap, in the same one statement', async () => {
      const me = await s.h.learner();
      const ar = await assignTo(s.h.db, me.id, s.bank);
      // warm: a first final test, failed, has this process hold the roadmap's questions
      const first = await s.api.createOk(me, { type: 'ROADMAP', assignedRoadmapId: ar });
      expect((await s.api.take(first, s.bank, 'wrong', me)).status).toBe('NO_ENOUGH_MARKS');
      await s.h.db
        .update(testLinks)
        .set({ completedAt: new Date(Date.now() - 25 * 3600_000) })
        .where(eq(testLinks.linkId, first));
      const linkId = await s.api.createOk(me, { type: 'ROADMAP', assignedRoadmapId: ar });
      const res = await s.api.start(linkId, me);
      const qs: TakerQuestionJson[] = res.json().data.questions.questions;
      const sheet = qs.map((q) => rightAnswer(bankOf(q)));
      // the credential is issued behind the answer: its statements are not the evaluation's
      const issue = vi.spyOn(s.h.app.services.credentials!, 'issueLater').mockImplementation(() => {});
      let answer: Awaited<ReturnType<typeof s.api.evaluate>> | undefined;
      try {
        expect(
          await statementsOf(async () => {
            answer = await s.api.evaluate(linkId, sheet, me);
          }),
        ).toBe(1);
      } finally {
        issue.mockRestore();
      }
      expect(answer!.statusCode).toBe(200);
      expect(answer!.json().data).toMatchObject({ percentage: 100, certificateEligible: true });
      const [roadmap] = await s.h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.id, ar));
      expect(roadmap).toMatchObject({ status: 'COMPLETED', finalAssesmentId: linkId });
      const row = await linkRowOf(s.h.db, linkId);
      expect(roadmap!.completedAt?.getTime()).toBe(row.completedAt?.getTime());
      expect(row.status).toBe('GENERATE_CERTIFICATE');

      // the long way (every answer saved first, none given) completes another learner's roadmap alike
      const other = await s.h.learner();
      const otherAr = await assignTo(s.h.db, other.id, s.bank);
      const long = await s.api.createOk(other, { type: 'ROADMAP', assignedRoadmapId: otherAr });
      const started = await s.api.start(long, other);
      for (const q of started.json().data.questions.questions as TakerQuestionJson[])
        expect((await s.api.answer(long, rightAnswer(bankOf(q)), other)).statusCode).toBe(200);
      const longAnswer = await s.api.evaluate(long, [], other);
      expect(longAnswer.json().data).toMatchObject({ percentage: 100, certificateEligible: true });
      const [otherRoadmap] = await s.h.db
        .select()
        .from(assignedRoadmaps)
        .where(eq(assignedRoadmaps.id, otherAr));
      expect(otherRoadmap).toMatchObject({ status: 'COMPLETED', finalAssesmentId: long });
    });

    it('scores against the key as it is now when a held question was edited, then holds the new one', async () => {
      const a = await started();
      const b = await started();
      // the option the key held by the server calls right is now wrong, and another one is right
      const q = a.qs[0]!;
      const bq = bankOf(q);
      const moveKey = async (right: string, wrong: string) => {
        await s.h.db.update(questionOptions).set({ isCorrect: false }).where(eq(questionOptions.id, wrong));
        await s.h.db.update(questionOptions).set({ isCorrect: true }).where(eq(questionOptions.id, right));
      };
      await moveKey(bq.wrong[0]!, bq.correct[0]!);
      try {
        // the edited question answered as the new key says, every other one wrong (no award: nothing is issued
        // behind the answer to be counted with the next call)
        const sheet = (qs: TakerQuestionJson[]) =>
          qs.map((x) =>
            x._id === q._id ? { questionId: q._id, answerId: bq.wrong[0]! } : wrongAnswer(bankOf(x)),
          );
        const res = await s.api.evaluate(a.linkId, sheet(a.qs), a.me);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toMatchObject({ score: 10, percentage: 20, certificateEligible: false });
        const [stored] = await s.h.db
          .select({ points: testAnswers.points })
          .from(testAnswers)
          .where(
            sql`${testAnswers.testLinkId} = ${(await linkRowOf(s.h.db, a.linkId)).id} and ${testAnswers.questionId} = ${q._id}`,
          );
        expect(Number(stored!.points)).toBe(10);
        // the next evaluation scores against the edit too: the question read again, then one statement
        let second: Awaited<ReturnType<typeof s.api.evaluate>> | undefined;
        const n = await statementsOf(async () => {
          second = await s.api.evaluate(b.linkId, sheet(b.qs), b.me);
        });
        expect(second!.json().data).toMatchObject({ score: b.qs.some((x) => x._id === q._id) ? 10 : 0 });
        expect(n).toBeLessThanOrEqual(2);
        const third = await started();
        expect(await statementsOf(() => s.api.evaluate(third.linkId, sheet(third.qs), third.me))).toBe(1);
      } finally {
        // the key as it was, for the other tests
        await moveKey(bq.correct[0]!, bq.wrong[0]!);
      }
    });

    it('leaves a sheet that skips a question, or saved answers it leaves out, to the long way: same result', async () => {
      const a = await started();
      // an answer saved to the first question, the sheet without it: the saved one counts
      expect((await s.api.answer(a.linkId, rightAnswer(bankOf(a.qs[0]!)), a.me)).statusCode).toBe(200);
      const rest = a.qs.slice(1).map((q) => rightAnswer(bankOf(q)));
      const res = await s.api.evaluate(a.linkId, rest, a.me);
      expect(res.json().data).toMatchObject({ score: 50, percentage: 100 });
      // a question skipped: 0 for it
      const b = await started();
      const skipped = await s.api.evaluate(
        b.linkId,
        b.qs.slice(1).map((q) => rightAnswer(bankOf(q))),
        b.me,
      );
      expect(skipped.json().data).toMatchObject({ score: 40, percentage: 80, questionCount: 5 });
      // an answer that does not check gets the long way's 400, naming the field, and nothing is written
      const c = await started();
      const bad = c.qs.map((q) => rightAnswer(bankOf(q)));
      bad[2] = { questionId: c.qs[2]!._id, answerId: c.qs[0]!.options[0]!._id };
      const refused = await s.api.evaluate(c.linkId, bad, c.me);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().field).toBe('answers.2.answerId');
      expect((await linkRowOf(s.h.db, c.linkId)).isCompleted).toBe(false);
      const count = rowsOf<{ n: number }>(
        await s.h.db.execute(
          sql`select count(*)::int as n from test_answers where test_link_id = ${(await linkRowOf(s.h.db, c.linkId)).id}`,
        ),
      )[0]!.n;
      expect(count).toBe(0);
    });

    // last: it removes an option of a bank question for good
    it('shows an edit of a held question at once: its text, an option changed, added or removed', async () => {
      const { me, linkId, qs } = await started();
      const target = qs[0]!;
      // the process holds the question now (the start showed it)
      await s.h.db.update(questions).set({ question: 'Which one, now?' }).where(eq(questions.id, target._id));
      const dropped = target.options[1]!._id;
      await s.h.db.delete(questionOptions).where(eq(questionOptions.id, dropped));
      await s.h.db
        .update(questionOptions)
        .set({ value: 'yes, renamed' })
        .where(eq(questionOptions.id, target.options[0]!._id));
      const [extra] = await s.h.db
        .insert(questionOptions)
        .values({ questionId: target._id, value: 'a new option', position: 7 })
        .returning({ id: questionOptions.id });
      const again = (await s.api.load(linkId, me)).json().data.questions.questions as TakerQuestionJson[];
      const shown = again.find((q) => q._id === target._id)!;
      expect((shown as unknown as { question: string }).question).toBe('Which one, now?');
      expect(shown.options.map((o) => o._id)).not.toContain(dropped);
      expect(shown.options.find((o) => o._id === target.options[0]!._id)?.value).toBe('yes, renamed');
      // an option added since the link was made comes last
      expect(shown.options.at(-1)).toEqual({ _id: extra!.id, value: 'a new option' });
      // the other questions as they were, in the same order
      expect(again.map((q) => q._id)).toEqual(qs.map((q) => q._id));
    });
  });
}
