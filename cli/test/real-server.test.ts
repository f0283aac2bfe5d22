/**
 * The CLI against the real server: the app built in-process on an in-memory PGlite, listening on a free
 * port, with identity from the Firebase Auth emulator (FIREBASE_AUTH_EMULATOR_HOST; npm test starts one).
 * Commands run through the CLI's own entry over real HTTP; the person approving the terminal is a real
 * account signed in through the real identity flow.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildApp } from '@server/app';
import { loadConfig } from '@server/config';
import { type Database, openDatabase } from '@server/db/client';
import { emulatorAccounts } from '@server/db/seed';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttp, type Http } from '../src/core/http';
import { SessionStore } from '../src/core/session';
import { freePort, runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const projectId = process.env.FIREBASE_PROJECT_ID ?? 'demo-waymark';
const apiKey = 'demo-api-key';
const SKIP_REASON =
  'SKIPPED: needs the Firebase Auth emulator; set FIREBASE_AUTH_EMULATOR_HOST=host:port (npm test does)';
if (!emulatorHost) console.warn(`cli/test/real-server.test.ts ${SKIP_REASON}`);

const bin = fileURLToPath(new URL('../bin/waymark.mjs', import.meta.url));

const unique = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.com`;

describe.skipIf(!emulatorHost)(
  `the CLI against the real server${emulatorHost ? '' : ` (${SKIP_REASON})`}`,
  () => {
    let app: FastifyInstance;
    let database: Database;
    let server: string;
    let dir: string;
    let sessions: SessionStore;
    let http: Http;
    const approver = { email: unique('cli-approver'), password: 'Approver#2026', token: '' };

    /** Signs in through the emulator and Waymark's exchange, as the portal does. */
    async function signIn(email: string, password: string, role?: 'USER' | 'TENANT') {
      const identity = await fetch(
        `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=${apiKey}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password, returnSecureToken: true }),
        },
      );
      const { idToken } = (await identity.json()) as { idToken: string };
      const res = await fetch(`${server}/api/login/sign-in-with-firebase`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: idToken, role, device: 'WEB_APP' }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { token: string } }).data.token;
    }

    /** Runs `waymark …` through the CLI's entry; onLine sees each line of standard output as it comes. */
    const waymark = (args: string[], onLine?: (line: string) => void) =>
      runWaymark(args, { sessions, http }, onLine);

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'waymark-cli-real-'));
      const port = await freePort();
      const config = loadConfig({
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: join(dir, 'data'),
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
        FIREBASE_PROJECT_ID: projectId,
        FIREBASE_API_KEY: apiKey,
        JWT_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
      });
      database = await openDatabase({ pgliteDir: 'memory://' });
      app = await buildApp({ config, database, logger: false });
      await app.listen({ port, host: '127.0.0.1' });
      server = `http://127.0.0.1:${port}`;
      sessions = new SessionStore(join(dir, 'config', 'waymark', 'session.json'));
      http = createHttp();

      // the person who approves the terminal: a verified account, registered as a learner
      await emulatorAccounts(emulatorHost!, projectId, apiKey).ensureAccount(
        approver.email,
        approver.password,
        'Cli Approver',
      );
      approver.token = await signIn(approver.email, approver.password, 'USER');
    }, 90_000);

    afterAll(async () => {
      await http?.close();
      await app?.close();
      await database?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('signs the terminal in through the portal approval, then whoami, refresh and logout', async () => {
      const events: { event: string; userCode?: string; verificationUrl?: string }[] = [];
      let approval: Promise<Response> | null = null;
      const login = await waymark(['login', '--server', server, '--no-browser', '--json'], (line) => {
        const event = JSON.parse(line) as (typeof events)[number];
        events.push(event);
        if (event.event === 'code') {
          // the person opens the link and approves the code in the portal, which makes this call
          approval = fetch(`${server}/api/login/cli/approve`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${approver.token}` },
            body: JSON.stringify({ userCode: event.userCode }),
          });
        }
      });
      expect(login.err).not.toContain('waymark:');
      expect(login.code).toBe(0);
      expect((await approval!)?.status).toBe(200);
      const [code, signedIn] = events;
      expect(code?.userCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      expect(code?.verificationUrl).toBe(`${server}/cli-login?code=${code?.userCode}`);
      expect(signedIn).toMatchObject({
        event: 'signedIn',
        server,
        user: { email: approver.email, role: 'USER' },
      });
      expect(login.out).not.toMatch(/token/i);

      const stored = sessions.load()!;
      expect(stored).toMatchObject({ server, user: { email: approver.email } });
      expect(statSync(sessions.file).mode & 0o777).toBe(0o600);

      const whoami = await waymark(['whoami', '--json']);
      expect(whoami.code).toBe(0);
      expect(JSON.parse(whoami.out)).toMatchObject({
        email: approver.email,
        role: 'USER',
        name: 'Cli Approver',
      });

      // an access token the server refuses: the client refreshes once and the rotated tokens are saved
      writeFileSync(sessions.file, JSON.stringify({ ...stored, token: 'not.a.token' }), { mode: 0o600 });
      const again = await waymark(['whoami', '--json']);
      expect(again.code).toBe(0);
      const refreshed = sessions.load()!;
      expect(refreshed.refreshToken).not.toBe(stored.refreshToken);
      expect(refreshed.token).not.toBe('not.a.token');

      const logout = await waymark(['logout', '--json']);
      expect(logout.code).toBe(0);
      expect(JSON.parse(logout.out)).toEqual({ signedOut: true, revoked: true, server });
      expect(sessions.load()).toBeNull();
      // the refresh token was revoked on the server, not only forgotten here
      const reuse = await fetch(`${server}/api/login/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: refreshed.refreshToken, device: 'CLI' }),
      });
      expect(reuse.status).toBe(401);

      const after = await waymark(['whoami', '--server', server]);
      expect(after.code).toBe(3);
      expect(after.err).toContain('waymark: Not signed in.');
    }, 60_000);

    it('signs in with e-mail and password through the emulator the server names', async () => {
      const login = await waymark([
        'login',
        '--server',
        server,
        '--email',
        approver.email,
        '--password',
        approver.password,
      ]);
      expect(login.err).not.toContain('waymark:');
      expect(login.code).toBe(0);
      expect(JSON.parse(login.out)).toMatchObject({ event: 'signedIn', user: { email: approver.email } });

      // a person with an identity account but no Waymark account
      const stranger = unique('cli-stranger');
      await emulatorAccounts(emulatorHost!, projectId, apiKey).ensureAccount(
        stranger,
        'Stranger#2026',
        'Stranger',
      );
      const refused = await waymark([
        'login',
        '--server',
        server,
        '--email',
        stranger,
        '--password',
        'Stranger#2026',
      ]);
      expect(refused.code).toBe(5);
      expect(refused.err).toContain('waymark: You are not Existing User, Please login after registration');

      const wrong = await waymark([
        'login',
        '--server',
        server,
        '--email',
        approver.email,
        '--password',
        'wrong',
      ]);
      expect(wrong.code).toBe(3);
      expect(wrong.err).toContain('Wrong e-mail or password.');
      // the earlier session survives failed attempts
      expect(sessions.load()?.user.email).toBe(approver.email);
    }, 60_000);

    it('runs as the `waymark` executable from any folder', async () => {
      const token = sessions.load()?.token ?? (await signIn(approver.email, approver.password));
      const run = promisify(execFile);
      const { stdout } = await run(process.execPath, [bin, 'whoami', '--server', server], {
        cwd: tmpdir(),
        env: { PATH: process.env.PATH, HOME: dir, WAYMARK_TOKEN: token },
      });
      expect(JSON.parse(stdout)).toMatchObject({ email: approver.email });
      const notSignedIn = await run(process.execPath, [bin, 'whoami', '--server', server], {
        cwd: tmpdir(),
        env: { PATH: process.env.PATH, HOME: dir, XDG_CONFIG_HOME: join(dir, 'empty') },
      }).catch((err: { code: number; stderr: string }) => err);
      expect(notSignedIn).toMatchObject({ code: 3 });
      expect((notSignedIn as { stderr: string }).stderr).toContain('Not signed in.');
      expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    }, 60_000);
  },
);
