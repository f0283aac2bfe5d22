/**
 * Seeds the demo catalogue on first start (server/db/seed.ts): six roadmaps in two subjects and two
 * languages, of real public resources (MDN, the TypeScript handbook, the Python documentation in Spanish,
 * the PostgreSQL manual, Pro Git, and YouTube lessons with start and end marks), with tasks, curators,
 * prerequisites and the demo question bank. The content is data, by subject, in server/demo/subjects/
 * (one file per roadmap with its questions; the curators in authors.ts); this file holds the seeding.
 *
 * Idempotent: a `catalogue-seed` version in system_state skips it once done; below that, every item is
 * looked up before it is inserted (roadmaps by name, resources by short id, authors by name, questions by
 * text and target), so a half-seeded database is completed rather than duplicated.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_QUESTION_TYPE, isTextAnswer } from '@shared/rules/question-types';
import { and, eq, isNull } from 'drizzle-orm';
import {
  authors,
  resources,
  roadmapAuthors,
  roadmapPrerequisites,
  roadmaps,
  sectionResources,
  sections,
  tasks,
} from '../catalogue/tables';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { languages, subjects, systemState, topics } from '../db/schema';
import { questionOptions, questions, questionTargets } from '../questions/tables';
import { DEMO_AUTHORS } from './authors';
import { DEMO_QUESTIONS, DEMO_ROADMAPS } from './subjects';
import type { DemoQuestion, DemoResource } from './types';

export const CATALOGUE_SEED_KEY = 'catalogue-seed';
/** 2: Git and GitHub has eight tasks (the course page's 'Show More' has something to show). */
export const CATALOGUE_SEED_VERSION = 2;

/** 'h:mm:ss' → seconds. */
export function parseMark(mark: string | undefined): number | null {
  if (!mark) return null;
  const parts = mark.split(':').map(Number);
  if (parts.length !== 3 || parts.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new Error(`A time mark is written h:mm:ss, not ${mark}`);
  }
  const [h, m, s] = parts as [number, number, number];
  return h * 3600 + m * 60 + s;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A stable short id for a demo resource (the same on every fresh install): /resource/{shortId}. */
export function demoShortId(key: string): string {
  const digest = createHash('sha256').update(`waymark-demo-resource:${key}`).digest();
  return [...digest.subarray(0, 8)].map((b) => BASE62[b % 62]).join('');
}

/** Every demo resource by key (each defined once; sections of other roadmaps refer to it by key). */
export function demoResources(): Map<string, DemoResource> {
  const all = new Map<string, DemoResource>();
  for (const r of DEMO_ROADMAPS) {
    for (const s of r.sections) {
      for (const res of s.resources) {
        if (typeof res === 'string') continue;
        if (all.has(res.key)) throw new Error(`The demo resource ${res.key} is defined twice`);
        all.set(res.key, res);
      }
    }
  }
  return all;
}

async function languageId(db: Db, name: string): Promise<string> {
  await db.insert(languages).values({ name }).onConflictDoNothing();
  const [row] = await db
    .select({ id: languages.id })
    .from(languages)
    .where(eq(languages.name, name))
    .limit(1);
  return row!.id;
}

async function subjectId(db: Db, name: string): Promise<string> {
  await db.insert(subjects).values({ name }).onConflictDoNothing();
  const [row] = await db.select({ id: subjects.id }).from(subjects).where(eq(subjects.name, name)).limit(1);
  return row!.id;
}

async function topicId(db: Db, subjectId: string, name: string): Promise<string> {
  await db.insert(topics).values({ subjectId, name }).onConflictDoNothing();
  const [row] = await db
    .select({ id: topics.id })
    .from(topics)
    .where(and(eq(topics.subjectId, subjectId), eq(topics.name, name)))
    .limit(1);
  return row!.id;
}

interface Ids {
  roadmaps: Map<string, { id: string; subjectId: string; topicId: string; languageId: string }>;
  sections: Map<string, string>;
  resources: Map<string, string>;
}

async function seedRoadmaps(db: Db): Promise<Ids & { created: number }> {
  const ids: Ids = { roadmaps: new Map(), sections: new Map(), resources: new Map() };
  const defined = demoResources();
  const authorIds = new Map<string, string>();
  for (const [key, a] of Object.entries(DEMO_AUTHORS)) {
    const [found] = await db
      .select({ id: authors.id })
      .from(authors)
      .where(eq(authors.name, a.name))
      .limit(1);
    authorIds.set(
      key,
      found?.id ?? (await db.insert(authors).values(a).returning({ id: authors.id }))[0]!.id,
    );
  }
  const resourceId = async (key: string): Promise<string> => {
    const known = ids.resources.get(key);
    if (known) return known;
    const r = defined.get(key);
    if (!r) throw new Error(`No demo resource ${key}`);
    const shortId = demoShortId(key);
    const [found] = await db
      .select({ id: resources.id })
      .from(resources)
      .where(eq(resources.shortId, shortId))
      .limit(1);
    const id =
      found?.id ??
      (
        await db
          .insert(resources)
          .values({
            actualTitle: r.title,
            type: r.type,
            url: r.url,
            shortId,
            startSeconds: parseMark(r.start),
            endSeconds: parseMark(r.end),
          })
          .returning({ id: resources.id })
      )[0]!.id;
    ids.resources.set(key, id);
    return id;
  };

  let created = 0;
  for (const r of DEMO_ROADMAPS) {
    const language = await languageId(db, r.language);
    const subject = await subjectId(db, r.subject);
    const topic = await topicId(db, subject, r.topic);
    const [found] = await db
      .select({ id: roadmaps.id })
      .from(roadmaps)
      .where(eq(roadmaps.name, r.name))
      .limit(1);
    let roadmapId = found?.id;
    if (!roadmapId) {
      const [row] = await db
        .insert(roadmaps)
        .values({
          name: r.name,
          description: r.description,
          languageId: language,
          subjectId: subject,
          topicId: topic,
          imgPath: r.image,
        })
        .returning({ id: roadmaps.id });
      roadmapId = row!.id;
      created++;
      await db
        .insert(roadmapAuthors)
        .values(
          r.authors.map((a, position) => ({ roadmapId: roadmapId!, authorId: authorIds.get(a)!, position })),
        );
    }
    // tasks by title: a roadmap seeded by an older version gets the tasks added since
    const taskTitles = new Set(
      (await db.select({ title: tasks.actualTitle }).from(tasks).where(eq(tasks.roadmapId, roadmapId))).map(
        (t) => t.title,
      ),
    );
    const newTasks = r.tasks
      .map((t, position) => ({
        roadmapId: roadmapId!,
        actualTitle: t.title,
        url: t.url,
        type: 'READ' as const,
        position,
      }))
      .filter((t) => !taskTitles.has(t.actualTitle));
    if (newTasks.length) await db.insert(tasks).values(newTasks);
    ids.roadmaps.set(r.key, { id: roadmapId, subjectId: subject, topicId: topic, languageId: language });
    for (const [position, s] of r.sections.entries()) {
      const [existing] = await db
        .select({ id: sections.id })
        .from(sections)
        .where(and(eq(sections.roadmapId, roadmapId), eq(sections.name, s.name)))
        .limit(1);
      const sectionId =
        existing?.id ??
        (
          await db
            .insert(sections)
            .values({ roadmapId, name: s.name, position })
            .returning({ id: sections.id })
        )[0]!.id;
      ids.sections.set(s.key, sectionId);
      for (const [i, res] of s.resources.entries()) {
        const rid = await resourceId(typeof res === 'string' ? res : res.key);
        await db
          .insert(sectionResources)
          .values({ sectionId, resourceId: rid, position: i })
          .onConflictDoNothing();
      }
    }
  }
  for (const r of DEMO_ROADMAPS) {
    for (const [position, p] of r.prerequisites.entries()) {
      await db
        .insert(roadmapPrerequisites)
        .values({ roadmapId: ids.roadmaps.get(r.key)!.id, prerequisiteId: ids.roadmaps.get(p)!.id, position })
        .onConflictDoNothing();
    }
  }
  return { ...ids, created };
}

/** Which demo roadmap a question target belongs to (`r:` resource, `s:` section, `m:` roadmap keys). */
export function roadmapKeyOf(target: DemoQuestion['at']): string {
  const [kind, key] = target.split(':') as [string, string];
  if (kind === 'm') return key;
  if (kind === 's') return key.split('.')[0]!;
  for (const r of DEMO_ROADMAPS) {
    for (const s of r.sections) {
      if (s.resources.some((x) => typeof x !== 'string' && x.key === key)) return r.key;
    }
  }
  throw new Error(`No demo resource ${key}`);
}

/** Spreads the correct options among the wrong ones, the same way on every install. */
export function demoOptions(q: DemoQuestion, index: number): { value: string; isCorrect: boolean }[] {
  if (isTextAnswer(q.type)) return (q.accept ?? []).map((value) => ({ value, isCorrect: true }));
  const out = (q.wrong ?? []).map((value) => ({ value, isCorrect: false }));
  for (const [i, value] of (q.right ?? []).entries()) {
    out.splice((index * 7 + i * 3) % (out.length + 1), 0, { value, isCorrect: true });
  }
  return out;
}

async function seedQuestions(db: Db, ids: Ids): Promise<number> {
  const existing = await db
    .select({ text: questions.question, kind: questionTargets.kind, targetId: questionTargets.targetId })
    .from(questions)
    .innerJoin(questionTargets, eq(questionTargets.questionId, questions.id))
    .where(isNull(questions.createdBy));
  const seen = new Set(existing.map((e) => `${e.kind}:${e.targetId}:${e.text}`));
  let added = 0;
  for (const [index, q] of DEMO_QUESTIONS.entries()) {
    const [kind, key] = q.at.split(':') as ['r' | 's' | 'm', string];
    const target =
      kind === 'r'
        ? { kind: 'RESOURCE' as const, id: ids.resources.get(key) }
        : kind === 's'
          ? { kind: 'SECTION' as const, id: ids.sections.get(key) }
          : { kind: 'ROADMAP' as const, id: ids.roadmaps.get(key)?.id };
    if (!target.id) throw new Error(`The demo question "${q.q}" aims at ${q.at}, which does not exist`);
    if (seen.has(`${target.kind}:${target.id}:${q.q}`)) continue;
    const roadmap = ids.roadmaps.get(roadmapKeyOf(q.at))!;
    const [row] = await db
      .insert(questions)
      .values({
        question: q.q,
        questionType: q.type ?? DEFAULT_QUESTION_TYPE,
        code: q.code ?? null,
        questionImagePath: q.image ?? null,
        points: 10,
        subjectId: roadmap.subjectId,
        topicId: roadmap.topicId,
        // in the language of the roadmap it assesses
        languageId: roadmap.languageId,
        explanation: [{ type: 'TEXT', value: q.why }],
        tags: q.tags,
        status: 'PUBLISH',
      })
      .returning({ id: questions.id });
    await db.insert(questionOptions).values(
      demoOptions(q, index).map((o, position) => ({
        questionId: row!.id,
        value: o.value,
        isCorrect: o.isCorrect,
        points: o.isCorrect ? 10 : 0,
        position,
      })),
    );
    await db.insert(questionTargets).values({ questionId: row!.id, kind: target.kind, targetId: target.id });
    added++;
  }
  return added;
}

/** Seeds the demo catalogue and question bank once (see the file comment). */
export async function seedCatalogue(
  db: Db,
  opts: { log?: (m: string) => void } = {},
): Promise<{ roadmaps: number; questions: number }> {
  const log = opts.log ?? (() => {});
  const [state] = await db.select().from(systemState).where(eq(systemState.key, CATALOGUE_SEED_KEY)).limit(1);
  const version = (state?.value as { version?: number } | undefined)?.version ?? 0;
  if (version >= CATALOGUE_SEED_VERSION) return { roadmaps: 0, questions: 0 };
  const result = await inTx(db, async (tx) => {
    const ids = await seedRoadmaps(tx);
    const added = await seedQuestions(tx, ids);
    await tx
      .insert(systemState)
      .values({ key: CATALOGUE_SEED_KEY, value: { version: CATALOGUE_SEED_VERSION } })
      .onConflictDoUpdate({
        target: systemState.key,
        set: { value: { version: CATALOGUE_SEED_VERSION }, updatedAt: new Date() },
      });
    return { roadmaps: ids.created, questions: added };
  });
  log(`seeded the demo catalogue: ${result.roadmaps} roadmaps, ${result.questions} questions`);
  return result;
}
