/**
 * The hot calls of a test in progress — the Ready page, the start, an autosave, the evaluation — check the
 * caller's session inside their own statement (server/http/routes.ts QuickHandler): one round trip where the
 * caller's read made two. What that must not change: a session ended or an account deleted stops the token
 * at once, on every call, with the same 401 and nothing written; another learner's token is refused; a token
 * that does not verify is refused.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFamilies, users } from '../db/schema';
import {
  assignTo,
  type Bank,
  calls,
  linkRowOf,
  resourceBody,
  rightAnswer,
  seedBank,
} from '../test/fixtures/assessments';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';
import { testAnswers } from './tables';

for (const backend of BACKENDS) {
  describe(`the hot calls of a test on ${backend}`, () => {
    let h: Harness;
    let bank: Bank;
    let api: ReturnType<typeof calls>;

    beforeAll(async () => {
      h = await openHarness(backend);
      api = calls(h.app);
      bank = await seedBank(h.db);
    }, 120_000);
    afterAll(() => h?.close());

    /** A learner of their own with a fresh resource test. */
    async function learnerWithLink(): Promise<{ me: Person; linkId: string }> {
      const me = await h.learner();
      const ar = await assignTo(h.db, me.id, bank);
      return { me, linkId: await api.createOk(me, resourceBody(bank, ar)) };
    }

    /** The statements the database is sent while `fn` runs (the prepared and the plain ones). */
    async function statementsOf(fn: () => Promise<unknown>): Promise<number> {
      const client = (h.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
      const query = client.query;
      let n = 0;
      client.query = function (this: unknown, ...args: unknown[]) {
        n++;
        return query.apply(this, args);
      };
      try {
        await fn();
      } finally {
        client.query = query;
      }
      return n;
    }

    const answerOf = async (linkId: string) => {
      const qs = await api.questionsOf(linkId);
      return rightAnswer(bank.questions.get(qs[0]!._id)!);
    };
    const savedAnswers = async (linkId: string) =>
      (
        await h.db
          .select()
          .from(testAnswers)
          .where(eq(testAnswers.testLinkId, (await linkRowOf(h.db, linkId)).id))
      ).length;

    it('the Ready page, the start and an autosave are one statement each, caller checked included', async () => {
      const { me, linkId } = await learnerWithLink();
      const answer = await answerOf(linkId);
      expect(await statementsOf(async () => expect((await api.load(linkId, me)).statusCode).toBe(200))).toBe(
        1,
      );
      expect(await statementsOf(async () => expect((await api.start(linkId, me)).statusCode).toBe(200))).toBe(
        1,
      );
      expect(
        await statementsOf(async () => expect((await api.answer(linkId, answer, me)).statusCode).toBe(200)),
      ).toBe(1);
      // the evaluation: its read (with the caller's check) and its write
      const evaluation = await statementsOf(async () =>
        expect((await api.evaluate(linkId, [answer], me)).statusCode).toBe(200),
      );
      expect(evaluation).toBeLessThanOrEqual(2);
    });

    it('a session ended stops every hot call at once with 401, and nothing is written', async () => {
      const { me, linkId } = await learnerWithLink();
      const answer = await answerOf(linkId);
      // a second link of the same learner, started before the session ends
      const { linkId: started, me: other } = await learnerWithLink();
      expect((await api.start(started, other)).statusCode).toBe(200);
      const otherAnswer = await answerOf(started);
      for (const who of [me, other]) {
        await h.db
          .update(tokenFamilies)
          .set({ revokedAt: new Date() })
          .where(eq(tokenFamilies.userId, who.id));
      }
      for (const res of [
        await api.load(linkId, me),
        await api.start(linkId, me),
        await api.answer(linkId, answer, me),
        await api.answer(started, otherAnswer, other),
        await api.evaluate(started, [otherAnswer], other),
      ]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().errorCode).toBe('SESSION_REVOKED');
      }
      expect((await linkRowOf(h.db, linkId)).startedAt).toBeNull();
      const row = await linkRowOf(h.db, started);
      expect(row.isCompleted).toBe(false);
      expect(await savedAnswers(started)).toBe(0);
      // the answer would have been good: without a token (the link id is the capability) it is saved
      expect((await api.answer(started, otherAnswer)).statusCode).toBe(200);
    });

    it('an account deleted stops every hot call at once with 401, and nothing is written', async () => {
      const { me, linkId } = await learnerWithLink();
      expect((await api.start(linkId, me)).statusCode).toBe(200);
      const answer = await answerOf(linkId);
      await h.db.update(users).set({ isDeleted: true }).where(eq(users.id, me.id));
      for (const res of [
        await api.load(linkId, me),
        await api.start(linkId, me),
        await api.answer(linkId, answer, me),
        await api.evaluate(linkId, [answer], me),
      ]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().errorCode).toBe('USER_DELETED');
      }
      expect(await savedAnswers(linkId)).toBe(0);
      expect((await linkRowOf(h.db, linkId)).isCompleted).toBe(false);
    });

    it("another learner's token is refused with 403 and a token that does not verify with 401", async () => {
      const { me, linkId } = await learnerWithLink();
      const stranger = await h.learner();
      const answer = await answerOf(linkId);
      const forged = { ...me, headers: { authorization: `${me.headers.authorization}x` } };
      for (const who of [stranger, forged]) {
        for (const res of [
          await api.load(linkId, who),
          await api.start(linkId, who),
          await api.answer(linkId, answer, who),
          await api.evaluate(linkId, [answer], who),
        ]) {
          expect(res.statusCode).toBe(who === stranger ? 403 : 401);
        }
      }
      expect((await linkRowOf(h.db, linkId)).startedAt).toBeNull();
      // started by its learner, the stranger still cannot answer or evaluate it
      expect((await api.start(linkId, me)).statusCode).toBe(200);
      expect((await api.answer(linkId, answer, stranger)).statusCode).toBe(403);
      expect((await api.evaluate(linkId, [answer], stranger)).statusCode).toBe(403);
      expect(await savedAnswers(linkId)).toBe(0);
      expect((await linkRowOf(h.db, linkId)).isCompleted).toBe(false);
    });
  });
}
