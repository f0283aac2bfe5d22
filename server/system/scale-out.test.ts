/**
 * Three real server processes (`server/main.ts`, as a deployment runs them) started at the same moment on
 * one empty PostgreSQL database, with a real SMTP server: all come up; a rate limit holds across them;
 * every message is delivered once although each process runs the delivery workers and the SMTP server
 * refuses each message's first attempt; a fourth process keeping its files on another disk is refused.
 * PostgreSQL only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../scripts/service.mjs';
import { emulatorHost } from '../test/helper';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const adminUrl = process.env.TEST_DATABASE_URL;
const PROCESSES = 3;

interface Proc {
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

describe.skipIf(!adminUrl)(`${PROCESSES} server processes on one PostgreSQL`, () => {
  const dbName = `waymark_scale_${randomBytes(4).toString('hex')}`;
  const databaseUrl = (() => {
    const u = new URL(adminUrl || 'postgres://x/y');
    u.pathname = `/${dbName}`;
    return u.toString();
  })();
  const dataDir = mkdtempSync(join(tmpdir(), 'wm-scale-'));
  const otherDataDir = mkdtempSync(join(tmpdir(), 'wm-scale-other-'));
  const jwtSecret = randomBytes(32).toString('base64url');
  const procs: Proc[] = [];
  let sink: SmtpSink;

  async function start(dir: string): Promise<Proc> {
    const port = await freePort();
    const output: string[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: '4',
        JWT_SECRET: jwtSecret,
        FIREBASE_PROJECT_ID: 'demo-waymark',
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
        SEED_DEMO: 'false',
        SMTP_URL: sink.url,
        MAIL_RETRY_DELAY: '1',
        RATE_LIMIT_STRICT: '5',
        LOG_LEVEL: 'warn',
        STATIC_DIR: join(ROOT, '.tmp', 'no-static'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
    child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const proc = { url: `http://127.0.0.1:${port}`, child, output, exited };
    procs.push(proc);
    return proc;
  }

  async function ready(proc: Proc, ms = 150_000) {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (proc.child.exitCode !== null) {
        throw new Error(`process exited with ${proc.child.exitCode}:\n${proc.output.join('').slice(-3000)}`);
      }
      try {
        const res = await fetch(`${proc.url}/api/health`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`process did not answer within ${ms} ms:\n${proc.output.join('').slice(-3000)}`);
  }

  beforeAll(async () => {
    sink = await startSmtpSink();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    // all at the same moment, on an empty database
    const started = await Promise.all(Array.from({ length: PROCESSES }, () => start(dataDir)));
    await Promise.all(started.map((p) => ready(p)));
  }, 240_000);

  afterAll(async () => {
    for (const p of procs) {
      if (p.child.exitCode === null) p.child.kill('SIGTERM');
    }
    await Promise.all(procs.map((p) => Promise.race([p.exited, new Promise((r) => setTimeout(r, 10_000))])));
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await sink?.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(otherDataDir, { recursive: true, force: true });
  }, 60_000);

  it('brings every process up and records each in the registry', async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      const { rows } = await c.query('select pid from server_processes');
      expect(rows.map((r) => r.pid).sort()).toEqual(
        procs
          .slice(0, PROCESSES)
          .map((p) => p.child.pid)
          .sort(),
      );
    } finally {
      await c.end();
    }
  });

  it('holds a rate limit across the processes and delivers each message once', async () => {
    sink.refuseFirst(1);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${procs[i % PROCESSES]!.url}/api/contact-us/send-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Priya Nair',
          email: 'priya@example.com',
          subject: `Scale ${i}`,
          message: 'Hello from one of three processes',
        }),
      });
      statuses.push(res.status);
    }
    // RATE_LIMIT_STRICT=5 a minute from one address, whichever process answers
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);

    await vi.waitFor(() => expect(sink.accepted()).toHaveLength(5), { timeout: 60_000, interval: 250 });
    await new Promise((r) => setTimeout(r, 3000));
    const accepted = sink.accepted();
    expect(accepted).toHaveLength(5);
    expect(new Set(accepted.map((a) => a.messageId)).size).toBe(5);
    expect(accepted.map((a) => a.subject).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `Contact: Scale ${i}`));
    // each refused once, then delivered by one of the processes
    expect(sink.attempts.filter((a) => !a.accepted)).toHaveLength(5);
  }, 120_000);

  it('refuses a process that would keep files on another disk, saying why', async () => {
    const other = await start(otherDataDir);
    const code = await Promise.race([
      other.exited,
      new Promise((r) => setTimeout(() => r('running'), 90_000)),
    ]);
    expect(code).toBe(3);
    const said = other.output.join('');
    expect(said).toMatch(/Waymark cannot start: Files .* own disk/);
    expect(said).toMatch(/set S3_BUCKET/);
  }, 120_000);
});
