/**
 * An attempt's writes come from its taker (decision 031, issue 25): the start binds the attempt to the
 * attempt token of the browser that started it, and every answer, focus-record event and evaluation must
 * carry that token — the link id alone opens the Ready page and starts a test nobody started, nothing more.
 * Refusals are 403 ATTEMPT_TOKEN_REQUIRED (none) or ATTEMPT_TOKEN_INVALID (another), and write nothing, on
 * the one-statement paths and the long ones alike. The learner, signed in, may move the attempt to another
 * browser (the old one's writes are then refused); a start repeated with the same token is the same start.
 */
import { ATTEMPT_TOKEN_HEADER, attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  assignTo,
  bankSuite,
  calls,
  linkRowOf,
  resourceBody,
  rightAnswer,
} from '../test/fixtures/assessments';
import { BACKENDS, type Person } from '../test/harness';
import { attemptTokenHash } from './engine/attempt';
import { saveAnswerNow } from './engine/autosave';
import { evaluateNow } from './engine/evaluation';
import { LEGACY_ATTEMPT } from './engine/rules';
import { testActivity, testAnswers, testLinks } from './tables';

for (const backend of BACKENDS) {
  describe(`an attempt's writes on ${backend}`, () => {
    const s = bankSuite(backend);

    /** A learner with a resource test started in their browser (`api`, which holds its token). */
    async function started(): Promise<{ me: Person; linkId: string; ar: string }> {
      const me = await s.h.learner();
      const ar = await assignTo(s.h.db, me.id, s.bank);
      const linkId = await s.api.createOk(me, resourceBody(s.bank, ar));
      const res = await s.api.start(linkId, me);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.attemptHeld).toBe(true);
      return { me, linkId, ar };
    }

    const answerOf = async (linkId: string, i = 0) => {
      const qs = await s.api.questionsOf(linkId);
      return rightAnswer(s.bank.questions.get(qs[i]!._id)!);
    };
    const rowsOf = async (linkId: string) => {
      const row = await linkRowOf(s.h.db, linkId);
      const answers = await s.h.db.select().from(testAnswers).where(eq(testAnswers.testLinkId, row.id));
      const events = await s.h.db.select().from(testActivity).where(eq(testActivity.testLinkId, row.id));
      return { row, answers, events };
    };
    /** The three writes of an attempt with these headers (none: the link id alone). */
    const writes = async (linkId: string, headers: Record<string, string>) => [
      await s.api.inject({
        method: 'PUT',
        url: `/api/testlink/${linkId}/answer`,
        headers,
        payload: await answerOf(linkId),
      }),
      await s.api.inject({
        method: 'POST',
        url: '/api/testlink/activity',
        headers,
        payload: { linkId, type: 'PASTE', chars: 31337, timeStamp: Date.now(), question: 1 },
      }),
      await s.api.inject({
        method: 'POST',
        url: '/api/testlink/evaluvate/v2',
        headers,
        payload: { linkId, answers: [await answerOf(linkId)] },
      }),
    ];

    it("refuses the focus record's events from anyone holding only the link id: the mentor's record stays as the learner made it", async () => {
      const { me, linkId } = await started();
      // the learner's mentor, who judges the learner by this record
      const mentor = await s.h.tenant();
      const seat = await s.api.inject({
        method: 'POST',
        url: '/api/tenant/users/add-user-v2',
        headers: mentor.headers,
        payload: { email: me.email },
      });
      expect(seat.statusCode).toBe(200);
      // the learner's own page records the test coming into view
      expect((await s.api.activity(linkId, 'FOCUS', me)).statusCode).toBe(200);
      // the finding: no Authorization, the link id, a paste of 31,337 characters and a second tab
      for (const payload of [
        { linkId, type: 'PASTE', chars: 31337, timeStamp: Date.now(), question: 1 },
        { linkId, type: 'SECOND_TAB', timeStamp: Date.now(), question: 1 },
      ]) {
        const res = await s.h.app.inject({ method: 'POST', url: '/api/testlink/activity', payload });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ errorCode: 'ATTEMPT_TOKEN_REQUIRED', field: 'x-attempt-token' });
      }
      const { events } = await rowsOf(linkId);
      expect(events.map((e) => e.type)).toEqual(['FOCUS']);
      const now = Math.floor(Date.now() / 1000);
      const listed = await s.api.inject({
        method: 'GET',
        url: `/api/tenant/testlink/list/${me.id}?startTime=${now - 3600}&endTime=${now + 60}`,
        headers: mentor.headers,
      });
      expect(listed.statusCode).toBe(200);
      const record = listed.json().data.find((l: { linkId: string }) => l.linkId === linkId).integrity;
      expect(record).toMatchObject({ tier: 'NONE', pastes: 0 });
    });

    it('refuses every write without the token, or with a wrong one or another attempt’s, and writes nothing', async () => {
      const { linkId } = await started();
      const other = await started();
      const otherToken = s.api.attemptOf(other.linkId)[ATTEMPT_TOKEN_HEADER]!;
      for (const [headers, code] of [
        [{}, 'ATTEMPT_TOKEN_REQUIRED'],
        [attemptHeaders(newAttemptToken()), 'ATTEMPT_TOKEN_INVALID'],
        [attemptHeaders(otherToken), 'ATTEMPT_TOKEN_INVALID'],
        // the learner's own sign-in is not the attempt's token either
        [{ ...other.me.headers }, 'ATTEMPT_TOKEN_REQUIRED'],
      ] as const) {
        const who = 'authorization' in headers ? other.linkId : linkId;
        for (const res of await writes(who, headers)) {
          expect(res.statusCode, res.body).toBe(403);
          expect(res.json().errorCode).toBe(code);
        }
      }
      for (const id of [linkId, other.linkId]) {
        const { row, answers, events } = await rowsOf(id);
        expect(answers).toHaveLength(0);
        expect(events).toHaveLength(0);
        expect(row.isCompleted).toBe(false);
      }
      // a token that is not one at all is bad input, named
      const malformed = await s.api.inject({
        method: 'PUT',
        url: `/api/testlink/${linkId}/answer`,
        headers: { [ATTEMPT_TOKEN_HEADER]: 'not-a-token' },
        payload: await answerOf(linkId),
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().field).toBe('x-attempt-token');
      // the browser that started it writes: an answer, an event, the evaluation
      for (const res of await writes(linkId, s.api.attemptOf(linkId)))
        expect(res.statusCode, res.body).toBe(200);
      const { row, answers, events } = await rowsOf(linkId);
      expect(answers).toHaveLength(1);
      expect(events.map((e) => e.chars)).toEqual([31337]);
      expect(row.isCompleted).toBe(true);
      // once completed, the result is the attempt's browser's; anyone else is told what the Ready page says
      const again = await s.api.evaluate(linkId);
      expect(again.statusCode).toBe(200);
      const stranger = await s.h.app.inject({
        method: 'POST',
        url: '/api/testlink/evaluvate/v2',
        payload: { linkId, answers: [] },
      });
      expect(stranger.statusCode).toBe(410);
      expect(stranger.json().errorCode).toBe('TEST_COMPLETED');
    });

    it('checks the token inside the one statement of an autosave and of an evaluation', async () => {
      const { linkId } = await started();
      const answer = await answerOf(linkId);
      const wrong = attemptTokenHash(linkId, newAttemptToken());
      const right = attemptTokenHash(linkId, s.api.attemptOf(linkId)[ATTEMPT_TOKEN_HEADER]);
      for (const holder of [null, wrong]) {
        expect(await saveAnswerNow(s.h.db, linkId, null, holder, answer, new Date())).toBe(false);
        // the statement writes nothing and hands the long way what it needs
        const evaluation = await evaluateNow(s.h.db, linkId, null, holder, [answer], new Date());
        expect(evaluation && 'read' in evaluation).toBe(true);
      }
      expect((await rowsOf(linkId)).answers).toHaveLength(0);
      expect(await saveAnswerNow(s.h.db, linkId, null, right, answer, new Date())).toBe(true);
      expect((await rowsOf(linkId)).answers).toHaveLength(1);
    });

    it('says on the Ready page whether the request holds the attempt, and gives a repeated start back', async () => {
      const me = await s.h.learner();
      const ar = await assignTo(s.h.db, me.id, s.bank);
      const linkId = await s.api.createOk(me, resourceBody(s.bank, ar));
      expect((await s.api.load(linkId)).json().data.attemptHeld).toBe(false);
      // a start needs a token to bind the attempt to
      const bare = await s.h.app.inject({ method: 'PUT', url: `/api/testlink/verify/${linkId}` });
      expect(bare.statusCode).toBe(400);
      expect(bare.json().field).toBe('x-attempt-token');
      expect((await linkRowOf(s.h.db, linkId)).startedAt).toBeNull();
      // started with the link id alone (not signed in), as a shared link is
      const first = await s.api.start(linkId);
      expect(first.statusCode).toBe(200);
      expect((await linkRowOf(s.h.db, linkId)).attemptTokenHash).toBe(
        attemptTokenHash(linkId, s.api.attemptOf(linkId)[ATTEMPT_TOKEN_HEADER]),
      );
      // the answer to the start was lost: the same browser asks again and gets the same attempt
      const again = await s.api.start(linkId);
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toMatchObject({
        startedAt: first.json().data.startedAt,
        deadlineAt: first.json().data.deadlineAt,
        attemptHeld: true,
      });
      expect((await s.api.load(linkId)).json().data.attemptHeld).toBe(true);
      // another browser with the link id alone: the Ready page, but not the attempt
      const elsewhere = calls(s.h.app);
      const shown = await elsewhere.load(linkId);
      expect(shown.statusCode).toBe(200);
      expect(shown.json().data.attemptHeld).toBe(false);
      const taken = await elsewhere.start(linkId);
      expect(taken.statusCode).toBe(403);
      expect(taken.json().errorCode).toBe('ATTEMPT_TOKEN_INVALID');
      expect((await s.api.answer(linkId, await answerOf(linkId))).statusCode).toBe(200);
    });

    it("lets the learner, signed in, move the attempt to another browser; the old one's writes are refused", async () => {
      const { me, linkId } = await started();
      const answer = await answerOf(linkId);
      expect((await s.api.answer(linkId, answer, me)).statusCode).toBe(200);
      // another learner, or a mentor, signed in elsewhere: not theirs to take
      const laptop = calls(s.h.app);
      for (const who of [await s.h.learner(), await s.h.tenant()]) {
        const res = await laptop.start(linkId, who);
        expect(res.statusCode).toBe(403);
        expect(res.json().errorCode).toBeUndefined();
      }
      // the learner on the laptop: continues there, with the answers saved so far
      const moved = await laptop.start(linkId, me);
      expect(moved.statusCode).toBe(200);
      expect(moved.json().data).toMatchObject({ attemptHeld: true, answers: [answer] });
      // the first browser (signed in or not) no longer writes; the laptop does
      for (const who of [undefined, me]) {
        const res = await s.api.answer(linkId, await answerOf(linkId, 1), who);
        expect(res.statusCode).toBe(403);
        expect(res.json().errorCode).toBe('ATTEMPT_TOKEN_INVALID');
      }
      expect((await s.api.load(linkId)).json().data.attemptHeld).toBe(false);
      expect((await laptop.answer(linkId, await answerOf(linkId, 1))).statusCode).toBe(200);
      expect((await laptop.activity(linkId, 'BLUR')).statusCode).toBe(200);
      expect((await laptop.evaluate(linkId)).statusCode).toBe(200);
      expect((await rowsOf(linkId)).answers).toHaveLength(2);
    });

    it('keeps the link id’s rule for an attempt started before tokens, until it ends', async () => {
      const { linkId } = await started();
      await s.h.db
        .update(testLinks)
        .set({ attemptTokenHash: LEGACY_ATTEMPT })
        .where(eq(testLinks.linkId, linkId));
      // the page it was started from never made a token
      const old = calls(s.h.app);
      expect((await old.load(linkId)).json().data.attemptHeld).toBe(true);
      for (const res of await writes(linkId, {})) expect(res.statusCode, res.body).toBe(200);
    });
  });
}
