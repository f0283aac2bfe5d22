/**
 * What the assessment and award tests need around the app: signed-in learners and tenants, the database,
 * and shortcuts that take a test through its life. Built on server/test/helper.ts (real sign-in through
 * the Firebase Auth emulator; PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { type TestDbKind, TestServer, testDbKind } from '../test/helper';
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

/**
 * The backend of this run, as server/test/helper.ts decides: PostgreSQL when TEST_DATABASE_URL is set,
 * PGlite otherwise (npm test runs the suite once on each).
 */
export const BACKENDS: TestDbKind[] = [testDbKind()];

/** The app on a fresh migrated database, with people signed in through the Auth emulator. */
export async function openHarness(
  _kind: TestDbKind = testDbKind(),
  /** Settings besides the test defaults (server/test/helper.ts testConfig). */
  env?: Record<string, string>,
): Promise<Harness> {
  const server = await new TestServer({ env }).start();
  const person = async (role: 'USER' | 'TENANT', name?: string): Promise<Person> => {
    const signed = await server.signedIn(role);
    // any name, even one a profile form would refuse: the tests check escaping
    if (name) await server.db.update(users).set({ name }).where(eq(users.id, signed.user._id));
    return {
      id: signed.user._id,
      email: signed.account.email,
      headers: { authorization: `Bearer ${signed.token}` },
    };
  };
  return {
    app: server.app,
    db: server.db,
    learner: (name) => person('USER', name),
    tenant: (name) => person('TENANT', name),
    close: () => server.close(),
  };
}
