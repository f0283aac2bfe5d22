/**
 * Helpers for the server's integration tests (`server/**\/*.test.ts`).
 *
 * `setupServer()` builds the app once per test file on a freshly migrated database and closes it after:
 * - PGlite (the default): the migrations run once into memory and the result is cloned for each file
 *   (dumpDataDir/loadDataDir; the migrated dump is also kept under .tmp/ keyed by the migrations' hash,
 *   so later files and later runs skip migrating);
 * - PostgreSQL when TEST_DATABASE_URL is set (`npm test` starts a throwaway cluster): each file gets its
 *   own database created from a migrated template database.
 *
 * Identity is never faked: fixtures create e-mail/password accounts through the real Firebase Auth
 * emulator's REST API (FIREBASE_AUTH_EMULATOR_HOST), take ID tokens from accounts:signInWithPassword and
 * exchange them at POST /api/login/sign-in-with-firebase for Waymark's tokens.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Device, Role } from '@shared/schemas/common';
import type { User } from '@shared/schemas/user';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type Database, MIGRATIONS_DIR, openDatabase } from '../db/client';
import { seed } from '../db/seed';
import type { ServiceOverrides } from '../services';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const PROJECT_ID = 'demo-waymark';
export const API_KEY = 'demo-api-key';

// ---------------------------------------------------------------------------------------------------------
// databases

/** Identifies the schema: a change to any migration makes a new template. */
function migrationsHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS_DIR).sort()) {
    if (f.endsWith('.sql')) h.update(f).update(readFileSync(join(MIGRATIONS_DIR, f)));
  }
  // the partitions the migrations' last step makes (server/db/partitions.ts)
  h.update(readFileSync(join(MIGRATIONS_DIR, '..', 'partitions.ts')));
  // the template also holds the job queue's tables, which pg-boss's version decides
  for (const pkg of [['@electric-sql', 'pglite'], ['pg-boss']]) {
    const { version } = JSON.parse(
      readFileSync(join(ROOT, 'node_modules', ...pkg, 'package.json'), 'utf8'),
    ) as { version: string };
    h.update(`${pkg.join('/')}@${version}`);
  }
  return h.digest('hex').slice(0, 12);
}

const memo = globalThis as typeof globalThis & { __waymarkPgliteTemplate?: Promise<Blob> };

/** A migrated, empty PGlite database as a data dump: from this process, from disk, or migrated now. */
function pgliteTemplate(): Promise<Blob> {
  memo.__waymarkPgliteTemplate ??= (async () => {
    const dir = join(ROOT, '.tmp', 'test-cache');
    const file = join(dir, `pglite-${migrationsHash()}.tar.gz`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const fresh = await openDatabase({ pgliteDir: 'memory://' });
    const dump = await fresh.pglite!.dumpDataDir('gzip');
    await fresh.close();
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file);
    return dump;
  })();
  return memo.__waymarkPgliteTemplate;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh PostgreSQL database for one test file, created from a migrated template. */
async function postgresDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = `waymark_tpl_${migrationsHash()}`;
  const name = `waymark_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // one file at a time builds the template
    await admin.query('select pg_advisory_lock(4242001)');
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (!rowCount) {
      await admin.query(`create database ${template}`);
      const tpl = await openDatabase({ databaseUrl: withDatabase(adminUrl, template), poolSize: 1 });
      await tpl.close();
    }
    try {
      await admin.query(`create database ${name} template ${template}`);
    } catch (err) {
      throw new Error(
        `Could not create a test database on TEST_DATABASE_URL (${(err as Error).message}). The role needs CREATEDB.`,
      );
    }
  } finally {
    await admin.query('select pg_advisory_unlock(4242001)').catch(() => undefined);
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export type TestDbKind = 'pglite' | 'postgres';
export const testDbKind = (): TestDbKind => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

/** A streaming replica for a test's database (PostgreSQL): its URL from the primary's, and the lag bound. */
export interface TestReplica {
  urlOf(primaryUrl: string): string;
  maxLagMs: number;
}

/** A migrated database of its own (PGlite clone, or a PostgreSQL database from the template). */
export async function openTestDatabase(replica?: TestReplica): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const { url: dbUrl, drop } = await postgresDatabase(url);
    const database = await openDatabase({
      databaseUrl: dbUrl,
      migrate: false,
      poolSize: 5,
      replicaUrl: replica?.urlOf(dbUrl),
      replicaMaxLagMs: replica?.maxLagMs,
    });
    return {
      ...database,
      async close() {
        await database.close();
        await drop();
      },
    };
  }
  if (process.env.TEST_DB && process.env.TEST_DB !== 'pglite') {
    throw new Error(
      `TEST_DB=${process.env.TEST_DB} needs TEST_DATABASE_URL, which the global set-up provides for TEST_DB=postgres.`,
    );
  }
  return openDatabase({ pgliteDump: await pgliteTemplate() });
}

// ---------------------------------------------------------------------------------------------------------
// settings

export function emulatorHost(): string {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!host) {
    throw new Error(
      'The server tests need the Firebase Auth emulator, which their global set-up starts ' +
        '(server/test/global-setup.ts): run them with `npx vitest run --project server`.',
    );
  }
  return host;
}

/**
 * Settings for a test app: the emulator, a random JWT secret, quiet logs, generous rate limits, and no job
 * workers (a test runs a job's function itself, or asks for workers with JOB_WORKERS=true).
 */
export function testConfig(env: Record<string, string | undefined> = {}): Config {
  const withEmulator = !('FIREBASE_AUTH_EMULATOR_HOST' in env);
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: join(ROOT, '.tmp', 'test-data'),
    FIREBASE_PROJECT_ID: PROJECT_ID,
    FIREBASE_API_KEY: API_KEY,
    FIREBASE_AUTH_EMULATOR_HOST: withEmulator ? emulatorHost() : undefined,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    RATE_LIMIT_AUTH: '100000',
    RATE_LIMIT_STRICT: '100000',
    JOB_WORKERS: 'false',
    // a test server never sheds load, whatever its NODE_ENV (production's defaults shed a request queued
    // 500 ms or waiting 1 s for a connection): on a busy test machine the delay is the machine's, not the
    // server's. The shedding tests set their own thresholds.
    SHED_EVENT_LOOP_DELAY_MS: '0',
    SHED_QUEUE_MS: '0',
    SHED_POOL_WAIT_MS: '0',
    LOG_LEVEL: 'silent',
    STATIC_DIR: join(ROOT, '.tmp', 'no-static'),
    ...env,
  });
}

// ---------------------------------------------------------------------------------------------------------
// the Auth emulator's REST API

export interface EmulatorAccount {
  uid: string;
  email: string;
  password: string;
}

export interface OobCode {
  email: string;
  oobCode: string;
  oobLink: string;
  requestType: string;
}

let counter = 0;
/** An address nobody has used: per file, per run. */
export const uniqueEmail = (prefix = 'person') =>
  `${prefix}-${Date.now().toString(36)}${randomBytes(3).toString('hex')}-${++counter}@example.com`;

export function emulatorApi(host = emulatorHost(), projectId = PROJECT_ID) {
  const base = `http://${host}`;
  const call = async (path: string, body: unknown, owner = false) => {
    const res = await fetch(
      `${base}/identitytoolkit.googleapis.com/v1${path}${path.includes('?') ? '&' : '?'}key=${API_KEY}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(owner ? { authorization: 'Bearer owner' } : {}) },
        body: JSON.stringify(body),
      },
    );
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`Auth emulator ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    host,
    projectId,
    /** An e-mail/password account, verified or not, that Waymark does not know yet. */
    async createAccount(
      opts: { email?: string; password?: string; verified?: boolean; displayName?: string } = {},
    ): Promise<EmulatorAccount> {
      const email = opts.email ?? uniqueEmail();
      const password = opts.password ?? `Pw#${randomBytes(6).toString('hex')}`;
      const json = await call('/accounts:signUp', { email, password, displayName: opts.displayName });
      const uid = json.localId as string;
      if (opts.verified) await this.markVerified(uid);
      return { uid, email, password };
    },
    async markVerified(uid: string) {
      await call(`/projects/${projectId}/accounts:update`, { localId: uid, emailVerified: true }, true);
    },
    /** A fresh ID token, as the Firebase SDK gets it after e-mail and password. */
    async idToken(account: Pick<EmulatorAccount, 'email' | 'password'>): Promise<string> {
      const json = await call('/accounts:signInWithPassword', {
        email: account.email,
        password: account.password,
        returnSecureToken: true,
      });
      return json.idToken as string;
    },
    /** Asks for the verification e-mail, as the portal does after sign-up. */
    async sendVerificationEmail(account: Pick<EmulatorAccount, 'email' | 'password'>) {
      await call('/accounts:sendOobCode', {
        requestType: 'VERIFY_EMAIL',
        idToken: await this.idToken(account),
      });
    },
    /** The codes the emulator would have e-mailed (verification, sign-in links, password resets). */
    async oobCodes(email?: string): Promise<OobCode[]> {
      const res = await fetch(`${base}/emulator/v1/projects/${projectId}/oobCodes`);
      const json = (await res.json()) as { oobCodes?: OobCode[] };
      return (json.oobCodes ?? []).filter((c) => !email || c.email.toLowerCase() === email.toLowerCase());
    },
    /** Follows the newest verification link sent to this address, as the person clicking it would. */
    async verifyEmail(email: string) {
      const code = (await this.oobCodes(email)).filter((c) => c.requestType === 'VERIFY_EMAIL').at(-1);
      if (!code) throw new Error(`No verification e-mail was sent to ${email}`);
      await call('/accounts:update', { oobCode: code.oobCode });
    },
    /** The identity account, or null when it does not exist. */
    async lookup(uid: string): Promise<Record<string, unknown> | null> {
      const json = await call(`/projects/${projectId}/accounts:lookup`, { localId: [uid] }, true);
      const users = json.users as Record<string, unknown>[] | undefined;
      return users?.[0] ?? null;
    },
  };
}
export type EmulatorApi = ReturnType<typeof emulatorApi>;

// ---------------------------------------------------------------------------------------------------------
// requests

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
  text: string;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** Any JSON answer, success or error, for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the server answered
export type Json = any;

export interface SignedIn {
  account: EmulatorAccount;
  user: User;
  token: string;
  refreshToken: string;
  /** Request options carrying this person's access token. */
  auth: { token: string };
}

export class TestServer {
  app!: FastifyInstance;
  database!: Database;
  config!: Config;
  readonly emulator: EmulatorApi;

  constructor(
    private readonly options: {
      env?: Record<string, string | undefined>;
      /** Seed the demo subjects and languages. */
      seed?: boolean;
      /** Adds routes or hooks before the app is ready (for example a route that fails on purpose). */
      extend?: (app: FastifyInstance) => void | Promise<void>;
      /**
       * Services instead of the ones the settings would build: how mail leaves (`mailTransport`), how the
       * credential verifier reads other issuers' documents (`credentialOptions`: another site stands behind
       * it), …
       */
      services?: ServiceOverrides;
      /** A read replica of the test's database (PostgreSQL only). */
      replica?: TestReplica;
    } = {},
  ) {
    this.emulator = emulatorApi();
  }

  get db() {
    return this.database.db;
  }

  async start() {
    this.config = testConfig(this.options.env);
    this.database = await openTestDatabase(this.options.replica);
    if (this.options.seed) await seed(this.database.db, {});
    this.app = await buildApp({
      config: this.config,
      database: this.database,
      logger: false,
      services: this.options.services,
    });
    await this.options.extend?.(this.app);
    await this.app.ready();
    return this;
  }

  async close() {
    await this.app?.close();
    await this.database?.close();
  }

  /**
   * Another server process on this test's database: its own app, settings (the same signing secret) and,
   * on PostgreSQL, its own connections. PGlite is one process by construction, so there the second app
   * shares the instance.
   */
  async anotherProcess(env: Record<string, string | undefined> = {}) {
    const database =
      this.database.kind === 'postgres'
        ? await openDatabase({ databaseUrl: this.database.url, migrate: false, poolSize: 3 })
        : this.database;
    const config = testConfig({ ...this.options.env, JWT_SECRET: this.config.jwtSecret, ...env });
    const own = database !== this.database;
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    let closed: Promise<void> | null = null;
    return {
      app,
      database,
      close() {
        closed ??= (async () => {
          await app.close();
          if (own) await database.close();
        })();
        return closed;
      },
    };
  }

  async request<T = Json>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    body?: unknown,
    opts: RequestOptions = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await this.app.inject({
      method,
      url,
      query: opts.query,
      headers,
      ...(body === undefined
        ? {}
        : typeof body === 'string'
          ? { payload: body }
          : { payload: body as object }),
    });
    let parsed: unknown = res.body;
    if (String(res.headers['content-type'] ?? '').includes('application/json') && res.body) {
      parsed = JSON.parse(res.body);
    }
    return { status: res.statusCode, body: parsed as T, headers: res.headers, text: res.body };
  }

  get<T = Json>(url: string, opts?: RequestOptions) {
    return this.request<T>('GET', url, undefined, opts);
  }
  post<T = Json>(url: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', url, body, opts);
  }
  put<T = Json>(url: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', url, body, opts);
  }

  /** POST /api/login/sign-in-with-firebase with a fresh ID token of this account. */
  async signIn(
    account: Pick<EmulatorAccount, 'email' | 'password'>,
    opts: { role?: Role; device?: Device; tenantId?: string } = {},
  ) {
    const token = await this.emulator.idToken(account);
    return this.post('/api/login/sign-in-with-firebase', { token, ...opts });
  }

  /** A verified person registered with this role and signed in (optionally with a basic profile). */
  async signedIn(
    role: Role = 'USER',
    opts: { device?: Device; profile?: boolean; email?: string; name?: string } = {},
  ): Promise<SignedIn> {
    const account = await this.emulator.createAccount({
      verified: true,
      email: opts.email,
      displayName: opts.name,
    });
    const res = await this.signIn(account, { role, device: opts.device });
    if (res.status !== 200) throw new Error(`Sign-in failed: ${res.status} ${res.text}`);
    let user = res.body.data.user as User;
    const token = res.body.data.token as string;
    if (opts.profile) {
      const saved = await this.put(
        '/api/login/basic-profile',
        {
          name: opts.name ?? 'Test Person',
          phoneNumber: uniquePhone(),
          phoneCountry: 'IN',
          ...(role === 'TENANT' ? { iam: 'MENTOR' } : {}),
        },
        { token },
      );
      if (saved.status !== 200) throw new Error(`Basic profile failed: ${saved.status} ${saved.text}`);
      user = saved.body.data as User;
    }
    return { account, user, token, refreshToken: res.body.data.refreshToken, auth: { token } };
  }
}

let phoneCounter = 0;
/** A valid Indian mobile number no other test uses. */
export function uniquePhone(): string {
  const n = (Date.now() * 7 + process.pid * 13 + ++phoneCounter * 7919) % 100_000_000;
  return `98${String(n).padStart(8, '0')}`;
}

/** Builds the app once for this test file (before its tests) and closes it after them. */
export function setupServer(options: ConstructorParameters<typeof TestServer>[0] = {}): TestServer {
  const server = new TestServer(options);
  beforeAll(() => server.start().then(() => undefined), 120_000);
  afterAll(() => server.close(), 60_000);
  return server;
}
