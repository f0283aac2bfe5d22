/**
 * The sizes a webhook delivery keeps to (issue 29 item 2; decision 042), against the real server and a
 * receiver on this machine verifying with the Standard Webhooks' own library: an event whose body would be
 * over 256 KB is not sent — its delivery FAILED at once, saying why, never retried — while one just under
 * is sent whole; an endpoint answering 10 MB has only the first 2 KB of it read and kept: the sender stops
 * reading there, so the receiver never gets to write the rest.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_CATALOGUE } from '@shared/contract/events';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type SignedIn, setupServer } from '../../test/helper';
import { events } from '../core/tables';
import { MAX_WEBHOOK_BODY_BYTES } from './deliver';
import { webhookDeliveries } from './tables';

const HUGE_ANSWER_BYTES = 10 * 1024 * 1024;
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
/** What the 10 MB answer got to write before the connection went, and whether it wrote it all. */
const huge = { written: 0, finished: false, closed: false };
let receiver: Server;
let base: string;
const server = setupServer();
let tenant: SignedIn;

beforeAll(async () => {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (req.url !== '/huge') return void res.writeHead(204).end();
      // 10 MB, written as fast as the connection takes it
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(HUGE_ANSWER_BYTES) });
      res.on('close', () => {
        huge.closed = true;
      });
      const more = () => {
        while (huge.written < HUGE_ANSWER_BYTES && !res.destroyed) {
          huge.written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end(() => (huge.finished = true));
      };
      more();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Size Mentor' });
}, 120_000);

afterAll(() => new Promise<void>((resolve) => receiver?.close(() => resolve())));

async function addEndpoint(path: string) {
  const res = await server.post(
    '/api/tenant/webhooks',
    { url: `${base}${path}`, events: ['seat.added'] },
    tenant.auth,
  );
  expect(res.status, res.text).toBe(201);
  return res.body.data as { _id: string; secret: string };
}

/** A committed seat.added event whose learner's name is `nameBytes` long: its id. */
async function seatAdded(nameBytes: number) {
  const data = structuredClone(EVENT_CATALOGUE['seat.added'].versions[1].example);
  data.learner.name = 'n'.repeat(nameBytes);
  const [row] = await server.db
    .insert(events)
    .values({ tenantId: tenant.user._id, type: 'seat.added', version: 1, payload: data })
    .returning({ id: events.id });
  return row!.id;
}

const deliveryOf = async (endpointId: string, eventId: string) =>
  (await server.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId))).find(
    (d) => d.eventId === eventId,
  )!;

it('does not send an event over 256 KB: failed at once, saying why; one just under goes whole', async () => {
  const endpoint = await addEndpoint('/sizes');
  const tooBig = await seatAdded(MAX_WEBHOOK_BODY_BYTES);
  const fits = await seatAdded(MAX_WEBHOOK_BODY_BYTES - 2048);
  expect(await server.app.services.webhooks.deliverEndpoint(endpoint._id)).toEqual({
    delivered: 1,
    failed: 1,
  });

  const refused = await deliveryOf(endpoint._id, tooBig);
  expect(refused).toMatchObject({ status: 'FAILED', attempts: 1, nextAttemptAt: null, responseStatus: null });
  expect(refused.lastError).toBe('The event is larger than 256 KB and is not sent.');
  // the tenant sees why in the delivery list
  const list = await server.get(`/api/tenant/webhooks/${endpoint._id}/deliveries?status=FAILED`, tenant.auth);
  expect(list.status, list.text).toBe(200);
  expect(JSON.stringify(list.body.data)).toContain('larger than 256 KB');

  const sent = received.filter((r) => r.path === '/sizes');
  expect(sent.map((r) => r.headers['webhook-id'])).toEqual([fits]);
  expect(Buffer.byteLength(sent[0]!.body)).toBeLessThanOrEqual(MAX_WEBHOOK_BODY_BYTES);
  const body = new Webhook(endpoint.secret).verify(sent[0]!.body, sent[0]!.headers as Record<string, string>);
  expect((body as { data: { learner: { name: string } } }).data.learner.name).toHaveLength(
    MAX_WEBHOOK_BODY_BYTES - 2048,
  );
  expect(await deliveryOf(endpoint._id, fits)).toMatchObject({ status: 'DELIVERED', attempts: 1 });
  // given up on: nothing more is tried
  expect(await server.app.services.webhooks.deliverEndpoint(endpoint._id)).toEqual({
    delivered: 0,
    failed: 0,
  });
});

it('reads and keeps only the first 2 KB of a 10 MB answer, and stops reading there', async () => {
  const endpoint = await addEndpoint('/huge');
  const eventId = await seatAdded(10);
  expect(await server.app.services.webhooks.deliverEndpoint(endpoint._id)).toEqual({
    delivered: 1,
    failed: 0,
  });
  const row = await deliveryOf(endpoint._id, eventId);
  expect(row).toMatchObject({ status: 'DELIVERED', responseStatus: 200 });
  expect(row.responseBody).toBe('x'.repeat(2048));
  // the connection was closed by the sender long before the receiver could write the 10 MB
  await vi.waitFor(() => expect(huge.closed).toBe(true));
  expect(huge.finished).toBe(false);
  expect(huge.written).toBeLessThan(HUGE_ANSWER_BYTES / 2);
});
