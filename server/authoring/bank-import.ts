/**
 * Importing a bank of questions (decision 012), the service import.ts serves: which questions of a file are new, unchanged or changed; upload
 * addresses for their images; and the batch import, which creates each question whole — its options, its
 * images, its place in an assessment and the record of where it came from — in one transaction, so an
 * import interrupted at any point leaves no half-made question, and one run again creates nothing twice.
 *
 * Where a question came from is remembered per author (question_import_sources): the file's own id of the
 * question, or a hash of its content, with the fingerprint of what was imported. A key `waymark:{id}` of a
 * question the caller created (what Waymark's own export writes) is that question, so a bank exported and
 * imported again is `unchanged`.
 */
import { randomBytes } from 'node:crypto';
import type { CallBody } from '@shared/contract/define';
import { IMPORT_BATCH, type importQuestions as importQuestionsCall } from '@shared/contract/question-import';
import { MAX_IMAGE_BYTES } from '@shared/formats/check';
import { addressIdentity, bytesIdentity, fingerprint, sha256Hex } from '@shared/formats/fingerprint';
import { imageInfo } from '@shared/formats/image';
import { DEFAULT_QUESTION_TYPE, hasImageOptions, isTextAnswer } from '@shared/rules/question-types';
import type { Question } from '@shared/schemas/assessment';
import {
  DROPZONE_HEIGHT,
  DROPZONE_WIDTH,
  editorMessages,
  FILL_IN_BLANK_POINTS,
  withOptionPoints,
} from '@shared/schemas/authoring';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { contentTypeOfKey, type StorageAdapter, sniffImageType } from '../adapters/storage';
import type { Db } from '../db/client';
import { inTx, type Tx } from '../db/helpers';
import { languages, topics } from '../db/schema';
import { presignImageUpload } from '../http/files';
import type { Caller } from '../http/routes';
import { defaultLanguageFor, loadQuestions, type QuestionCounts } from '../questions/load';
import { questionOptions, questions } from '../questions/tables';
import { appendToAssessment, ownedAssessment } from './access';
import { questionImportSources } from './tables';

const WAYMARK_KEY = /^waymark:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

type CheckStatus = 'new' | 'unchanged' | 'changed';
interface Known {
  questionId: string;
  /** Fingerprints the question matches: the one recorded at import, or those of the stored question. */
  fingerprints: string[];
  recorded: boolean;
}

/** What an import works with: the database, the storage of its images, the bank's counts. */
export interface Importer {
  db: Db;
  storage: StorageAdapter;
  /** How often the bank's questions were drawn, and their feedback: the assessments'. */
  questionCounts: QuestionCounts;
}

type Batch = CallBody<typeof importQuestionsCall>;
type Item = Batch['questions'][number];
type Result = {
  key: string;
  status: 'created' | 'updated' | 'unchanged' | 'changed' | 'failed';
  questionId: string | null;
  field?: string;
  message?: string;
};

/** Where the caller's uploads for imports go: imports/{caller}/{random}.{ext}. */
const uploadPrefix = (callerId: string) => `imports/${callerId}/`;

class Conflict extends Error {}

/**
 * Records where a question came from (question_import_sources, one row per author and key). An update moves
 * the record to what was imported now; a new question claims the key, and gets false when another import
 * of the same file claimed it first.
 */
async function recordSource(
  tx: Tx,
  authorId: string,
  item: { key: string; fingerprint: string },
  questionId: string,
  as: 'create' | 'update',
): Promise<boolean> {
  const { key, fingerprint } = item;
  const insert = tx
    .insert(questionImportSources)
    .values({ authorId, sourceKey: key, questionId, fingerprint });
  const recorded = await (as === 'update'
    ? insert.onConflictDoUpdate({
        target: [questionImportSources.authorId, questionImportSources.sourceKey],
        set: { questionId, fingerprint, updatedAt: new Date() },
      })
    : insert.onConflictDoNothing()
  ).returning({ key: questionImportSources.sourceKey });
  return recorded.length > 0;
}

/** The storage key of an address this server's storage serves, or null. */
function keyOfAddress(im: Importer, address: string): string | null {
  const probe = im.storage.publicUrl('k');
  const base = probe.slice(0, -1);
  if (!address.startsWith(base)) return null;
  return address
    .slice(base.length)
    .split('/')
    .map((p) => decodeURIComponent(p))
    .join('/');
}

/** The fingerprints of a stored question: images by address, and by their bytes when this server holds them. */
async function storedFingerprints(im: Importer, q: Question): Promise<string[]> {
  const image = hasImageOptions(q.questionType);
  const base = {
    question: q.question,
    questionType: q.questionType,
    code: q.code,
    points: q.points,
    subject: q.subject,
    topic: q.topic,
    explanation: q.explanation,
    tags: q.tags,
  };
  const byAddress = await fingerprint({
    ...base,
    image: q.questionImagePath ? addressIdentity(q.questionImagePath) : null,
    options: q.options.map((o) => ({
      value: image ? addressIdentity(o.value) : o.value,
      isCorrect: o.isCorrect,
    })),
  });
  if (!q.questionImagePath && !image) return [byAddress];
  const bytesOf = async (address: string) => {
    const key = keyOfAddress(im, address);
    const bytes = key ? await im.storage.readPrefix(key, MAX_IMAGE_BYTES) : null;
    return bytes ? bytesIdentity(await sha256Hex(bytes)) : addressIdentity(address);
  };
  const byBytes = await fingerprint({
    ...base,
    image: q.questionImagePath ? await bytesOf(q.questionImagePath) : null,
    options: await Promise.all(
      q.options.map(async (o) => ({
        value: image ? await bytesOf(o.value) : o.value,
        isCorrect: o.isCorrect,
      })),
    ),
  });
  return [byAddress, byBytes];
}

/** What the caller already has of these keys. */
async function known(im: Importer, caller: Caller, keys: string[]): Promise<Map<string, Known>> {
  const { db } = im;
  const out = new Map<string, Known>();
  if (!keys.length) return out;
  const rows = await db
    .select({
      key: questionImportSources.sourceKey,
      questionId: questionImportSources.questionId,
      fingerprint: questionImportSources.fingerprint,
    })
    .from(questionImportSources)
    .where(
      and(eq(questionImportSources.authorId, caller.id), inArray(questionImportSources.sourceKey, keys)),
    );
  for (const r of rows)
    out.set(r.key, { questionId: r.questionId, fingerprints: [r.fingerprint], recorded: true });
  const own = keys
    .filter((k) => !out.has(k))
    .map((k) => WAYMARK_KEY.exec(k)?.[1])
    .filter((id): id is string => Boolean(id));
  if (own.length) {
    const stored = (await loadQuestions(db, [...new Set(own)], im.questionCounts)).filter(
      (q) => q.createdBy?._id === caller.id && q.status === 'PUBLISH',
    );
    for (const q of stored)
      out.set(`waymark:${q._id}`, {
        questionId: q._id,
        fingerprints: await storedFingerprints(im, q),
        recorded: false,
      });
  }
  return out;
}

const statusOf = (k: Known | undefined, fp: string): CheckStatus =>
  !k ? 'new' : k.fingerprints.includes(fp) ? 'unchanged' : 'changed';

/** Checks an uploaded image of the caller's; returns its address or the reason it cannot be used. */
async function uploadedImage(
  im: Importer,
  caller: Caller,
  key: string,
  exactSize: boolean,
): Promise<{ address: string } | { message: string }> {
  if (!key.startsWith(uploadPrefix(caller.id)) || key.includes('..'))
    return { message: 'is not an image you uploaded for this import' };
  const s = im.storage;
  const bytes = await s.readPrefix(key, MAX_IMAGE_BYTES + 1).catch(() => null);
  if (!bytes) return { message: 'was never uploaded (or its upload did not finish)' };
  if (bytes.length > MAX_IMAGE_BYTES)
    return { message: `is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB` };
  const sniffed = sniffImageType(bytes);
  if (!sniffed || sniffed !== contentTypeOfKey(key)) return { message: 'is not a jpeg, png or webp image' };
  if (exactSize) {
    const info = imageInfo(bytes);
    if (info?.width !== DROPZONE_WIDTH || info?.height !== DROPZONE_HEIGHT)
      return {
        message: `${editorMessages.imageDimension} It is ${info?.width ?? '?'}×${info?.height ?? '?'}.`,
      };
  }
  return { address: s.publicUrl(key) };
}

/** Keeps option ids by position (learners' answers and frozen tests refer to them), adds and removes the rest. */
async function writeOptions(
  tx: Db,
  questionId: string,
  options: { value: string; isCorrect: boolean; points: number }[],
) {
  const saved = await tx
    .select({ id: questionOptions.id })
    .from(questionOptions)
    .where(eq(questionOptions.questionId, questionId))
    .orderBy(asc(questionOptions.position));
  for (const [position, o] of options.entries()) {
    const existing = saved[position];
    if (existing)
      await tx
        .update(questionOptions)
        .set({ ...o, position })
        .where(eq(questionOptions.id, existing.id));
    else await tx.insert(questionOptions).values({ questionId, position, ...o });
  }
  const surplus = saved.slice(options.length).map((o) => o.id);
  if (surplus.length) await tx.delete(questionOptions).where(inArray(questionOptions.id, surplus));
}

// ---------------------------------------------------------------- the calls

/** Which of a file's questions the caller has, unchanged or changed, and which are new. */
export async function checkImport(
  im: Importer,
  items: { key: string; fingerprint: string }[],
  caller: Caller,
) {
  const have = await known(im, caller, [...new Set(items.map((i) => i.key))]);
  return items.map((i) => {
    const k = have.get(i.key);
    return { key: i.key, status: statusOf(k, i.fingerprint), questionId: k?.questionId ?? null };
  });
}

/** An upload address for one image of an import, under the caller's own prefix. */
export async function importUpload(im: Importer, file: { fileType: string; size?: number }, caller: Caller) {
  const ext = file.fileType === 'jpg' ? 'jpeg' : file.fileType;
  const key = `${uploadPrefix(caller.id)}${randomBytes(12).toString('hex')}.${ext}`;
  const signed = await presignImageUpload(im.storage, key, {
    contentType: `image/${ext}`,
    maxBytes: MAX_IMAGE_BYTES,
    size: file.size,
    field: 'size',
  });
  return { url: signed.url, key, expiresAt: signed.expiresAt.toISOString() };
}

/** What a batch's questions name that must exist: their topics' subjects, their languages, the default. */
async function namedIn(im: Importer, items: Item[], caller: Caller) {
  const { db } = im;
  const topicIds = [...new Set(items.map((i) => i.question.topic).filter((t): t is string => Boolean(t)))];
  const topicSubject = new Map(
    (topicIds.length
      ? await db
          .select({ id: topics.id, subjectId: topics.subjectId })
          .from(topics)
          .where(inArray(topics.id, topicIds))
      : []
    ).map((t) => [t.id, t.subjectId]),
  );
  // a question names its language, or is in the author's usual one (as the editor's new questions are)
  const languageIds = [
    ...new Set(items.map((i) => i.question.language).filter((l): l is string => Boolean(l))),
  ];
  const knownLanguages = new Set(
    (languageIds.length
      ? await db.select({ id: languages.id }).from(languages).where(inArray(languages.id, languageIds))
      : []
    ).map((l) => l.id),
  );
  return { topicSubject, knownLanguages, defaultLanguage: await defaultLanguageFor(db, caller.id) };
}

/**
 * The item's images, checked (images first: a question whose image is wrong is not created at all): its
 * image's address and its options' values, or what is wrong — the uploads are then removed, of no use to
 * anyone.
 */
async function imagesOf(
  im: Importer,
  item: Item,
  caller: Caller,
): Promise<
  { questionImagePath: string | null; optionValues: string[] } | { field: string; message: string }
> {
  const q = item.question;
  let questionImagePath = q.questionImagePath || null;
  const optionValues = q.options.map((o) => o.value);
  let bad: { field: string; message: string } | null = null;
  if (item.uploads?.question) {
    const r = await uploadedImage(im, caller, item.uploads.question, true);
    if ('message' in r) bad = { field: 'image', message: `The image ${r.message}.` };
    else questionImagePath = r.address;
  }
  for (const [i, key] of (item.uploads?.options ?? []).entries()) {
    if (bad || !key) continue;
    if (i >= optionValues.length) {
      bad = { field: `options: option ${i + 1}`, message: 'There is no such option.' };
      continue;
    }
    const r = await uploadedImage(im, caller, key, false);
    if ('message' in r) bad = { field: `options: option ${i + 1}`, message: `The image ${r.message}.` };
    else optionValues[i] = r.address;
  }
  if (!bad) return { questionImagePath, optionValues };
  const keys = [item.uploads?.question, ...(item.uploads?.options ?? [])].filter(
    (x): x is string => Boolean(x) && x!.startsWith(uploadPrefix(caller.id)),
  );
  await Promise.all(keys.map((key) => im.storage.remove(key).catch(() => undefined)));
  return bad;
}

/** The question's columns and options as an import writes them. */
function importedRows(
  q: Item['question'],
  images: { questionImagePath: string | null; optionValues: string[] },
) {
  const { questionImagePath, optionValues } = images;
  const fib = isTextAnswer(q.questionType);
  const options = fib
    ? optionValues.filter(Boolean).map((value) => ({ value, isCorrect: true, points: 0 }))
    : withOptionPoints(
        q.options.map((o, i) => ({ value: optionValues[i]!, isCorrect: o.isCorrect ?? false, points: 0 })),
      );
  const fields = {
    question: q.question,
    questionType: q.questionType ?? DEFAULT_QUESTION_TYPE,
    code: q.code || null,
    questionImagePath,
    points: fib ? (q.points ?? FILL_IN_BLANK_POINTS) : FILL_IN_BLANK_POINTS,
    subjectId: q.subject!,
    topicId: q.topic!,
    explanation: q.explanation.filter((e) => e.value.trim()),
    tags: [...new Set(q.tags.map((t) => t.toLowerCase()))],
    status: 'PUBLISH' as const,
    updatedAt: new Date(),
  };
  return { fields, options };
}

/**
 * Writes one question whole — updated (`k`: the caller's question of this key) or created, its options, where
 * it came from, its place in the assessment — in one transaction; its id. A Conflict when another import of
 * the same file created it first.
 */
async function writeQuestion(
  im: Importer,
  item: Item,
  k: Known | undefined,
  rows: ReturnType<typeof importedRows>,
  to: { assessmentId?: string; languageId: string },
  caller: Caller,
) {
  const q = item.question;
  const { fields, options } = rows;
  return inTx(im.db, async (t) => {
    let questionId: string;
    if (k) {
      questionId = k.questionId;
      await t
        .update(questions)
        .set({ ...fields, ...(q.language ? { languageId: q.language } : {}) })
        .where(eq(questions.id, questionId));
      await writeOptions(t, questionId, options);
      await recordSource(t, caller.id, item, questionId, 'update');
    } else {
      const [row] = await t
        .insert(questions)
        .values({ ...fields, languageId: q.language ?? to.languageId, createdBy: caller.id })
        .returning({ id: questions.id });
      questionId = row!.id;
      if (options.length)
        await t
          .insert(questionOptions)
          .values(options.map((o, position) => ({ questionId, position, ...o })));
      // another import of the same file got there first: this one creates nothing
      if (!(await recordSource(t, caller.id, item, questionId, 'create'))) throw new Conflict();
    }
    if (to.assessmentId) await appendToAssessment(t, to.assessmentId, questionId);
    return questionId;
  });
}

/**
 * Imports a batch (at most IMPORT_BATCH questions): each question of a key the caller has not, created; of a
 * key they have, left as it is unless `update` and changed; each in a transaction of its own (decision 012).
 * One result a question, in order.
 */
export async function importBatch(im: Importer, body: Batch, caller: Caller): Promise<Result[]> {
  if (body.assessmentId) await ownedAssessment(im.db, body.assessmentId, caller);
  const items = body.questions.slice(0, IMPORT_BATCH);
  const have = await known(im, caller, [...new Set(items.map((i) => i.key))]);
  const named = await namedIn(im, items, caller);
  const to = { assessmentId: body.assessmentId, languageId: named.defaultLanguage };
  const results: Result[] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    const q = item.question;
    const k = have.get(item.key);
    const status = statusOf(k, item.fingerprint);
    const repeat = seen.get(item.key);
    if (repeat !== undefined) {
      results.push({ key: item.key, status: 'unchanged', questionId: results[repeat]!.questionId });
      continue;
    }
    seen.set(item.key, results.length);
    if (k && (status === 'unchanged' || !body.update)) {
      if (body.assessmentId) await appendToAssessment(im.db, body.assessmentId, k.questionId);
      results.push({
        key: item.key,
        status: status === 'new' ? 'changed' : status,
        questionId: k.questionId,
      });
      continue;
    }
    const fail = (field: string, message: string) =>
      results.push({ key: item.key, status: 'failed', questionId: null, field, message });
    if (!q.topic || named.topicSubject.get(q.topic) !== q.subject) {
      fail('topic', 'The topic does not belong to the subject');
      continue;
    }
    if (q.language && !named.knownLanguages.has(q.language)) {
      fail('language', 'is not a language of the list');
      continue;
    }
    const images = await imagesOf(im, item, caller);
    if ('message' in images) {
      fail(images.field, images.message);
      continue;
    }
    try {
      const id = await writeQuestion(im, item, k, importedRows(q, images), to, caller);
      results.push({ key: item.key, status: k ? 'updated' : 'created', questionId: id });
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      const now = (await known(im, caller, [item.key])).get(item.key);
      const raced = statusOf(now, item.fingerprint);
      results.push({
        key: item.key,
        status: raced === 'new' ? 'failed' : raced,
        questionId: now?.questionId ?? null,
      });
    }
  }
  return results;
}
