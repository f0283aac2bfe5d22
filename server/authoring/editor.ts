/**
 * The question editor's service: a question's life from its first draft to its withdrawal (create, save,
 * delete, change type, options and images), its feedback for its creator, and the bank's search that the
 * assessment builder adds from. A question is its creator's to change; published ones are anyone's to read
 * (access.ts). The calls are served by questions.ts.
 */
import type {
  changeQuestionType as changeQuestionTypeCall,
  createQuestion as createQuestionCall,
  deleteImage as deleteImageCall,
  imageSignedUrl as imageSignedUrlCall,
  saveQuestion as saveQuestionCall,
  tenantQuestionSearch as tenantQuestionSearchCall,
  updateImagePath as updateImagePathCall,
} from '@shared/contract/authoring';
import type { CallBody, CallQuery } from '@shared/contract/define';
import { MAX_IMAGE_BYTES } from '@shared/formats/check';
import { isTextAnswer, typeSwitchKeepsOptions } from '@shared/rules/question-types';
import {
  DEFAULT_OPTION_COUNT,
  editorMessages,
  FILL_IN_BLANK_POINTS,
  MIN_OPTIONS,
  withOptionPoints,
} from '@shared/schemas/authoring';
import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { StorageAdapter } from '../adapters/storage';
import { questionFeedback, testLinkQuestions } from '../assessments/tables';
import type { Db } from '../db/client';
import { escapeLike } from '../db/like';
import { languages, subjects, topics, users } from '../db/schema';
import { badRequest, forbidden, notFound } from '../http/errors';
import { presignImageUpload } from '../http/files';
import type { Caller } from '../http/routes';
import { defaultLanguageFor, loadQuestion, loadQuestions, type QuestionCounts } from '../questions/load';
import { questionOptions, questions } from '../questions/tables';
import { appendToAssessment, ownedAssessment, ownedQuestion, readableQuestion } from './access';
import { assessmentDrafts, questionFeedbackActivity, tenantAssessmentQuestions } from './tables';

/** What the editor works with. */
export interface Editor {
  db: Db;
  storage: StorageAdapter;
  /** How often the bank's questions were drawn, and their feedback: the assessments'. */
  questionCounts: QuestionCounts;
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

/** The question as its author sees it now. */
const fresh = async (e: Editor, id: string) => (await loadQuestion(e.db, id, e.questionCounts))!;

/** Creates an empty question (PREVIEW) of the caller's with its default options; with an assessment, it waits
 * in the assessment's drafts and joins it when first saved. Returns its id. */
export async function createQuestion(
  e: Editor,
  body: CallBody<typeof createQuestionCall>,
  caller: Caller,
): Promise<string> {
  const { db } = e;
  const type = body.questionType;
  if (body.assessmentId) await ownedAssessment(db, body.assessmentId, caller);
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
  return id;
}

/** Saves the editor's question and publishes it; a question created in an assessment joins it now. */
export async function saveQuestion(
  e: Editor,
  id: string,
  body: CallBody<typeof saveQuestionCall>,
  caller: Caller,
) {
  const { db } = e;
  await ownedQuestion(db, id, caller);
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
      .where(eq(questions.id, id));
    await saveOptions(tx, id, options);
    // a question created in an assessment joins it now, with its first save
    const [waiting] = await tx
      .delete(assessmentDrafts)
      .where(eq(assessmentDrafts.questionId, id))
      .returning({ assessmentId: assessmentDrafts.assessmentId });
    if (waiting) await appendToAssessment(tx, waiting.assessmentId, id);
  });
  return fresh(e, id);
}

/** Deletes a question; one learners have met is withdrawn (from the bank and every assessment) instead. */
export async function deleteQuestion(e: Editor, id: string, caller: Caller) {
  const { db } = e;
  await ownedQuestion(db, id, caller);
  const [used] = await db
    .select({ n: count() })
    .from(testLinkQuestions)
    .where(eq(testLinkQuestions.questionId, id));
  if (Number(used?.n ?? 0) > 0) {
    // learners' past answers refer to it: withdraw it from the bank and from assessments instead
    await db.transaction(async (tx) => {
      await tx
        .update(questions)
        .set({ status: 'PREVIEW', updatedAt: new Date() })
        .where(eq(questions.id, id));
      await tx.delete(tenantAssessmentQuestions).where(eq(tenantAssessmentQuestions.questionId, id));
    });
  } else {
    await db.delete(questions).where(eq(questions.id, id));
  }
}

/** Changes a question's type, keeping its options where the new type reads them alike. */
export async function changeQuestionType(
  e: Editor,
  id: string,
  body: CallBody<typeof changeQuestionTypeCall>,
  caller: Caller,
) {
  const { db } = e;
  const row = await ownedQuestion(db, id, caller);
  const to = body.questionType;
  await db.transaction(async (tx) => {
    if (typeSwitchKeepsOptions(row.questionType, to)) {
      await tx
        .update(questionOptions)
        .set({ isCorrect: false, points: 0 })
        .where(eq(questionOptions.questionId, id));
    } else {
      const n = isTextAnswer(to) ? 1 : DEFAULT_OPTION_COUNT;
      await setOptions(
        tx,
        id,
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
      .where(eq(questions.id, id));
  });
  return fresh(e, id);
}

/** Removes an option, keeping at least the minimum. */
export async function removeOption(e: Editor, id: string, optionId: string, caller: Caller) {
  const { db } = e;
  await ownedQuestion(db, id, caller);
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(questionOptions)
    .where(eq(questionOptions.questionId, id));
  if (Number(n) <= MIN_OPTIONS) throw badRequest(editorMessages.minOptions, 'options');
  const removed = await db
    .delete(questionOptions)
    .where(and(eq(questionOptions.id, optionId), eq(questionOptions.questionId, id)))
    .returning({ id: questionOptions.id });
  if (!removed.length) throw notFound('Option not found');
  return fresh(e, id);
}

/** Sets the question's image and its options' values (an image question's options are images). */
export async function updateImagePath(
  e: Editor,
  id: string,
  body: CallBody<typeof updateImagePathCall>,
  caller: Caller,
) {
  const { db } = e;
  await ownedQuestion(db, id, caller);
  await db.transaction(async (tx) => {
    if (body.questionImagePath !== undefined) {
      await tx
        .update(questions)
        .set({ questionImagePath: body.questionImagePath || null })
        .where(eq(questions.id, id));
    }
    if (body.options) {
      const current = await tx
        .select({ id: questionOptions.id })
        .from(questionOptions)
        .where(eq(questionOptions.questionId, id))
        .orderBy(asc(questionOptions.position));
      for (const [i, o] of body.options.entries()) {
        const optionId = o._id ?? current[i]?.id;
        if (optionId)
          await tx
            .update(questionOptions)
            .set({ value: o.value })
            .where(and(eq(questionOptions.id, optionId), eq(questionOptions.questionId, id)));
        else await tx.insert(questionOptions).values({ questionId: id, position: i, value: o.value });
      }
    }
    await tx
      .update(questions)
      .set({ questionType: body.questionType, updatedAt: new Date() })
      .where(eq(questions.id, id));
  });
  return fresh(e, id);
}

/** Removes the question's image or one option's. */
export async function deleteImage(
  e: Editor,
  id: string,
  body: CallBody<typeof deleteImageCall>,
  caller: Caller,
) {
  const { db } = e;
  await ownedQuestion(db, id, caller);
  if (body.type === 'question') {
    await db
      .update(questions)
      .set({ questionImagePath: null, updatedAt: new Date() })
      .where(eq(questions.id, id));
  } else {
    if (body.optionIndex === undefined)
      throw badRequest('optionIndex is required for an option image', 'optionIndex');
    const opts = await db
      .select({ id: questionOptions.id })
      .from(questionOptions)
      .where(eq(questionOptions.questionId, id))
      .orderBy(asc(questionOptions.position));
    const target = opts[body.optionIndex];
    if (!target) throw notFound('Option not found');
    await db.update(questionOptions).set({ value: '' }).where(eq(questionOptions.id, target.id));
  }
  return fresh(e, id);
}

/** Removes the question's code. */
export async function deleteCode(e: Editor, id: string, caller: Caller) {
  const { db } = e;
  await ownedQuestion(db, id, caller);
  await db.update(questions).set({ code: null, updatedAt: new Date() }).where(eq(questions.id, id));
  return fresh(e, id);
}

/** An upload address for a question's or an option's image (decision 004's signed uploads). */
export async function questionImageUpload(
  e: Editor,
  body: CallBody<typeof imageSignedUrlCall>,
  caller: Caller,
) {
  const { db, storage } = e;
  await ownedQuestion(db, body.questionId, caller);
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
  return { url: signed.url, path: storage.publicUrl(key), expiresAt: signed.expiresAt.toISOString() };
}

/** Learners' feedback on a question, with what was done about it: for its creator only. */
export async function feedbackOfQuestion(e: Editor, id: string, caller: Caller) {
  const { db } = e;
  const q = await readableQuestion(db, id, caller, e.questionCounts);
  // learners' feedback names them and is written to the question's author: only its creator reads it.
  // The platform's own bank (createdBy null) would be read by a platform role, and there is none — the
  // roles are USER and TENANT — so nobody reads it through the API.
  if (!q.createdBy || q.createdBy._id !== caller.id)
    throw forbidden('Only the creator of a question can read its feedback.');
  const rows = await db
    .select({ f: questionFeedback, name: users.name, email: users.email, role: users.role })
    .from(questionFeedback)
    .leftJoin(users, eq(users.id, questionFeedback.userId))
    .where(eq(questionFeedback.questionId, id))
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
  return rows.map((r) => ({
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
  }));
}

/** A page of the bank's published questions, newest first, matching the search text if any. */
export async function searchQuestions(e: Editor, query: CallQuery<typeof tenantQuestionSearchCall>) {
  const { db } = e;
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
  return loadQuestions(
    db,
    rows.map((r) => r.id),
    e.questionCounts,
  );
}
