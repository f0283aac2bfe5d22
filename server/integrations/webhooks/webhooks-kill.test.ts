/**
 * kill -9 of a real server process while webhook deliveries and xAPI batches are in flight (issue 29's
 * proof; decision 042): `server/main.ts` as a deployment runs it, on a throwaway PostgreSQL database, sends
 * to a slow receiver verifying every delivery with the Standard Webhooks' own library (`standardwebhooks`)
 * and to the stand-in LRS (its answers held); the process is killed with SIGKILL while requests of both are
 * open, another is started on the same database, and every event arrives — nothing lost.
 *
 * What "exactly once" means here, and what is asserted: Waymark records each (event, consumer) once, and
 * never sends again an event whose delivery it recorded; an attempt cut off by the kill (sent, not recorded)
 * is sent again after its lease — with the same `webhook-id`, or the same statements with the same ids —
 * so the receiver that deduplicates by `webhook-id` (as Standard Webhooks asks) handles each event once,
 * and the LRS stores each statement once. The test measures how many arrived twice and asserts that only
 * the cut-off ones did, once more each. PostgreSQL only (several processes).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { EVENT_CATALOGUE } from '@shared/contract/events';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type StandInLrs, startStandInLrs, xapiProblems } from '../../test/fixtures/lrs';
import { emulatorApi, uniquePhone } from '../../test/helper';
import { type MainProcess, startMain, throwawayDatabase } from '../../test/main-process';

const adminUrl = process.env.TEST_DATABASE_URL;
/** Events of each consumer: several batches of each (25 deliveries, 50 LRS entries a claim). */
const WEBHOOK_EVENTS = 150;
const XAPI_EVENTS = 120;
/** How long the receiver holds each answer: long enough for the kill to land mid-request. */
const RECEIVER_HOLD_MS = 1000;
const LRS_HOLD_MS = 2500;

interface Arrival {
  id: string;
  at: number;
  verified: boolean;
}

describe.skipIf(!adminUrl)('kill -9 of a server process mid-delivery', () => {
  const database = throwawayDatabase(adminUrl, 'waymark_kill');
  const dataDir = mkdtempSync(join(tmpdir(), 'wm-kill-'));
  const jwtSecret = randomBytes(32).toString('base64url');
  const procs: MainProcess[] = [];
  const arrivals: Arrival[] = [];
  /** What the receiver handled: the first arrival of each webhook-id (a repeat is ignored). */
  const handled = new Set<string>();
  let open = 0;
  let receiver: Server;
  let lrs: StandInLrs;
  let db: pg.Client;
  let secret = '';

  async function start(): Promise<MainProcess> {
    const proc = await startMain({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '4',
      JWT_SECRET: jwtSecret,
    });
    procs.push(proc);
    await vi.waitFor(
      async () => {
        if (proc.child.exitCode !== null)
          throw new Error(`exited with ${proc.child.exitCode}:\n${proc.output.join('').slice(-3000)}`);
        expect((await fetch(`${proc.url}/api/health`)).ok).toBe(true);
      },
      { timeout: 150_000, interval: 250 },
    );
    return proc;
  }

  /** A call to a process as the tenant: its JSON answer, or a thrown error naming the status. */
  async function call(proc: MainProcess, method: string, path: string, token: string | null, body?: unknown) {
    const res = await fetch(`${proc.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as { data: Record<string, unknown> };
  }

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let verified = false;
        try {
          new Webhook(secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          // counted below: every arrival must verify
        }
        const id = String(req.headers['webhook-id']);
        arrivals.push({ id, at: Date.now(), verified });
        if (verified) handled.add(id);
        open += 1;
        setTimeout(() => {
          open -= 1;
          if (!res.destroyed) res.writeHead(204).end();
        }, RECEIVER_HOLD_MS);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    lrs = await startStandInLrs();
    lrs.answerDelayMs = LRS_HOLD_MS;
    await database.create();
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 60_000);

  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    await db?.end().catch(() => undefined);
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    receiver?.closeAllConnections();
    await lrs?.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('loses and duplicates nothing: every event handled once, only the cut-off attempts sent again', async () => {
    const first = await start();
    // the tenant, signed in through the identity emulator, with a webhook endpoint and an LRS
    const emulator = emulatorApi();
    const account = await emulator.createAccount({ verified: true, displayName: 'Killer Mentor' });
    const signed = await call(first, 'POST', '/api/login/sign-in-with-firebase', null, {
      token: await emulator.idToken(account),
      role: 'TENANT',
    });
    const token = String(signed.data.token);
    const tenantId = String((signed.data.user as { _id: string })._id);
    await call(first, 'PUT', '/api/login/basic-profile', token, {
      name: 'Killer Mentor',
      phoneNumber: uniquePhone(),
      phoneCountry: 'IN',
      iam: 'MENTOR',
    });
    const { port } = receiver.address() as AddressInfo;
    const endpoint = await call(first, 'POST', '/api/tenant/webhooks', token, {
      url: `http://127.0.0.1:${port}/hooks`,
      events: ['seat.added'],
    });
    secret = String(endpoint.data.secret);
    await call(first, 'PUT', '/api/tenant/xapi', token, {
      endpoint: lrs.endpoint,
      username: lrs.username,
      secret: lrs.password,
    });

    // the events, committed as the outbox holds them: the statement that writes them makes their deliveries
    const emit = (type: keyof typeof EVENT_CATALOGUE, n: number) =>
      db.query(
        `insert into events (tenant_id, type, version, payload)
         select $1, $2, 1, $3::jsonb from generate_series(1, $4::int)`,
        [tenantId, type, JSON.stringify(EVENT_CATALOGUE[type].versions[1].example), n],
      );
    await emit('seat.added', WEBHOOK_EVENTS);
    await emit('roadmap.completed', XAPI_EVENTS);
    const { rows: eventRows } = await db.query<{ id: string; type: string }>(
      'select id, type from events where tenant_id = $1',
      [tenantId],
    );
    const webhookEvents = eventRows.filter((e) => e.type === 'seat.added').map((e) => e.id);
    expect(webhookEvents).toHaveLength(WEBHOOK_EVENTS);

    const recorded = async () => ({
      delivered: new Set(
        (
          await db.query<{ event_id: string }>(
            `select event_id from webhook_deliveries where status = 'DELIVERED'`,
          )
        ).rows.map((r) => r.event_id),
      ),
      sentStatements: new Set(
        (
          await db.query<{ ids: string[] }>(
            `select array(select s->>'id' from jsonb_array_elements(statements) s) as ids
             from xapi_statements where status = 'SENT'`,
          )
        ).rows.flatMap((r) => r.ids),
      ),
    });

    // the kill: once some of each are recorded as sent and others are on the wire, unanswered
    await vi.waitFor(
      async () => {
        const now = await recorded();
        expect(now.delivered.size).toBeGreaterThanOrEqual(25);
        expect(now.sentStatements.size).toBeGreaterThanOrEqual(1);
        expect(open).toBeGreaterThan(0);
        const unrecorded = lrs.arrivals.flat().filter((s) => !now.sentStatements.has(String(s.id)));
        expect(unrecorded.length).toBeGreaterThan(0);
      },
      { timeout: 90_000, interval: 50 },
    );
    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    await first.exited;
    // a statement the dead connection had sent finishes (or not) before PostgreSQL notices: then look
    await new Promise((r) => setTimeout(r, 1000));
    const atKill = await recorded();
    const arrivedBeforeKill = new Set(arrivals.filter((a) => a.at <= killedAt).map((a) => a.id));
    const cutOff = [...arrivedBeforeKill].filter((id) => !atKill.delivered.has(id));
    const statementsBeforeKill = lrs.arrivals.flat();
    const statementsCutOff = statementsBeforeKill.filter((s) => !atKill.sentStatements.has(String(s.id)));
    expect(cutOff.length).toBeGreaterThan(0);
    expect(statementsCutOff.length).toBeGreaterThan(0);

    // another process on the same database: the cut-off claims' leases end and it sends them, and the rest
    const second = await start();
    await vi
      .waitFor(
        async () => {
          const { rows } = await db.query<{ open: string }>(
            `select (select count(*) from webhook_deliveries where status <> 'DELIVERED')
             + (select count(*) from xapi_statements where status <> 'SENT') as open`,
          );
          expect(Number(rows[0]!.open)).toBe(0);
        },
        { timeout: 150_000, interval: 500 },
      )
      .catch(async (err) => {
        const { rows } = await db.query(
          `select 'w' as t, status, count(*), min(next_attempt_at), max(attempts), min(last_error) from webhook_deliveries group by status
         union all select 'x', status, count(*), min(next_attempt_at), max(attempts), min(last_error) from xapi_statements group by status`,
        );
        throw new Error(
          `${(err as Error).message}\n${JSON.stringify(rows)}\n${second.output.join('').slice(-3000)}`,
        );
      });
    await new Promise((r) => setTimeout(r, RECEIVER_HOLD_MS + 2000));

    // webhooks: every delivery verified; each event handled once; only cut-off attempts arrived twice
    expect(arrivals.filter((a) => !a.verified)).toEqual([]);
    expect([...handled].sort()).toEqual([...webhookEvents].sort());
    const times = new Map<string, number>();
    for (const a of arrivals) times.set(a.id, (times.get(a.id) ?? 0) + 1);
    const twice = [...times].filter(([, n]) => n > 1);
    for (const [id, n] of twice) {
      expect(cutOff).toContain(id);
      expect(n).toBe(2);
    }
    for (const id of atKill.delivered) expect(times.get(id)).toBe(1);
    const { rows: attempts } = await db.query<{ event_id: string; attempts: number }>(
      'select event_id, attempts from webhook_deliveries',
    );
    expect(attempts).toHaveLength(WEBHOOK_EVENTS);
    // a claim cut off before its request left counts an attempt too; a recorded one was never claimed again
    for (const row of attempts) {
      if (atKill.delivered.has(row.event_id)) expect(row.attempts).toBe(1);
      else expect(row.attempts).toBeLessThanOrEqual(2);
      if ((times.get(row.event_id) ?? 0) > 1) expect(row.attempts).toBe(2);
    }

    // xAPI: each statement stored once; a statement sent again is the same statement, byte for byte
    expect(lrs.stored.size).toBe(XAPI_EVENTS);
    const final = await recorded();
    expect([...final.sentStatements].sort()).toEqual([...lrs.stored.keys()].sort());
    for (const s of lrs.stored.values()) expect(xapiProblems(s)).toEqual([]);
    const everySent = lrs.arrivals.flat();
    for (const s of everySent) expect(isDeepStrictEqual(s, lrs.stored.get(String(s.id)))).toBe(true);
    const statementTimes = new Map<string, number>();
    for (const s of everySent) statementTimes.set(String(s.id), (statementTimes.get(String(s.id)) ?? 0) + 1);
    const cutOffIds = new Set(statementsCutOff.map((s) => String(s.id)));
    for (const [id, n] of statementTimes) expect(n).toBe(cutOffIds.has(id) ? 2 : 1);

    console.info(
      `kill -9 mid-delivery: webhooks ${WEBHOOK_EVENTS} events, ${atKill.delivered.size} recorded before the kill, ` +
        `${cutOff.length} cut off and sent again (same webhook-id), ${arrivals.length} requests, ${handled.size} handled; ` +
        `xAPI ${XAPI_EVENTS} statements, ${statementsCutOff.length} cut off and sent again, ${lrs.stored.size} stored`,
    );
  }, 420_000);
});
