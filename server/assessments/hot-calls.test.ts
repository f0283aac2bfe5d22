/**
 * The hot calls of a test in progress — the Ready page, the start, an autosave, the evaluation — check the
 * caller's session inside their own statement (server/http/routes.ts QuickHandler): one round trip where the
 * caller's read made two. What that must not change: a session ended or an account deleted stops the token
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
  });
}
