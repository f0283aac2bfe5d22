/**
 * The test-link calls of shared/contract/assessments.ts: creating links at four levels (questions drawn and
 * frozen at creation), taking a test by its link id (no sign-in needed: the id opens the test and starts it;
 * another person's token is refused), the attempt written only by the browser that started it (its attempt
 * token, decision 031): answers saved as given, focus/blur activity, evaluation on the server; the answers
 * view after evaluation, and question feedback.
 */
import { assessmentsRouter, type CreateTestLinkInput, type evaluateTest } from '@shared/contract/assessments';
import { initialAssessmentRouter } from '@shared/contract/catalogue';
import type { CallBody } from '@shared/contract/define';
import { testKeyOf } from '@shared/rules/retakes';
import { LINK_MESSAGES } from '@shared/rules/test-links';
import type { TestType } from '@shared/schemas/assessment';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../adapters/mail';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { ok, serve } from '../http/routes';
import { linkHooks } from './completion';
import {
  type EvaluationState,
  findLinkWithQuestion,
  readForEvaluation,
  type Scored,
  saveAnswer,
} from './engine/answers';
import { assertHolder, attemptTokenHash, holds } from './engine/attempt';
import {
  drawQuestions,
  freezeQuestions,
  newLinkId,
  QUESTION_COUNTS,
  questionsOfSubject,
  questionsTargeting,
  recentlySeen,
  resourcesOfSections,
} from './engine/drawing';
import {
  acceptsAnswers,
  assertRetakeOpen,
  assertTakeable,
  assertTaker,
  DEFAULT_RETAKE_COOLDOWN_MS,
  type EvaluatedLink,
  evaluateLink,
  evaluateNow,
  failureSince,
  findLink,
  findLinkWithView,
  isTimed,
  LINK_VALIDITY_MS,
  linkExpired,
  lockTest,
  moveAttempt,
  retakeCooldown,
  saveAnswerNow,
  settle,
  startLink,
  startNow,
  type TakerView,
  takerView,
  testCompleted,
  timeLimitFor,
} from './engine/link-life';
import {
  evaluateInitialAssessment,
  generateInitialAssessment as generateInitial,
  readInitialAssessment,
} from './initial';
import {
  findResourceInRoadmaps,
  linksOf,
  linkTitle,
  ownAssignedRoadmap,
  resourceInSection,
  sectionsOfAssigned,
  subjectById,
  subjectTestLanguage,
  toApiLinks,
} from './queries';
import { testReview } from './review';
import {
  testLinkQuestions as frozen,
  type LinkRow,
  questionFeedback,
  testActivity,
  testLinks,
} from './tables';
import { testSupportRoutes } from './test-support';

/**
 * Issues an award's credential after the evaluation's answer (the credentials' service, which depends on
 * assessments: the assembly hands it here).
 */
interface AwardIssuer {
  issueLater(link: Pick<LinkRow, 'linkId' | 'type' | 'status' | 'isCompleted'>): void;
}

export interface AssessmentDeps {
  db: Db;
  config: Config;
  mail: MailService;
  credentials: AwardIssuer;
  /** The server's clock (tests move it). */
  now?: () => Date;
}

const LEVEL_NAMES: Partial<Record<TestType, string>> = {
  RESOURCE: 'resource',
  'RESOURCE-FROM-WHATSAPP': 'resource',
  SECTION: 'section',
  ROADMAP: 'roadmap',
  SUBJECT: 'subject',
};

const noQuestions = (type: TestType, field: string, language?: string) =>
  badRequest(
    `There are no questions for this ${LEVEL_NAMES[type] ?? 'test'}${language ? ` in ${language}` : ''} yet. Please try another one later.`,
    field,
  );

interface NewLink {
  type: TestType;
  userId: string;
  candidates: string[];
  field: string;
  subjectId: string | null;
  roadmapId?: string | null;
  assignedRoadmapId?: string | null;
  sectionId?: string | null;
  resourceId?: string | null;
  lookingForJob?: 'YES' | 'NO' | 'IN FUTURE' | null;
  names: {
    assignedRoadMapName?: string | null;
    assignedSectionName?: string | null;
    assignedResourceName?: string | null;
    assignedSubjectName?: string | null;
  };
}

/**
 * The learner's link to a test (decision 010), under a lock on the learner and the test so that two requests
 * at once cannot make two links:
 * - an open attempt of the same test (not taken yet, or in progress) is given back rather than another drawn;
 * - a failure of the same test within the cool-down refuses it with 409 RETAKE_COOLDOWN, naming when it opens;
 * - otherwise the questions are drawn — those the learner has not met first, then the least recently met —
 *   and frozen with the new link.
 */
export async function createLink(
  db: Db,
  spec: NewLink,
  now: Date,
  cooldownMs = DEFAULT_RETAKE_COOLDOWN_MS,
): Promise<LinkRow> {
  const count = QUESTION_COUNTS[spec.type] ?? 10;
  const key = testKeyOf({ ...spec, subjectId: spec.subjectId });
  return inTx(db, async (tx) => {
    if (key) {
      await lockTest(tx, spec.userId, key);
      const open = await tx
        .select()
        .from(testLinks)
        .where(
          and(
            eq(testLinks.userId, spec.userId),
            eq(testLinks.testKey, key),
            eq(testLinks.status, 'TAKE_TEST'),
            eq(testLinks.isCompleted, false),
          ),
        )
        .orderBy(desc(testLinks.createdAt));
      for (const found of open) {
        // brought up to date with the clock: an overdue attempt is evaluated (and may start the cool-down)
        const link = await settle(tx, found, now, linkHooks);
        if (link.status === 'TAKE_TEST' && !link.isCompleted) return link;
      }
      if (cooldownMs > 0) {
        const failed = await failureSince(tx, spec.userId, key, new Date(now.getTime() - cooldownMs));
        if (failed) throw retakeCooldown(new Date(failed.getTime() + cooldownMs), now, spec.field);
      }
    }
    const seen = await recentlySeen(tx, spec.userId, spec.candidates);
    const drawn = await drawQuestions(tx, [{ candidates: spec.candidates, count }], seen);
    if (drawn.length === 0) throw noQuestions(spec.type, spec.field);
    const [link] = await tx
      .insert(testLinks)
      .values({
        linkId: newLinkId(),
        type: spec.type,
        userId: spec.userId,
        subjectId: spec.subjectId,
        roadmapId: spec.roadmapId ?? null,
        assignedRoadmapId: spec.assignedRoadmapId ?? null,
        sectionId: spec.sectionId ?? null,
        resourceId: spec.resourceId ?? null,
        lookingForJob: spec.lookingForJob ?? null,
        ...spec.names,
        questionCount: drawn.length,
        timeLimitMinutes: timeLimitFor(drawn.length),
        expiresAt: new Date(now.getTime() + LINK_VALIDITY_MS),
        createdAt: now,
      })
      .returning();
    await freezeQuestions(tx, link!.id, drawn);
    return link!;
  });
}

/**
 * A learner's link to a test of POST /testlink/create (a subject, or a roadmap's final, section or resource
 * test on the learner's own copy), by the rules of `createLink`; the LTI launch opens its tests through it.
 */
export async function linkForLearner(
  db: Db,
  userId: string,
  body: (typeof CreateTestLinkInput)['_output'],
  now: Date,
  cooldownMs: number,
): Promise<LinkRow> {
    if (body.type === 'SUBJECT') {
      const subject = await subjectById(db, body.subject);
      if (!subject) throw badRequest('Please select a subject', 'subject');
      // in the learner's language, never a mix (decision 010)
      const language = await subjectTestLanguage(db, userId, subject.id);
      if (!language) throw noQuestions('SUBJECT', 'subject');
      const candidates = await questionsOfSubject(db, subject.id, language.id);
      if (candidates.length === 0) throw noQuestions('SUBJECT', 'subject', language.name);
      const link = await createLink(
        db,
        {
          type: 'SUBJECT',
          userId: userId,
          candidates,
          field: 'subject',
          subjectId: subject.id,
          lookingForJob: body.lookingForJob,
          names: { assignedSubjectName: subject.name },
        },
        now,
        cooldownMs,
      );
      return link;
    }
    const ar = await ownAssignedRoadmap(db, userId, body.assignedRoadmapId);
    if (!ar) throw notFound('This roadmap is not assigned to you.');
    if (ar.status === 'COMPLETED')
      throw conflict('This roadmap is completed.', { field: 'assignedRoadmapId' });
    const base = {
      userId: userId,
      subjectId: ar.subjectId,
      roadmapId: ar.roadmapId,
      assignedRoadmapId: ar.id,
    };
    const sectionList = await sectionsOfAssigned(db, ar);
    if (body.type === 'ROADMAP') {
      const sectionIds = sectionList.map((s) => s.id);
      const link = await createLink(
        db,
        {
          ...base,
          type: 'ROADMAP',
          field: 'assignedRoadmapId',
          candidates: await questionsTargeting(
            db,
            {
              roadmaps: [ar.roadmapId],
              sections: sectionIds,
              resources: await resourcesOfSections(db, sectionIds),
            },
            ar.languageId,
          ),
          names: { assignedRoadMapName: ar.name },
        },
        now,
        cooldownMs,
      );
      return link;
    }
    const section = sectionList.find((s) => s.id === body.sectionId);
    if (!section) throw notFound('This section is not in your roadmap.');
    if (body.type === 'SECTION') {
      const link = await createLink(
        db,
        {
          ...base,
          type: 'SECTION',
          field: 'sectionId',
          sectionId: section.id,
          candidates: await questionsTargeting(
            db,
            { sections: [section.id], resources: await resourcesOfSections(db, [section.id]) },
            ar.languageId,
          ),
          names: { assignedRoadMapName: ar.name, assignedSectionName: section.name },
        },
        now,
        cooldownMs,
      );
      return link;
    }
    const resource = await resourceInSection(db, section.id, body.resourceId);
    if (!resource) throw notFound('This resource is not in this section of your roadmap.');
    const link = await createLink(
      db,
      {
        ...base,
        type: 'RESOURCE',
        field: 'resourceId',
        sectionId: section.id,
        resourceId: resource.id,
        candidates: await questionsTargeting(db, { resources: [resource.id] }, ar.languageId),
        names: {
          assignedRoadMapName: ar.name,
          assignedSectionName: section.name,
          assignedResourceName: resource.title,
        },
      },
      now,
      cooldownMs,
    );
    return link;
}

export function assessmentRoutes(app: FastifyInstance, deps: AssessmentDeps) {
  const { db, config, mail } = deps;
  const clock = () => (deps.now ? deps.now() : new Date());
  const cooldownMs = config.retakeCooldownMs;

  /**
   * The link by its public id, brought up to date with the clock; another person's token is refused.
   * `found`: the link's row when the caller has read it already.
   */
  async function current(
    linkId: string,
    caller: { id: string } | null,
    found?: LinkRow | null,
  ): Promise<LinkRow> {
    const link = found !== undefined ? found : await findLink(db, linkId);
    if (!link) throw notFound('Test link not found');
    assertTaker(link, caller);
    return settle(db, link, clock(), linkHooks);
  }

  /** The links of one learner: overdue ones evaluated, unused expired ones marked, first. */
  async function settleUser(userId: string) {
    const now = clock();
    const open = await db
      .select()
      .from(testLinks)
      .where(
        and(
          eq(testLinks.userId, userId),
          eq(testLinks.status, 'TAKE_TEST'),
          eq(testLinks.isCompleted, false),
        ),
      );
    for (const link of open) await settle(db, link, now, linkHooks);
  }

  /**
   * The test page's view of a link: its state and what takerView read (the questions, saved answers);
   * `held`: the request carried the started attempt's token.
   */
  function takerTest(link: LinkRow, view: TakerView, held: boolean) {
    return {
      linkId: link.linkId,
      type: link.type,
      status: link.status,
      subject: view.subjectName !== null ? { name: view.subjectName } : null,
      title: linkTitle(link),
      questions: { questions: view.questions },
      answers: view.answers,
      questionCount: view.questions.length,
      timeLimitMinutes: link.timeLimitMinutes,
      startedAt: link.startedAt?.toISOString() ?? null,
      deadlineAt: link.deadlineAt?.toISOString() ?? null,
      serverTime: clock().toISOString(),
      isCompleted: link.isCompleted,
      attemptHeld: held,
    };
  }

  /**
   * A link the caller may write right now: started, in time, not completed, and `holder` (the hash of the
   * request's attempt token) the attempt's.
   */
  async function inProgress(
    linkId: string,
    caller: { id: string } | null,
    holder: string | null,
    found?: LinkRow | null,
  ) {
    const link = await current(linkId, caller, found);
    assertTakeable(link, clock());
    if (!link.startedAt) throw conflict(LINK_MESSAGES.notStarted, { errorCode: 'TEST_NOT_STARTED' });
    if (!acceptsAnswers(link, clock())) throw testCompleted();
    assertHolder(link, holder);
    return link;
  }

  /**
   * The Ready page (and a resume): the link with its view, read in one statement; the clock may change it
   * (then it is not takeable).
   */
  async function readyPage(
    linkId: string,
    caller: { id: string } | null,
    holder: string | null,
    found: { link: LinkRow; view: TakerView } | null,
  ) {
    const link = await current(linkId, caller, found?.link ?? null);
    assertTakeable(link, clock());
    const view = found && link === found.link ? found.view : await takerView(db, link);
    return ok({ data: takerTest(link, view, link.startedAt !== null && holds(link, holder)) });
  }

  /**
   * An evaluation from the link's read (its answer key and saved answers), checked as every test call is;
   * `holder`: the hash of the request's attempt token. A completed link gives its result to the attempt's
   * browser, and to anyone else only what the Ready page says (410 TEST_COMPLETED).
   */
  async function evaluate(
    body: CallBody<typeof evaluateTest>,
    caller: { id: string } | null,
    holder: string | null,
    read: EvaluationState | null,
  ) {
    const link = await current(body.linkId, caller, read?.link ?? null);
    if (link.isCompleted) {
      if (!holds(link, holder)) throw testCompleted();
    } else {
      if (link.status === 'EXPIRED') throw linkExpired();
      if (isTimed(link.type) && !link.startedAt)
        throw conflict(LINK_MESSAGES.notStarted, { errorCode: 'TEST_NOT_STARTED' });
      assertHolder(link, holder);
    }
    // a link the clock changed (evaluated or expired just now) is read again
    const { link: done, scored } = await evaluateLink(db, link, body.answers, clock(), linkHooks, {
      read: read && link === read.link ? read : undefined,
    });
    return evaluated(done, scored, !link.isCompleted);
  }

  /** The answer to an evaluation; `now` when this request completed the link. */
  function evaluated(done: EvaluatedLink, scored: Scored, now: boolean) {
    // the award's credential is signed after the answer, not before it
    if (scored.eligible && now) deps.credentials.issueLater(done);
    return ok({
      data: {
        linkId: done.linkId,
        testType: done.type,
        points: scored.score,
        score: scored.score,
        percentage: scored.percentage,
        questionCount: scored.questionCount,
        status: done.status,
        certificateEligible: scored.eligible,
      },
    });
  }

  // the prerequisite (initial) assessment of a roadmap (server/assessments/initial.ts)
  serve(app, initialAssessmentRouter, {
    async generateInitialAssessment({ params, caller }) {
      return ok({ data: { linkId: await generateInitial(db, params.id, caller) } });
    },

    async initialAssessment({ params, caller }) {
      return ok({ data: await readInitialAssessment(db, params.linkId, caller) });
    },

    async evaluateAndCreateRoadmap({ body, caller }) {
      return ok({ data: await evaluateInitialAssessment(db, body, caller, clock()) });
    },
  });

  serve(
    app,
    assessmentsRouter,
    {
      async createTestLink({ body, caller }) {
        const link = await linkForLearner(db, caller.id, body, clock(), cooldownMs);
        return ok({ data: { testLinkId: link.linkId } });
      },

      async generateResourceTestLink({ params, query, caller }) {
        const found = await findResourceInRoadmaps(db, caller.id, params.id);
        if (!found) throw notFound('This resource is not in any of your roadmaps.');
        const link = await createLink(
          db,
          {
            type: 'RESOURCE-FROM-WHATSAPP',
            userId: caller.id,
            field: 'id',
            subjectId: found.ar.subjectId,
            roadmapId: found.ar.roadmapId,
            assignedRoadmapId: found.ar.id,
            sectionId: found.section.id,
            resourceId: params.id,
            candidates: await questionsTargeting(db, { resources: [params.id] }, found.ar.languageId),
            names: {
              assignedRoadMapName: found.ar.name,
              assignedSectionName: found.section.name,
              assignedResourceName: found.title,
            },
          },
          clock(),
          cooldownMs,
        );
        let emailed = false;
        if (query.send === 'email') {
          const url = `${config.publicUrl}/test/${link.linkId}`;
          const name = caller.user.name ?? '';
          await mail.send({
            to: caller.user.email,
            kind: 'test-link',
            subject: `Your test link for ${found.title}`,
            text: `Hello ${name},\n\nYour test link for "${found.title}" (${found.ar.name}) is ready.\nOpen it to read the instructions and start the test when you are ready:\n\n${url}\n\nThe link stays valid for ${Math.round(LINK_VALIDITY_MS / 86400_000)} days. Once started, you have ${link.timeLimitMinutes} minutes.\n\nWaymark`,
          });
          emailed = true;
        }
        return ok({ data: { testLinkId: link.linkId, emailed } });
      },

      async testLinkList({ query, caller }) {
        await settleUser(caller.id);
        const rows = await linksOf(db, caller.id, query.assignedRoadmapId);
        return ok({ data: await toApiLinks(db, rows, cooldownMs, clock()) });
      },

      async testLinkQuestions({ params, headers, caller }) {
        const holder = attemptTokenHash(params.id, headers['x-attempt-token']);
        return readyPage(params.id, caller, holder, await findLinkWithView(db, params.id, caller));
      },

      async verifyTestLink({ params, headers, caller }) {
        // a link that may start now starts in one statement with its view, bound to the starting browser's
        // token; any other (already started, not yours, not open yet, expired, in a retake's cool-down)
        // takes the long way, which says why
        const now = clock();
        const holder = attemptTokenHash(params.id, headers['x-attempt-token'])!;
        const quick = await startNow(db, params.id, caller, holder, now, cooldownMs);
        if (quick) return ok({ data: takerTest(quick.link, quick.view, true) });
        let link = await current(params.id, caller);
        assertTakeable(link, now);
        if (!link.startedAt) {
          await assertRetakeOpen(db, link, now, cooldownMs);
          link = await startLink(db, link, now, holder);
        }
        if (!holds(link, holder)) {
          // started by another browser (or, a moment ago, by another request): only the link's learner,
          // signed in, may move the attempt here (decision 031); the other browser's writes stop
          if (!caller || caller.id !== link.userId) assertHolder(link, holder);
          const moved = await moveAttempt(db, link, holder);
          if (!moved) {
            // it ended meanwhile: the error that says so
            assertTakeable(await current(params.id, caller), clock());
            throw testCompleted();
          }
          link = moved;
        }
        return ok({ data: takerTest(link, await takerView(db, link), true) });
      },

      async saveAnswer({ params, headers, body, caller }) {
        // an answer to a test in progress is checked and saved in one statement
        const holder = attemptTokenHash(params.id, headers['x-attempt-token']);
        if (await saveAnswerNow(db, params.id, caller, holder, body, clock()))
          return ok({ data: { ok: true } });
        // any other: the link and the answered question's key in one read, and the error that applies
        const found = await findLinkWithQuestion(db, params.id, body.questionId);
        const link = await inProgress(params.id, caller, holder, found?.link ?? null);
        await saveAnswer(db, link, body, found?.question ?? null);
        return ok({ data: { ok: true } });
      },

      async testActivity({ body, headers, caller }) {
        const link = await inProgress(
          body.linkId,
          caller,
          attemptTokenHash(body.linkId, headers['x-attempt-token']),
        );
        const now = clock();
        const toMs = (t: number) => (t < 1e11 ? t * 1000 : t); // unix seconds or milliseconds
        const happened = toMs(body.timeStamp);
        // the server's time: now, less how long the page held the event (an offline queue), within the attempt
        const held = body.sentAt === undefined ? 0 : Math.max(0, toMs(body.sentAt) - happened);
        const placed = new Date(Math.max(link.startedAt!.getTime(), now.getTime() - held)).toISOString();
        const timeStamp = new Date(Math.min(happened, 8.64e15));
        const stamp = timeStamp.toISOString();
        // ...and never out of the page's order: each request's own delay differs, so a return reported slowly
        // and a departure reported 50 ms later behind it would otherwise swap, and the absence be lost
        const at = sql`greatest(
          least(${placed}::timestamptz,
            (select min(e.at) from test_activity e where e.test_link_id = ${link.id} and e.time_stamp > ${stamp}::timestamptz)),
          (select max(e.at) from test_activity e where e.test_link_id = ${link.id} and e.time_stamp <= ${stamp}::timestamptz))`;
        await db
          .insert(testActivity)
          .values({
            testLinkId: link.id,
            type: body.type,
            timeStamp,
            at,
            question: body.question ?? null,
            chars: body.type === 'PASTE' ? (body.chars ?? null) : null,
            clientId: body.id ?? null,
          })
          .onConflictDoNothing();
        return ok({ data: { ok: true } });
      },

      async evaluateTest({ body, headers, caller }) {
        const holder = attemptTokenHash(body.linkId, headers['x-attempt-token']);
        return evaluate(body, caller, holder, await readForEvaluation(db, body.linkId, caller));
      },

      async viewTestLink({ params, caller }) {
        const found = await findLink(db, params.id);
        if (!found) throw notFound('Test link not found');
        if (found.userId !== caller.id) throw forbidden(LINK_MESSAGES.notYours);
        return ok({ data: await testReview(db, found, clock(), cooldownMs) });
      },

      async questionFeedback({ body, caller }) {
        const link = await findLink(db, body.testLinkId);
        if (!link) throw notFound('Test link not found');
        if (link.userId !== caller.id) throw forbidden(LINK_MESSAGES.notYours);
        if (!link.isCompleted) {
          throw conflict('Feedback can be given once the test is evaluated.', {
            errorCode: 'TEST_NOT_EVALUATED',
          });
        }
        const [inLink] = await db
          .select({ id: frozen.questionId })
          .from(frozen)
          .where(and(eq(frozen.testLinkId, link.id), eq(frozen.questionId, body.questionId)))
          .limit(1);
        if (!inLink) throw badRequest('questionId: is not a question of this test', 'questionId');
        await db.insert(questionFeedback).values({
          questionId: body.questionId,
          testLinkId: link.id,
          userId: caller.id,
          feedback: body.feedback,
        });
        return ok({ data: { ok: true }, message: 'Thank you for your feedback.' });
      },
    },
    // the hot calls of a test in progress: one statement that checks the caller's session and the
    // attempt's token too, the handler above for anything else (the errors, a resume's start, a takeover)
    {
      async testLinkQuestions({ params, headers, claimed }) {
        const found = await findLinkWithView(db, params.id, claimed);
        const holder = attemptTokenHash(params.id, headers['x-attempt-token']);
        return found ? readyPage(params.id, claimed, holder, found) : null;
      },
      async verifyTestLink({ params, headers, claimed }) {
        const holder = attemptTokenHash(params.id, headers['x-attempt-token'])!;
        const started = await startNow(db, params.id, claimed, holder, clock(), cooldownMs);
        return started ? ok({ data: takerTest(started.link, started.view, true) }) : null;
      },
      async saveAnswer({ params, headers, body, claimed }) {
        const holder = attemptTokenHash(params.id, headers['x-attempt-token']);
        return (await saveAnswerNow(db, params.id, claimed, holder, body, clock()))
          ? ok({ data: { ok: true } })
          : null;
      },
      async evaluateTest({ body, headers, claimed }) {
        // the whole answer sheet of a test in progress: scored and written in one statement (or, when that
        // statement finds anything else, what the long way needs to do it: the evaluation then writes)
        const holder = attemptTokenHash(body.linkId, headers['x-attempt-token']);
        const now = await evaluateNow(db, body.linkId, claimed, holder, body.answers, clock(), linkHooks);
        if (!now) return null;
        if ('done' in now) return evaluated(now.done.link, now.done.scored, true);
        return evaluate(body, claimed, holder, now.read);
      },
    },
  );

  // shortcuts for the end-to-end tests only (server/assessments/test-support.ts)
  if (config.env === 'test') testSupportRoutes(app, deps);
}
