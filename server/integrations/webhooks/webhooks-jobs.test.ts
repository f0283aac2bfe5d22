/**
 * Webhook deliveries sent by the pg-boss jobs themselves (JOB_WORKERS=true), against the real server and a
 * real receiver checking with the standardwebhooks library: an event committed reaches the endpoint within
 * seconds with nobody calling the sender; a delivery whose worker died mid-attempt (SENDING, its lease
 * over) is sent again, with the same webhook-id, and only once. A learning record store's statements go the
 * same way (its own queue, xapi-send).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_CATALOGUE } from '@shared/contract/events';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStandInLrs, xapiProblems } from '../../test/fixtures/lrs';
import { type SignedIn, setupServer } from '../../test/helper';
import { emitEvent } from '../core/events';
import { webhookDeliveries } from './tables';

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let receiver: Server;
let url: string;
const server = setupServer({ env: { JOB_WORKERS: 'true' } });
let tenant: SignedIn;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Job Mentor' });
}, 120_000);

afterAll(() => new Promise<void>((resolve) => receiver?.close(() => resolve())));

async function until<T>(what: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await what();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('sends a committed event by the jobs within seconds, and again a delivery whose worker died, once', async () => {
  const made = await server.post('/api/tenant/webhooks', { url, events: ['seat.added'] }, tenant.auth);
  expect(made.status, made.text).toBe(201);
  const { _id: endpointId, secret } = made.body.data as { _id: string; secret: string };
  const learner = await server.signedIn('USER', { profile: true });
  const started = Date.now();
  const seat = await server.post(
    '/api/tenant/users/add-user-v2',
    { email: learner.account.email },
    tenant.auth,
  );
  expect(seat.status).toBe(200);
  const got = await until(() => received[0]);
  expect(Date.now() - started).toBeLessThan(15_000);
  const body = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as {
    type: string;
  };
  expect(body.type).toBe('seat.added');
  const [row] = await until(async () => {
    const rows = await server.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    return rows[0]?.status === 'DELIVERED' ? rows : undefined;
  });

  // a worker that died holding it: SENDING, its lease over — claimed again, sent once more, same webhook-id
  await server.db
    .update(webhookDeliveries)
    .set({ status: 'SENDING', claim: row!.id, nextAttemptAt: new Date(Date.now() - 1000) })
    .where(eq(webhookDeliveries.id, row!.id));
  const again = await until(() => received[1]);
  expect(again.headers['webhook-id']).toBe(got.headers['webhook-id']);
  new Webhook(secret).verify(again.body, again.headers as Record<string, string>);
  await new Promise((r) => setTimeout(r, 3000));
  expect(received).toHaveLength(2);
  const [after] = await server.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row!.id));
  expect(after).toMatchObject({ status: 'DELIVERED', attempts: 2 });
}, 60_000);

it('sends an event’s statements to the tenant’s learning record store by the jobs within seconds', async () => {
  const lrs = await startStandInLrs();
  try {
    const res = await server.put(
      '/api/tenant/xapi',
      { endpoint: lrs.endpoint, username: lrs.username, secret: lrs.password },
      tenant.auth,
    );
    expect(res.status, res.text).toBe(200);
    await server.db.transaction((tx) =>
      emitEvent(tx, {
        tenantId: tenant.user._id,
        type: 'roadmap.completed',
        data: EVENT_CATALOGUE['roadmap.completed'].versions[1].example,
      }),
    );
    const stored = await until(() => [...lrs.stored.values()][0]);
    expect(xapiProblems(stored)).toEqual([]);
    expect(stored).toMatchObject({ verb: { id: 'http://adlnet.gov/expapi/verbs/completed' } });
  } finally {
    await lrs.close();
  }
}, 60_000);
