/**
 * What the catalogue tests need (until server/test/helper.ts lands): the app on a migrated PGlite (and on
 * PostgreSQL when TEST_DATABASE_URL is set), signed-in learners and tenants, and a small catalogue whose
 * durations, curators, prerequisites and question bank the tests know exactly. Used by tests only.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuestionType } from '@shared/schemas/assessment';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { MailTransport } from '../adapters/mail';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { type Database, type Db, openDatabase } from '../db/client';
import { languages, subjects, topics, users } from '../db/schema';
import { questionOptions, questions, questionTargets } from '../questions/tables';
import {
  authors,
  resources,
  roadmapAuthors,
  roadmapPrerequisites,
  roadmaps,
  sectionResources,
  sections,
  tasks,
} from './tables';

export const BACKENDS: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export interface Person {
  id: string;
  email: string;
  headers: { authorization: string };
}

export interface Harness {
  app: FastifyInstance;
  db: Db;
  learner(name?: string): Promise<Person>;
  tenant(name?: string): Promise<Person>;
  close(): Promise<void>;
}

async function openBackend(
  kind: 'pglite' | 'postgres',
): Promise<{ database: Database; cleanup(): Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    return { database, cleanup: () => database.close() };
  }
  const name = `waymark_cat_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  return {
    database,
    async cleanup() {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export async function openHarness(
  kind: 'pglite' | 'postgres' = 'pglite',
  opts: { mailTransport?: MailTransport; env?: Record<string, string> } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'wm-cat-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
    JWT_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMIT_STRICT: '10000',
    JOB_WORKERS: 'false',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    ...opts.env,
  });
  const { database, cleanup } = await openBackend(kind);
  const app = await buildApp({ config, database, logger: false, mailTransport: opts.mailTransport });
  const db = database.db;
  const person = async (role: 'USER' | 'TENANT', name?: string): Promise<Person> => {
    const email = `${role.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`;
    const [u] = await db
      .insert(users)
      .values({ firebaseUid: randomUUID(), email, role, name: name ?? 'Test Person', emailVerified: true })
      .returning();
    const { token } = await app.services.tokens.issue({ id: u!.id, role }, 'WEB_APP');
    return { id: u!.id, email, headers: { authorization: `Bearer ${token}` } };
  };
  return {
    app,
    db,
    learner: (name) => person('USER', name),
    tenant: (name) => person('TENANT', name),
    async close() {
      await app.close();
      await cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- a catalogue the tests know

export interface KeyOption {
  id: string;
  isCorrect: boolean;
}
export interface KeyQuestion {
  id: string;
  type: QuestionType;
  options: KeyOption[];
  value?: string;
}

export interface Fixture {
  tag: string;
  english: string;
  spanish: string;
  programming: string;
  dataScience: string;
  javascriptTopic: string;
  /** 'Alpha JS …': 2 sections, 4 resources (600 s, no marks, negative span, end only 120 s), 3 tasks, 2 curators. */
  alpha: { id: string; name: string; sections: [string, string]; resources: string[]; tasks: string[] };
  /** 'Beta TS …': prerequisites Alpha then Gamma; one section sharing Alpha's first resource. */
  beta: { id: string; name: string; sections: string[]; resources: string[] };
  /** 'Gamma SQL …': Spanish, Data Science; one section. */
  gamma: { id: string; name: string; sections: string[]; resources: string[] };
  /** 'Delta …': not published. */
  hiddenId: string;
  /** 'Epsilon …': a prerequisite (Zeta) without any question. */
  epsilon: { id: string; name: string };
  /** 'Zeta empty …': no sections, no prerequisites. */
  zeta: { id: string; name: string };
  shortIds: string[];
  /** Published questions by id, with their answer key, and the prerequisite roadmap they test. */
  bank: Map<string, KeyQuestion & { roadmapId: string }>;
}

const mark = (h: number, m: number, s: number) => h * 3600 + m * 60 + s;

export async function buildFixture(db: Db): Promise<Fixture> {
  const tag = randomBytes(3).toString('hex');
  const [english, spanish] = await db
    .insert(languages)
    .values([{ name: `English ${tag}` }, { name: `Spanish ${tag}` }])
    .returning({ id: languages.id });
  const [programming, dataScience] = await db
    .insert(subjects)
    .values([{ name: `Programming ${tag}` }, { name: `Data Science ${tag}` }])
    .returning({ id: subjects.id });
  const [jsTopic, tsTopic, sqlTopic] = await db
    .insert(topics)
    .values([
      { subjectId: programming!.id, name: `JavaScript ${tag}` },
      { subjectId: programming!.id, name: `TypeScript ${tag}` },
      { subjectId: dataScience!.id, name: `SQL ${tag}` },
    ])
    .returning({ id: topics.id });

  const roadmap = async (
    name: string,
    language: string,
    subject: string,
    topic: string | null,
    published = true,
  ) => {
    const [r] = await db
      .insert(roadmaps)
      .values({
        name,
        description: `${name} description`,
        languageId: language,
        subjectId: subject,
        topicId: topic,
        imgPath: `/images/roadmaps/${tag}.svg`,
        isPublished: published,
      })
      .returning({ id: roadmaps.id });
    return r!.id;
  };
  const section = async (roadmapId: string, name: string, position: number) => {
    const [s] = await db
      .insert(sections)
      .values({ roadmapId, name, position })
      .returning({ id: sections.id });
    return s!.id;
  };
  const shortIds: string[] = [];
  const resource = async (
    sectionId: string,
    title: string,
    position: number,
    start: number | null,
    end: number | null,
    type: 'WATCH' | 'READ' = 'WATCH',
  ) => {
    const shortId = `${tag}${shortIds.length}`.padEnd(6, 'x');
    shortIds.push(shortId);
    const [r] = await db
      .insert(resources)
      .values({
        actualTitle: title,
        type,
        url: `https://example.com/${tag}/${encodeURIComponent(title)}`,
        shortId,
        startSeconds: start,
        endSeconds: end,
      })
      .returning({ id: resources.id });
    await db.insert(sectionResources).values({ sectionId, resourceId: r!.id, position });
    return r!.id;
  };

  const alphaName = `Alpha JS ${tag}`;
  const alphaId = await roadmap(alphaName, english!.id, programming!.id, jsTopic!.id);
  const a1 = await section(alphaId, 'Basics', 0);
  const a2 = await section(alphaId, 'Functions', 1);
  const ar = [
    await resource(a1, 'Intro video', 0, mark(0, 1, 0), mark(0, 11, 0)),
    await resource(a1, 'Guide page', 1, null, null, 'READ'),
    await resource(a2, 'Backwards marks', 0, mark(0, 5, 0), mark(0, 1, 40)),
    await resource(a2, 'End only', 1, null, mark(0, 2, 0)),
  ];
  const taskRows = await db
    .insert(tasks)
    .values(
      [0, 1, 2].map((i) => ({
        roadmapId: alphaId,
        actualTitle: `Task ${i + 1}`,
        url: `https://example.com/t${i}`,
        position: i,
      })),
    )
    .returning({ id: tasks.id });
  const [ada, bob] = await db
    .insert(authors)
    .values([
      { name: `Ada ${tag}`, designation: 'Engineer', shortDescription: 'Short', longDescription: 'Long' },
      { name: `Bob ${tag}`, designation: null },
    ])
    .returning({ id: authors.id });
  // Bob first, by position (not by name or insertion)
  await db.insert(roadmapAuthors).values([
    { roadmapId: alphaId, authorId: ada!.id, position: 1 },
    { roadmapId: alphaId, authorId: bob!.id, position: 0 },
  ]);

  const gammaName = `Gamma SQL ${tag}`;
  const gammaId = await roadmap(gammaName, spanish!.id, dataScience!.id, sqlTopic!.id);
  const g1 = await section(gammaId, 'Consultas', 0);
  const gr = [await resource(g1, 'SELECT basico', 0, 0, mark(0, 3, 0))];

  const betaName = `Beta TS ${tag}`;
  const betaId = await roadmap(betaName, english!.id, programming!.id, tsTopic!.id);
  const b1 = await section(betaId, 'Types', 0);
  const br = [await resource(b1, 'Types page', 0, null, null, 'READ')];
  await db.insert(sectionResources).values({ sectionId: b1, resourceId: ar[0]!, position: 1 });
  await db.insert(roadmapPrerequisites).values([
    { roadmapId: betaId, prerequisiteId: gammaId, position: 1 },
    { roadmapId: betaId, prerequisiteId: alphaId, position: 0 },
  ]);

  const hiddenId = await roadmap(`Delta hidden ${tag}`, english!.id, programming!.id, null, false);
  const zetaName = `Zeta empty ${tag}`;
  const zetaId = await roadmap(zetaName, english!.id, programming!.id, null);
  const epsilonName = `Epsilon ${tag}`;
  const epsilonId = await roadmap(epsilonName, english!.id, programming!.id, null);
  await db.insert(roadmapPrerequisites).values({ roadmapId: epsilonId, prerequisiteId: zetaId, position: 0 });

  // the bank: Alpha is tested through its roadmap, a section and a resource; Gamma through a resource
  const bank = new Map<string, KeyQuestion & { roadmapId: string }>();
  const add = async (
    type: QuestionType,
    target: { kind: 'ROADMAP' | 'SECTION' | 'RESOURCE'; id: string },
    roadmapId: string,
    status: 'PUBLISH' | 'PREVIEW' = 'PUBLISH',
  ) => {
    const [q] = await db
      .insert(questions)
      .values({
        question: `${type} about ${target.kind} ${bank.size}`,
        questionType: type,
        code: type === 'CODE_MCQ' ? 'console.log(1 + 1)' : null,
        subjectId: programming!.id,
        // every fixture roadmap is in English
        languageId: english!.id,
        explanation: [{ type: 'TEXT', value: 'SECRET-EXPLANATION' }],
        tags: ['fixture'],
        status,
      })
      .returning({ id: questions.id });
    await db.insert(questionTargets).values({ questionId: q!.id, kind: target.kind, targetId: target.id });
    const specs =
      type === 'FILL_IN_BLANK'
        ? [{ value: '42', isCorrect: true }]
        : type === 'MSQ' || type === 'MSQ_IMAGE'
          ? [
              { value: 'right one', isCorrect: true },
              { value: 'right two', isCorrect: true },
              { value: 'wrong one', isCorrect: false },
            ]
          : [
              { value: 'right', isCorrect: true },
              { value: 'wrong', isCorrect: false },
              { value: 'also wrong', isCorrect: false },
            ];
    const opts = await db
      .insert(questionOptions)
      .values(
        specs.map((o, position) => ({ questionId: q!.id, ...o, points: o.isCorrect ? 10 : 0, position })),
      )
      .returning({ id: questionOptions.id, isCorrect: questionOptions.isCorrect });
    if (status === 'PUBLISH') {
      bank.set(q!.id, {
        id: q!.id,
        type,
        options: opts,
        value: type === 'FILL_IN_BLANK' ? '42' : undefined,
        roadmapId,
      });
    }
  };
  await add('MCQ', { kind: 'ROADMAP', id: alphaId }, alphaId);
  await add('MSQ', { kind: 'ROADMAP', id: alphaId }, alphaId);
  await add('CODE_MCQ', { kind: 'SECTION', id: a1 }, alphaId);
  await add('FILL_IN_BLANK', { kind: 'SECTION', id: a2 }, alphaId);
  await add('MCQ_IMAGE', { kind: 'RESOURCE', id: ar[2]! }, alphaId);
  await add('MSQ_IMAGE', { kind: 'RESOURCE', id: ar[3]! }, alphaId);
  await add('MCQ', { kind: 'ROADMAP', id: alphaId }, alphaId, 'PREVIEW');
  await add('MCQ', { kind: 'RESOURCE', id: gr[0]! }, gammaId);
  await add('FILL_IN_BLANK', { kind: 'RESOURCE', id: gr[0]! }, gammaId);
  await add('MSQ', { kind: 'ROADMAP', id: gammaId }, gammaId);

  return {
    tag,
    english: english!.id,
    spanish: spanish!.id,
    programming: programming!.id,
    dataScience: dataScience!.id,
    javascriptTopic: jsTopic!.id,
    alpha: {
      id: alphaId,
      name: alphaName,
      sections: [a1, a2],
      resources: ar,
      tasks: taskRows.map((t) => t.id),
    },
    beta: { id: betaId, name: betaName, sections: [b1], resources: br },
    gamma: { id: gammaId, name: gammaName, sections: [g1], resources: gr },
    hiddenId,
    epsilon: { id: epsilonId, name: epsilonName },
    zeta: { id: zetaId, name: zetaName },
    shortIds,
    bank,
  };
}

type Given = { questionId: string; roadmapId: string; answerId?: string | string[]; answer?: string };

/** A right (or wrong) answer to a fixture question, as the prerequisite submission sends it. */
export function answerTo(q: KeyQuestion & { roadmapId: string }, right: boolean): Given {
  const base = { questionId: q.id, roadmapId: q.roadmapId };
  if (q.type === 'FILL_IN_BLANK') return { ...base, answer: right ? (q.value ?? '') : 'nope' };
  const correct = q.options.filter((o) => o.isCorrect).map((o) => o.id);
  const wrong = q.options.filter((o) => !o.isCorrect).map((o) => o.id);
  if (q.type === 'MSQ' || q.type === 'MSQ_IMAGE') return { ...base, answerId: right ? correct : [wrong[0]!] };
  return { ...base, answerId: right ? correct[0]! : wrong[0]! };
}
