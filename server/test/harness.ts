/**
 * The one harness of the server's integration tests: the app on a fresh migrated database (this run's
 * backend, `BACKENDS`), with people signed in through the real Firebase Auth emulator. Built on
 * server/test/helper.ts (its TestServer and database setup); what a domain's tests add lives in
 * server/test/fixtures/ (data the tests know exactly, shortcuts over that domain's calls).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { ServiceOverrides } from '../services';
import { type TestDbKind, TestServer, testDbKind } from './helper';

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

// ---------------------------------------------------------------- the app under test

/**
 * The backend of this run, as server/test/helper.ts decides: PostgreSQL when TEST_DATABASE_URL is set,
 * PGlite otherwise (npm test runs the suite once on each).
 */
export const BACKENDS: TestDbKind[] = [testDbKind()];

/** The app on a fresh migrated database, with people signed in through the Auth emulator. */
export async function openHarness(
  backend: TestDbKind = testDbKind(),
  opts: {
    /** Settings besides the test defaults (server/test/helper.ts testConfig). */
    env?: Record<string, string>;
    /** Services instead of the ones the settings would build (how mail leaves: `mailTransport`). */
    services?: ServiceOverrides;
  } = {},
): Promise<Harness> {
  if (backend !== testDbKind()) {
    throw new Error(`This run's backend is ${testDbKind()}, not ${backend} (TEST_DATABASE_URL decides).`);
  }
  const server = await new TestServer({ env: opts.env, services: opts.services }).start();
  return {
    app: server.app,
    db: server.db,
    learner: (name) => signedInPerson(server, 'USER', { name }),
    tenant: (name) => signedInPerson(server, 'TENANT', { name }),
    close: () => server.close(),
  };
}

/**
 * A person signed in on `server` through the Auth emulator (a verified email: `email` when given), with
 * any name — even one a profile form would refuse: the tests check escaping.
 */
export async function signedInPerson(
  server: TestServer,
  role: 'USER' | 'TENANT',
  { name, email }: { name?: string; email?: string } = {},
): Promise<Person> {
  const signed = await server.signedIn(role, email ? { email } : undefined);
  if (name) await server.db.update(users).set({ name }).where(eq(users.id, signed.user._id));
  return {
    id: signed.user._id,
    email: signed.account.email,
    headers: { authorization: `Bearer ${signed.token}` },
  };
}
