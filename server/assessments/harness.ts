/**
 * What the assessment and award tests need around the app: signed-in learners and tenants, the database,
 * and shortcuts that take a test through its life. Built on server/test/helper.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { type Database, type Db, openDatabase } from '../db/client';
import { users } from '../db/schema';
import { type Bank, type BankQuestion, rightAnswer, wrongAnswer } from './fixtures';

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

export type Inject = (opts: InjectOptions) => Promise<LightMyRequestResponse>;

export interface TakerQuestionJson {
  _id: string;
  questionType: string;
  options: { _id: string; value: string }[];
}

/** Shortcuts over the HTTP calls. */
export function calls(app: FastifyInstance) {
  const inject: Inject = (opts) => app.inject(opts);
  return {
    inject,
    async create(who: Person, body: Record<string, unknown>) {
      return inject({ method: 'POST', url: '/api/testlink/create', headers: who.headers, payload: body });
    },
    async createOk(who: Person, body: Record<string, unknown>): Promise<string> {
      const res = await inject({
        method: 'POST',
        url: '/api/testlink/create',
        headers: who.headers,
        payload: body,
      });
      if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
      return res.json().data.testLinkId as string;
    },
    load(linkId: string, who?: Person) {
      return inject({ method: 'GET', url: `/api/testlink/assessment/${linkId}`, headers: who?.headers });
    },
    start(linkId: string, who?: Person) {
      return inject({ method: 'PUT', url: `/api/testlink/verify/${linkId}`, headers: who?.headers });
    },
    answer(linkId: string, payload: Record<string, unknown>, who?: Person) {
      return inject({ method: 'PUT', url: `/api/testlink/${linkId}/answer`, headers: who?.headers, payload });
    },
    activity(linkId: string, type: 'FOCUS' | 'BLUR', who?: Person) {
      return inject({
        method: 'POST',
        url: '/api/testlink/activity',
        headers: who?.headers,
        payload: { linkId, type, timeStamp: Date.now() },
      });
    },
    evaluate(linkId: string, answers: unknown[] = [], who?: Person) {
      return inject({
        method: 'POST',
        url: '/api/testlink/evaluvate/v2',
        headers: who?.headers,
        payload: { linkId, answers },
      });
    },
    view(linkId: string, who: Person) {
      return inject({ method: 'GET', url: `/api/testlink/${linkId}/view`, headers: who.headers });
    },
    list(who: Person, assignedRoadmapId?: string) {
      return inject({
        method: 'GET',
        url: `/api/testlink/list${assignedRoadmapId ? `?assignedRoadmapId=${assignedRoadmapId}` : ''}`,
        headers: who.headers,
      });
    },
    async questionsOf(linkId: string): Promise<TakerQuestionJson[]> {
      const res = await inject({ method: 'GET', url: `/api/testlink/assessment/${linkId}` });
      if (res.statusCode !== 200) throw new Error(`load failed: ${res.statusCode} ${res.body}`);
      return res.json().data.questions.questions as TakerQuestionJson[];
    },
    /** Starts a link and answers every question right (or wrong), then evaluates it. */
    async take(linkId: string, bank: Bank, mode: 'right' | 'wrong' = 'right', who?: Person) {
      await inject({ method: 'PUT', url: `/api/testlink/verify/${linkId}`, headers: who?.headers });
      const qs = await this.questionsOf(linkId);
      const pick = (q: BankQuestion) => (mode === 'right' ? rightAnswer(q) : wrongAnswer(q));
      const answers = qs.map((q) => pick(bank.questions.get(q._id)!));
      const res = await inject({
        method: 'POST',
        url: '/api/testlink/evaluvate/v2',
        headers: who?.headers,
        payload: { linkId, answers },
      });
      if (res.statusCode !== 200) throw new Error(`evaluate failed: ${res.statusCode} ${res.body}`);
      return res.json().data as { status: string; score: number; percentage: number };
    },
  };
}

// ---------------------------------------------------------------- the app under test
// (until server/test/helper.ts lands: people are created in the database and given access tokens directly)

/** The backends the tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const BACKENDS: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

async function openBackend(
  kind: 'pglite' | 'postgres',
): Promise<{ database: Database; cleanup(): Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    return { database, cleanup: () => database.close() };
  }
  const name = `waymark_assess_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
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

export async function openHarness(kind: 'pglite' | 'postgres' = 'pglite'): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'wm-assess-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
    JWT_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMIT_STRICT: '10000',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
  });
  const { database, cleanup } = await openBackend(kind);
  const app = await buildApp({ config, database, logger: false });
  const db = database.db;
  const person = async (role: 'USER' | 'TENANT', name?: string): Promise<Person> => {
    const email = `${role.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`;
    const [u] = await db
      .insert(users)
      .values({ firebaseUid: randomUUID(), email, role, name: name ?? 'Test Person', emailVerified: true })
      .returning();
    const token = await app.services.tokens.signAccess({
      sub: u!.id,
      role,
      dev: 'WEB_APP',
      fam: randomUUID(),
    });
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
