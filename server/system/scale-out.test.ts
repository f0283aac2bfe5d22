/**
 * Three real server processes (`server/main.ts`, as a deployment runs them) started at the same moment on
 * one empty PostgreSQL database, with a real SMTP server: all come up; a rate limit holds across them;
 * every message is delivered once although each process runs the delivery workers and the SMTP server
 * refuses each message's first attempt; a fourth process keeping its files on another disk is refused.
 * PostgreSQL only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MainProcess, startMain, throwawayDatabase } from '../test/main-process';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink';

const adminUrl = process.env.TEST_DATABASE_URL;
const PROCESSES = 3;

describe.skipIf(!adminUrl)(`${PROCESSES} server processes on one PostgreSQL`, () => {
  const database = throwawayDatabase(adminUrl, 'waymark_scale');
  const databaseUrl = database.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'wm-scale-'));
  const otherDataDir = mkdtempSync(join(tmpdir(), 'wm-scale-other-'));
  const jwtSecret = randomBytes(32).toString('base64url');
  const procs: MainProcess[] = [];
  let sink: SmtpSink;

  async function start(dir: string): Promise<MainProcess> {
    const proc = await startMain({
      DATA_DIR: dir,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '4',
      JWT_SECRET: jwtSecret,
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY: '1',
      RATE_LIMIT_STRICT: '5',
    });
    procs.push(proc);
    return proc;
  }

  async function ready(proc: MainProcess, ms = 150_000) {
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
    await database.create();
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
    await database.drop();
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
