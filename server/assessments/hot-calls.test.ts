/**
 * The hot calls of a test in progress — the Ready page, the start, an autosave, the evaluation — check the
 * caller's session inside their own statement (server/http/routes.ts HotHandler): one round trip where the
 * caller's read made two, and, when that statement finds anything else, the caller read and the long way,
 * without running the statement again. What that must not change: a session ended or an account deleted stops the token
 * at once, on every call, with the same 401 and nothing written; another learner's token is refused; a token
 * that does not verify is refused.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tokenFamilies, users } from '../db/schema';
import {
  assignTo,
  bankSuite,
  statementsOf as countStatements,
  linkRowOf,
  resourceBody,
  rightAnswer,
  statementsSentBy,
} from '../test/fixtures/assessments';
import { BACKENDS, type Person } from '../test/harness';
import { testAnswers } from './tables';

for (const backend of BACKENDS) {
  describe(`the hot calls of a test on ${backend}`, () => {
    const s = bankSuite(backend);

    /** A learner of their own with a fresh resource test. */
    async function learnerWithLink(): Promise<{ me: Person; linkId: string }> {
      const me = await s.h.learner();
      const ar = await assignTo(s.h.db, me.id, s.bank);
      return { me, linkId: await s.api.createOk(me, resourceBody(s.bank, ar)) };
    }

    const statementsOf = (fn: () => Promise<unknown>) => countStatements(s.h.db, fn);

    const answerOf = async (linkId: string) => {
      const qs = await s.api.questionsOf(linkId);
      return rightAnswer(s.bank.questions.get(qs[0]!._id)!);
    };
    const savedAnswers = async (linkId: string) =>
      (
        await s.h.db
          .select()
          .from(testAnswers)
          .where(eq(testAnswers.testLinkId, (await linkRowOf(s.h.db, linkId)).id))
      ).length;

    it('the Ready page, the start and an autosave are one statement each, caller checked included', async () => {
      const { me, linkId } = await learnerWithLink();
      const answer = await answerOf(linkId);
      expect(
        await statementsOf(async () => expect((await s.api.load(linkId, me)).statusCode).toBe(200)),
      ).toBe(1);
      expect(
        await statementsOf(async () => expect((await s.api.start(linkId, me)).statusCode).toBe(200)),
      ).toBe(1);
      expect(
        await statementsOf(async () => expect((await s.api.answer(linkId, answer, me)).statusCode).toBe(200)),
      ).toBe(1);
      // a partial sheet: the one statement finds a question unanswered and writes nothing, then the long way
      // reads and writes (the whole sheet is one statement: held-questions.test.ts)
      const evaluation = await statementsOf(async () =>
        expect((await s.api.evaluate(linkId, [answer], me)).statusCode).toBe(200),
      );
      expect(evaluation).toBeLessThanOrEqual(3);
    });

    it('a session ended stops every hot call at once with 401, and nothing is written', async () => {
      const { me, linkId } = await learnerWithLink();
      const answer = await answerOf(linkId);
      // a second link of the same learner, started before the session ends
      const { linkId: started, me: other } = await learnerWithLink();
      expect((await s.api.start(started, other)).statusCode).toBe(200);
      const otherAnswer = await answerOf(started);
      for (const who of [me, other]) {
        await s.h.db
          .update(tokenFamilies)
          .set({ revokedAt: new Date() })
          .where(eq(tokenFamilies.userId, who.id));
      }
      for (const res of [
        await s.api.load(linkId, me),
        await s.api.start(linkId, me),
        await s.api.answer(linkId, answer, me),
        await s.api.answer(started, otherAnswer, other),
        await s.api.evaluate(started, [otherAnswer], other),
      ]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().errorCode).toBe('SESSION_REVOKED');
      }
      expect((await linkRowOf(s.h.db, linkId)).startedAt).toBeNull();
      const row = await linkRowOf(s.h.db, started);
      expect(row.isCompleted).toBe(false);
      expect(await savedAnswers(started)).toBe(0);
      // the answer would have been good: without an access token (the attempt's own token, which the
      // browser that started the test sends, is what its writes need) it is saved
      expect((await s.api.answer(started, otherAnswer)).statusCode).toBe(200);
    });

    it('an account deleted stops every hot call at once with 401, and nothing is written', async () => {
      const { me, linkId } = await learnerWithLink();
      expect((await s.api.start(linkId, me)).statusCode).toBe(200);
      const answer = await answerOf(linkId);
      await s.h.db.update(users).set({ isDeleted: true }).where(eq(users.id, me.id));
      for (const res of [
        await s.api.load(linkId, me),
        await s.api.start(linkId, me),
        await s.api.answer(linkId, answer, me),
        await s.api.evaluate(linkId, [answer], me),
      ]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().errorCode).toBe('USER_DELETED');
      }
      expect(await savedAnswers(linkId)).toBe(0);
      expect((await linkRowOf(s.h.db, linkId)).isCompleted).toBe(false);
    });

    it("another learner's token is refused with 403 and a token that does not verify with 401", async () => {
      const { me, linkId } = await learnerWithLink();
      const stranger = await s.h.learner();
      const answer = await answerOf(linkId);
      const forged = { ...me, headers: { authorization: `${me.headers.authorization}x` } };
      for (const who of [stranger, forged]) {
        for (const res of [
          await s.api.load(linkId, who),
          await s.api.start(linkId, who),
          await s.api.answer(linkId, answer, who),
          await s.api.evaluate(linkId, [answer], who),
        ]) {
          expect(res.statusCode).toBe(who === stranger ? 403 : 401);
        }
      }
      expect((await linkRowOf(s.h.db, linkId)).startedAt).toBeNull();
      // started by its learner, the stranger still cannot answer or evaluate it
      expect((await s.api.start(linkId, me)).statusCode).toBe(200);
      expect((await s.api.answer(linkId, answer, stranger)).statusCode).toBe(403);
      expect((await s.api.evaluate(linkId, [answer], stranger)).statusCode).toBe(403);
      expect(await savedAnswers(linkId)).toBe(0);
      expect((await linkRowOf(s.h.db, linkId)).isCompleted).toBe(false);
    });

    it('says 401 before 400: a token that does not hold comes before the input that does not parse', async () => {
      const { me, linkId } = await learnerWithLink();
      expect((await s.api.start(linkId, me)).statusCode).toBe(200);
      const bad = { questionId: 'not-an-id' };
      // the session holds: the input's error, naming the field
      const holding = await s.api.answer(linkId, bad, me);
      expect(holding.statusCode).toBe(400);
      expect(holding.json().field).toBe('questionId');
      const forged = { ...me, headers: { authorization: `${me.headers.authorization}x` } };
      await s.h.db
        .update(tokenFamilies)
        .set({ revokedAt: new Date() })
        .where(eq(tokenFamilies.userId, me.id));
      for (const who of [me, forged]) {
        for (const res of [
          await s.api.answer(linkId, bad, who),
          await s.api.evaluate(linkId, [bad], who),
          await s.api.inject({
            method: 'PUT',
            url: `/api/testlink/verify/${linkId}`,
            headers: who.headers, // no attempt token: a 400 naming x-attempt-token, had the token held
          }),
        ]) {
          expect(res.statusCode, res.body).toBe(401);
          if (who === me) expect(res.json().errorCode).toBe('SESSION_REVOKED');
        }
      }
    });

    it('takes the long way without running the hot statement again', async () => {
      const { me, linkId } = await learnerWithLink();
      const answer = await answerOf(linkId);
      const stranger = await s.h.learner();
      // each of these misses its one statement: a start of a started link (a resume), an answer to a test not
      // started, a Ready page and an evaluation of another person's link, an unknown link
      /** The statements `call` sent more than once (the start of each's text). */
      const repeatedBy = async (call: () => Promise<{ statusCode: number }>, status: number) => {
        const texts: string[] = [];
        for (const sent of await statementsSentBy(s.h.db, async () => {
          expect((await call()).statusCode).toBe(status);
        }))
          texts.push(sent.text);
        return texts
          .filter((text, i) => texts.indexOf(text) !== i)
          .map((t) => t.replace(/\s+/g, ' ').slice(0, 80));
      };
      expect(await repeatedBy(() => s.api.answer(linkId, answer, me), 409)).toEqual([]);
      expect((await s.api.start(linkId, me)).statusCode).toBe(200);
      const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';
      for (const [call, status] of [
        [() => s.api.start(linkId, me), 200],
        [() => s.api.load(linkId, stranger), 403],
        [() => s.api.answer(linkId, answer, stranger), 403],
        [() => s.api.evaluate(linkId, [answer], stranger), 403],
        [() => s.api.load(unknown, me), 404],
        [() => s.api.evaluate(unknown, [answer], me), 404],
      ] as const) {
        expect(await repeatedBy(call, status)).toEqual([]);
      }
    });
  });
}
