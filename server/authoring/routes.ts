import {
  addAssessmentQuestion,
  adminSubjectList,
  assessmentList,
  assessmentQuestionPools,
  assignAssessmentUsers,
  changeQuestionType,
  createAssessment,
  createQuestion,
  deleteCode,
  deleteImage,
  deleteQuestion,
  getAssessment,
  getQuestion,
  imageSignedUrl,
  questionFeedbackList,
  removeAssessmentQuestion,
  removeOption,
  saveQuestion,
  tenantQuestion,
  tenantQuestionRemove,
  tenantQuestionSearch,
  updateImagePath,
} from '@shared/contract/authoring';
import { MAX_IMAGE_BYTES } from '@shared/formats/check';
import { isTextAnswer, typeSwitchKeepsOptions } from '@shared/rules/question-types';
import type { Question } from '@shared/schemas/assessment';
import {
  DEFAULT_OPTION_COUNT,
  editorMessages,
  FILL_IN_BLANK_POINTS,
  MIN_OPTIONS,
  MIN_QUESTIONS_TO_SHARE,
  withOptionPoints,
} from '@shared/schemas/authoring';
import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../adapters/mail';
import { newLinkId, shuffle } from '../assessments/engine/drawing';
import { poolsOfQuestions } from '../assessments/pools';
import { questionCounts } from '../assessments/question-use';
import { questionFeedback, testLinkQuestions, testLinks } from '../assessments/tables';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { escapeLike } from '../db/like';
import { languages, subjects, tenantUsers, topics, users } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { presignImageUpload } from '../http/files';
import type { Caller } from '../http/routes';
import { ok, serve } from '../http/routes';
import { loadSubjects } from '../lists/routes';
import { defaultLanguageFor, loadQuestion, loadQuestions } from '../questions/load';
import { questionOptions, questions } from '../questions/tables';
import { importRoutes } from './import';
import {
  assessmentDrafts,
  questionFeedbackActivity,
  tenantAssessmentQuestions,
  tenantAssessments,
} from './tables';

export function authoringRoutes(app: FastifyInstance, deps: { db: Db; config: Config; mail: MailService }) {
  const { db, config, mail } = deps;

  /** The question, if the caller may read it: their own, or a published one. */
  async function readable(id: string, caller: Caller): Promise<Question> {
    const q = await loadQuestion(db, id, questionCounts);
    if (!q || (q.status !== 'PUBLISH' && q.createdBy?._id !== caller.id))
      throw notFound('Question not found');
    return q;
  }

  /** The question, if the caller created it. */
  async function owned(id: string, caller: Caller) {
    const [row] = await db.select().from(questions).where(eq(questions.id, id)).limit(1);
    if (!row) throw notFound('Question not found');
    if (row.createdBy !== caller.id) throw forbidden('Only the creator of a question can change it.');
    return row;
  }

  async function ownedAssessment(id: string, caller: Caller) {
    const [row] = await db.select().from(tenantAssessments).where(eq(tenantAssessments.id, id)).limit(1);
    if (!row || row.tenantId !== caller.id) throw notFound('Assessment not found');
    return row;
  }

  /**
   * The questions of an assessment: published ones only, in order. The builder, the list's count, sharing and
   * the pools all read this, so the share dialog and the server count the same questions (decision 010).
   */
  async function assessmentQuestionIds(assessmentId: string) {
    const rows = await db
      .select({ id: tenantAssessmentQuestions.questionId })
      .from(tenantAssessmentQuestions)
      .innerJoin(questions, eq(questions.id, tenantAssessmentQuestions.questionId))
      .where(and(eq(tenantAssessmentQuestions.assessmentId, assessmentId), eq(questions.status, 'PUBLISH')))
      .orderBy(asc(tenantAssessmentQuestions.position), asc(tenantAssessmentQuestions.addedAt));
    return rows.map((r) => r.id);
  }

  /** Adds a question after the last one (positions are not renumbered on removal, so not the count). */
  async function appendToAssessment(tx: Db, assessmentId: string, questionId: string) {
    const [{ next } = { next: 0 }] = await tx
      .select({ next: sql<number>`coalesce(max(${tenantAssessmentQuestions.position}) + 1, 0)::int` })
      .from(tenantAssessmentQuestions)
      .where(eq(tenantAssessmentQuestions.assessmentId, assessmentId));
    await tx
      .insert(tenantAssessmentQuestions)
      .values({ assessmentId, questionId, position: Number(next) })
      .onConflictDoNothing();
  }

  async function setOptions(
    tx: Db,
    questionId: string,
    options: { value: string; isCorrect: boolean; points: number }[],
  ) {
    await tx.delete(questionOptions).where(eq(questionOptions.questionId, questionId));
    if (options.length) {
      await tx.insert(questionOptions).values(options.map((o, position) => ({ questionId, position, ...o })));
    }
  }

  /**
   * Saves the editor's options in the order sent: an option sent back with its id keeps it (learners'
   * answers and the frozen option order of their tests refer to it), new ones are added, the rest removed.
   */
  async function saveOptions(
    tx: Db,
    questionId: string,
    options: { _id?: string; value: string; isCorrect: boolean; points: number }[],
  ) {
    const saved = await tx
      .select({ id: questionOptions.id })
      .from(questionOptions)
      .where(eq(questionOptions.questionId, questionId));
    const unused = new Set(saved.map((o) => o.id));
    const added: (typeof questionOptions.$inferInsert)[] = [];
    for (const [position, { _id, ...o }] of options.entries()) {
      if (_id && unused.delete(_id)) {
        await tx
          .update(questionOptions)
          .set({ ...o, position })
          .where(eq(questionOptions.id, _id));
      } else added.push({ questionId, position, ...o });
    }
    if (unused.size) await tx.delete(questionOptions).where(inArray(questionOptions.id, [...unused]));
    if (added.length) await tx.insert(questionOptions).values(added);
  }

  const fresh = async (id: string) => (await loadQuestion(db, id, questionCounts))!;

  importRoutes(app, { db });

  serve(
    app,
    {
      adminSubjectList,
      createQuestion,
      getQuestion,
      saveQuestion,
      deleteQuestion,
      changeQuestionType,
      removeOption,
      updateImagePath,
      deleteImage,
      deleteCode,
      imageSignedUrl,
      questionFeedbackList,
      assessmentList,
      assessmentQuestionPools,
      createAssessment,
      getAssessment,
      assignAssessmentUsers,
      addAssessmentQuestion,
      removeAssessmentQuestion,
      tenantQuestion,
      tenantQuestionSearch,
      tenantQuestionRemove,
    },
    {
      async adminSubjectList() {
        return ok({ data: await loadSubjects(db) });
      },

      async createQuestion({ body, caller }) {
        const type = body.questionType;
        if (body.assessmentId) await ownedAssessment(body.assessmentId, caller);
        const languageId = await defaultLanguageFor(db, caller.id);
        const id = await db.transaction(async (tx) => {
          const [q] = await tx
            .insert(questions)
            .values({
              questionType: type,
              status: 'PREVIEW',
              createdBy: caller.id,
              points: FILL_IN_BLANK_POINTS,
              languageId,
            })
            .returning({ id: questions.id });
          const count = isTextAnswer(type) ? 1 : DEFAULT_OPTION_COUNT;
          await tx.insert(questionOptions).values(
            Array.from({ length: count }, (_, position) => ({
              questionId: q!.id,
              position,
              value: '',
              isCorrect: false,
              points: 0,
            })),
          );
          // it joins the assessment when first saved: a draft left behind is in no assessment
          if (body.assessmentId)
            await tx.insert(assessmentDrafts).values({ questionId: q!.id, assessmentId: body.assessmentId });
          return q!.id;
        });
        return ok({ data: { questionId: id } });
      },

      async getQuestion({ params, caller }) {
        return ok({ data: await readable(params.id, caller) });
      },

      async saveQuestion({ params, body, caller }) {
        await owned(params.id, caller);
        const [topic] = await db
          .select({ id: topics.id })
          .from(topics)
          .where(and(eq(topics.id, body.topic!), eq(topics.subjectId, body.subject!)))
          .limit(1);
        if (!topic) throw badRequest('The topic does not belong to the subject', 'topic');
        if (body.language) {
          const [language] = await db
            .select({ id: languages.id })
            .from(languages)
            .where(eq(languages.id, body.language))
            .limit(1);
          if (!language) throw badRequest('language: is not a language of the list', 'language');
        }
        const fib = isTextAnswer(body.questionType);
        const options = fib
          ? body.options
              .filter((o) => o.value)
              .map((o) => ({ _id: o._id, value: o.value, isCorrect: true, points: 0 }))
          : withOptionPoints(body.options).map((o) => ({
              _id: o._id,
              value: o.value,
              isCorrect: o.isCorrect,
              points: o.points,
            }));
        await db.transaction(async (tx) => {
          await tx
            .update(questions)
            .set({
              question: body.question,
              questionType: body.questionType,
              code: body.code || null,
              questionImagePath: body.questionImagePath || null,
              points: fib ? body.points : FILL_IN_BLANK_POINTS,
              subjectId: body.subject!,
              topicId: body.topic!,
              ...(body.language ? { languageId: body.language } : {}),
              explanation: body.explanation.filter((e) => e.value.trim()),
              tags: [...new Set(body.tags.map((t) => t.toLowerCase()))],
              status: 'PUBLISH',
              updatedAt: new Date(),
            })
            .where(eq(questions.id, params.id));
          await saveOptions(tx, params.id, options);
          // a question created in an assessment joins it now, with its first save
          const [waiting] = await tx
            .delete(assessmentDrafts)
            .where(eq(assessmentDrafts.questionId, params.id))
            .returning({ assessmentId: assessmentDrafts.assessmentId });
          if (waiting) await appendToAssessment(tx, waiting.assessmentId, params.id);
        });
        return ok({ data: await fresh(params.id) });
      },

      async deleteQuestion({ params, caller }) {
        await owned(params.id, caller);
        const [used] = await db
          .select({ n: count() })
          .from(testLinkQuestions)
          .where(eq(testLinkQuestions.questionId, params.id));
        if (Number(used?.n ?? 0) > 0) {
          // learners' past answers refer to it: withdraw it from the bank and from assessments instead
          await db.transaction(async (tx) => {
            await tx
              .update(questions)
              .set({ status: 'PREVIEW', updatedAt: new Date() })
              .where(eq(questions.id, params.id));
            await tx
              .delete(tenantAssessmentQuestions)
              .where(eq(tenantAssessmentQuestions.questionId, params.id));
          });
        } else {
          await db.delete(questions).where(eq(questions.id, params.id));
        }
        return ok({ data: { ok: true } });
      },

      async changeQuestionType({ params, body, caller }) {
        const row = await owned(params.id, caller);
        const to = body.questionType;
        await db.transaction(async (tx) => {
          if (typeSwitchKeepsOptions(row.questionType, to)) {
            await tx
              .update(questionOptions)
              .set({ isCorrect: false, points: 0 })
              .where(eq(questionOptions.questionId, params.id));
          } else {
            const n = isTextAnswer(to) ? 1 : DEFAULT_OPTION_COUNT;
            await setOptions(
              tx,
              params.id,
              Array.from({ length: n }, () => ({ value: '', isCorrect: false, points: 0 })),
            );
          }
          await tx
            .update(questions)
            .set({
              questionType: to,
              points: isTextAnswer(to) ? FILL_IN_BLANK_POINTS : row.points,
              updatedAt: new Date(),
            })
            .where(eq(questions.id, params.id));
        });
        return ok({ data: await fresh(params.id) });
      },

      async removeOption({ params, caller }) {
        await owned(params.id, caller);
        const [{ n } = { n: 0 }] = await db
          .select({ n: count() })
          .from(questionOptions)
          .where(eq(questionOptions.questionId, params.id));
        if (Number(n) <= MIN_OPTIONS) throw badRequest(editorMessages.minOptions, 'options');
        const removed = await db
          .delete(questionOptions)
          .where(and(eq(questionOptions.id, params.optionId), eq(questionOptions.questionId, params.id)))
          .returning({ id: questionOptions.id });
        if (!removed.length) throw notFound('Option not found');
        return ok({ data: await fresh(params.id) });
      },

      async updateImagePath({ params, body, caller }) {
        await owned(params.id, caller);
        await db.transaction(async (tx) => {
          if (body.questionImagePath !== undefined) {
            await tx
              .update(questions)
              .set({ questionImagePath: body.questionImagePath || null })
              .where(eq(questions.id, params.id));
          }
          if (body.options) {
            const current = await tx
              .select({ id: questionOptions.id })
              .from(questionOptions)
              .where(eq(questionOptions.questionId, params.id))
              .orderBy(asc(questionOptions.position));
            for (const [i, o] of body.options.entries()) {
              const id = o._id ?? current[i]?.id;
              if (id)
                await tx
                  .update(questionOptions)
                  .set({ value: o.value })
                  .where(and(eq(questionOptions.id, id), eq(questionOptions.questionId, params.id)));
              else
                await tx
                  .insert(questionOptions)
                  .values({ questionId: params.id, position: i, value: o.value });
            }
          }
          await tx
            .update(questions)
            .set({ questionType: body.questionType, updatedAt: new Date() })
            .where(eq(questions.id, params.id));
        });
        return ok({ data: await fresh(params.id) });
      },

      async deleteImage({ params, body, caller }) {
        await owned(params.id, caller);
        if (body.type === 'question') {
          await db
            .update(questions)
            .set({ questionImagePath: null, updatedAt: new Date() })
            .where(eq(questions.id, params.id));
        } else {
          if (body.optionIndex === undefined)
            throw badRequest('optionIndex is required for an option image', 'optionIndex');
          const opts = await db
            .select({ id: questionOptions.id })
            .from(questionOptions)
            .where(eq(questionOptions.questionId, params.id))
            .orderBy(asc(questionOptions.position));
          const target = opts[body.optionIndex];
          if (!target) throw notFound('Option not found');
          await db.update(questionOptions).set({ value: '' }).where(eq(questionOptions.id, target.id));
        }
        return ok({ data: await fresh(params.id) });
      },

      async deleteCode({ params, caller }) {
        await owned(params.questionId, caller);
        await db
          .update(questions)
          .set({ code: null, updatedAt: new Date() })
          .where(eq(questions.id, params.questionId));
        return ok({ data: await fresh(params.questionId) });
      },

      async imageSignedUrl({ body, caller }) {
        await owned(body.questionId, caller);
        const { storage } = app.services;
        const ext = body.fileType === 'jpg' ? 'jpeg' : body.fileType;
        const key =
          body.type === 'question'
            ? `questions/${body.questionId}/question-${Date.now()}.${ext}`
            : `questions/${body.questionId}/option-${body.optionIndex ?? 0}-${Date.now()}.${ext}`;
        const signed = await presignImageUpload(storage, key, {
          contentType: `image/${ext}`,
          maxBytes: MAX_IMAGE_BYTES,
          size: body.size,
          field: 'size',
        });
        return ok({
          data: { url: signed.url, path: storage.publicUrl(key), expiresAt: signed.expiresAt.toISOString() },
        });
      },

      async questionFeedbackList({ params, caller }) {
        const q = await readable(params.id, caller);
        // learners' feedback names them and is written to the question's author: only its creator reads it.
        // The platform's own bank (createdBy null) would be read by a platform role, and there is none — the
        // roles are USER and TENANT — so nobody reads it through the API.
        if (!q.createdBy || q.createdBy._id !== caller.id)
          throw forbidden('Only the creator of a question can read its feedback.');
        const rows = await db
          .select({ f: questionFeedback, name: users.name, email: users.email, role: users.role })
          .from(questionFeedback)
          .leftJoin(users, eq(users.id, questionFeedback.userId))
          .where(eq(questionFeedback.questionId, params.id))
          .orderBy(desc(questionFeedback.createdAt));
        const activity = rows.length
          ? await db
              .select({ a: questionFeedbackActivity, name: users.name, email: users.email })
              .from(questionFeedbackActivity)
              .leftJoin(users, eq(users.id, questionFeedbackActivity.userId))
              .where(
                inArray(
                  questionFeedbackActivity.feedbackId,
                  rows.map((r) => r.f.id),
                ),
              )
              .orderBy(asc(questionFeedbackActivity.createdAt))
          : [];
        return ok({
          data: rows.map((r) => ({
            _id: r.f.id,
            feedback: r.f.feedback,
            status: r.f.status,
            createdAt: r.f.createdAt.toISOString(),
            userId: { name: r.name ?? r.email ?? 'A learner', role: r.role ?? 'USER' },
            activites: activity
              .filter((a) => a.a.feedbackId === r.f.id)
              .map((a) => ({
                message: a.a.message,
                toStatus: a.a.toStatus,
                createdAt: a.a.createdAt.toISOString(),
                userId: { name: a.name ?? a.email ?? 'Waymark' },
              })),
          })),
        });
      },

      async assessmentList({ caller }) {
        const rows = await db
          .select({
            a: tenantAssessments,
            // published questions only, as the builder shows and sharing counts
            n: sql<number>`count(${questions.id})::int`,
          })
          .from(tenantAssessments)
          .leftJoin(
            tenantAssessmentQuestions,
            eq(tenantAssessmentQuestions.assessmentId, tenantAssessments.id),
          )
          .leftJoin(
            questions,
            and(eq(questions.id, tenantAssessmentQuestions.questionId), eq(questions.status, 'PUBLISH')),
          )
          .where(eq(tenantAssessments.tenantId, caller.id))
          .groupBy(tenantAssessments.id)
          .orderBy(desc(tenantAssessments.createdAt));
        const tenantName = caller.user.name ?? caller.user.email;
        return ok({
          data: rows.map((r) => ({
            _id: r.a.id,
            name: r.a.name,
            tenantId: { _id: caller.id, name: tenantName },
            createdAt: r.a.createdAt.toISOString(),
            questionCount: Number(r.n),
          })),
        });
      },

      async createAssessment({ body, caller }) {
        const [row] = await db
          .insert(tenantAssessments)
          .values({ tenantId: caller.id, name: body.name })
          .returning({ id: tenantAssessments.id });
        return ok({ data: { _id: row!.id } });
      },

      async getAssessment({ params, caller }) {
        const a = await ownedAssessment(params.assessmentId, caller);
        const ids = await assessmentQuestionIds(a.id);
        return ok({
          data: {
            _id: a.id,
            name: a.name,
            tenantId: { _id: caller.id, name: caller.user.name ?? caller.user.email },
            createdAt: a.createdAt.toISOString(),
            questions: await loadQuestions(db, ids, questionCounts),
          },
        });
      },

      async assessmentQuestionPools({ params, caller }) {
        const a = await ownedAssessment(params.assessmentId, caller);
        return ok({ data: await poolsOfQuestions(db, await assessmentQuestionIds(a.id)) });
      },

      async assignAssessmentUsers({ params, body, caller }) {
        const a = await ownedAssessment(params.id, caller);
        const usable = await loadQuestions(db, await assessmentQuestionIds(a.id), questionCounts);
        if (usable.length < MIN_QUESTIONS_TO_SHARE)
          throw badRequest(editorMessages.minQuestionsToShare, 'questions');
        if (body.startTime < Date.now() - 60_000)
          throw badRequest('The start time cannot be in the past', 'startTime');
        const userIds = [...new Set(body.userIds)];
        const seats = await db
          .select({ id: users.id, email: users.email, name: users.name })
          .from(tenantUsers)
          .innerJoin(users, eq(users.id, tenantUsers.learnerId))
          .where(
            and(
              eq(tenantUsers.tenantId, caller.id),
              eq(tenantUsers.isDisabled, false),
              inArray(tenantUsers.learnerId, userIds),
            ),
          );
        if (seats.length !== userIds.length)
          throw badRequest('Some of these people are not your learners', 'userIds');
        if (!body.force) {
          // a second share gives a second test and e-mail: only when asked for
          const had = await db
            .select({ userId: testLinks.userId, createdAt: sql<Date>`min(${testLinks.createdAt})` })
            .from(testLinks)
            .where(and(eq(testLinks.tenantAssessmentId, a.id), inArray(testLinks.userId, userIds)))
            .groupBy(testLinks.userId);
          if (had.length) {
            const emailOf = new Map(seats.map((s) => [s.id, s.email]));
            const alreadyShared = had
              .map((h) => ({
                _id: h.userId ?? '',
                email: emailOf.get(h.userId ?? '') ?? '',
                sharedAt: new Date(h.createdAt).toISOString(),
              }))
              .sort((x, y) => x.email.localeCompare(y.email));
            const names = alreadyShared.map((l) => l.email);
            throw conflict(
              `${had.length === 1 ? '1 learner already has' : `${had.length} learners already have`} a test of this assessment: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}. Share again with force to give them another.`,
              { errorCode: 'ALREADY_SHARED', field: 'userIds', alreadyShared },
            );
          }
        }
        const start = new Date(body.startTime);
        const end = new Date(body.startTime + body.duration * 3600_000);
        // every learner's link and its frozen questions in two statements (made at share time, so that a
        // start on the day is one cheap update: issue 15)
        const created = await db.transaction(async (tx) => {
          const planned = seats.map((learner) => ({ learner, linkId: newLinkId() }));
          const links = await tx
            .insert(testLinks)
            .values(
              planned.map(({ learner, linkId }) => ({
                linkId,
                type: 'CUSTOM-TEST' as const,
                userId: learner.id,
                tenantAssessmentId: a.id,
                assignedSubjectName: a.name,
                questionCount: usable.length,
                timeLimitMinutes: body.duration * 60,
                startTime: start,
                durationHours: body.duration,
                expiresAt: end,
              })),
            )
            .returning({ id: testLinks.id, linkId: testLinks.linkId });
          await tx.insert(testLinkQuestions).values(
            links.flatMap((link) =>
              usable.map((q, position) => ({
                testLinkId: link.id,
                questionId: q._id,
                position,
                optionOrder: shuffle(q.options.map((o) => o._id)),
              })),
            ),
          );
          return planned.map(({ learner, linkId }) => ({ linkId, email: learner.email, name: learner.name }));
        });
        const when = start.toUTCString();
        for (const c of created) {
          const url = `${config.publicUrl}/test/${c.linkId}`;
          await mail
            .send({
              to: c.email,
              kind: 'custom-test',
              subject: `New assessment: ${a.name}`,
              text: `Hello ${c.name ?? ''},\n\n${caller.user.name ?? 'Your mentor'} has shared the assessment "${a.name}" with you.\nIt opens at ${when} for ${body.duration} hour(s).\n\nTake it here: ${url}\n\nWaymark`,
            })
            .catch(() => undefined);
        }
        return ok({ data: { created: created.length, linkIds: created.map((c) => c.linkId) } });
      },

      async addAssessmentQuestion({ params, caller }) {
        const a = await ownedAssessment(params.assessmentId, caller);
        const q = await readable(params.questionId, caller);
        if (q.status !== 'PUBLISH') throw badRequest(editorMessages.saveBeforeAdding, 'questionId');
        await appendToAssessment(db, a.id, params.questionId);
        return ok({ data: { ok: true } });
      },

      async removeAssessmentQuestion({ params, caller }) {
        const a = await ownedAssessment(params.assessmentId, caller);
        await db
          .delete(tenantAssessmentQuestions)
          .where(
            and(
              eq(tenantAssessmentQuestions.assessmentId, a.id),
              eq(tenantAssessmentQuestions.questionId, params.questionId),
            ),
          );
        return ok({ data: { ok: true } });
      },

      async tenantQuestion({ params, caller }) {
        return ok({ data: await readable(params.id, caller) });
      },

      async tenantQuestionSearch({ query }) {
        const text = query.searchText?.toLowerCase();
        // published questions: what can be added to an assessment (a draft joins one when saved)
        const visible = eq(questions.status, 'PUBLISH');
        const where = text
          ? and(
              visible,
              or(
                ilike(questions.question, `%${escapeLike(text)}%`),
                sql`${text} = any(${questions.tags})`,
                ilike(subjects.name, `%${escapeLike(text)}%`),
              ),
            )
          : visible;
        const rows = await db
          .select({ id: questions.id })
          .from(questions)
          .leftJoin(subjects, eq(subjects.id, questions.subjectId))
          .where(where)
          // the id breaks ties, so pages neither repeat nor skip a question
          .orderBy(desc(questions.updatedAt), asc(questions.id))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit);
        return ok({
          data: await loadQuestions(
            db,
            rows.map((r) => r.id),
            questionCounts,
          ),
        });
      },

      async tenantQuestionRemove({ params, body, caller }) {
        const a = await ownedAssessment(body.assessmentId, caller);
        await db
          .delete(tenantAssessmentQuestions)
          .where(
            and(
              eq(tenantAssessmentQuestions.assessmentId, a.id),
              eq(tenantAssessmentQuestions.questionId, params.id),
            ),
          );
        return ok({ data: { ok: true } });
      },
    },
  );
}
