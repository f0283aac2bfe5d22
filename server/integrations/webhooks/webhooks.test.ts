/**
 * Webhooks (issue 29 item 2), against the real server and a real HTTP receiver on this machine that checks
 * every delivery with the Standard Webhooks' own library (standardwebhooks), not with our signing code: a
 * tenant (or its key with integrations:manage) adds an endpoint — its secret shown once and sealed at rest,
 * its address through the outbound guard —, an event committed reaches it signed, once per (event,
 * endpoint) even with two processes sending at once; a failure is retried with backoff and its answer kept;
 * a rotation signs with both secrets for a day, then with the new one only; a disabled endpoint gets nothing
 * and can be redelivered its failures; a removed one gets nothing more; another tenant sees none of it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/helpers';
import { expectLogSaid } from '../../test/audit-said';
import { type SignedIn, setupServer } from '../../test/helper';
import { webhookDeliveries, webhookEndpoints } from './tables';

/** What the receiver got: each request's path, headers and body as sent. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
/** The answer of each path: a status, and for a slow path a delay. */
const answers: Record<string, { status: number; body?: string; headers?: Record<string, string> }> = {
  '/ok': { status: 200, body: 'thanks' },
  '/fail': { status: 500, body: `overloaded ${'x'.repeat(5000)}` },
  '/redirect': { status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' } },
};
let receiver: Server;
let base: string;

// a name that resolves to a private address (the guard must check the resolved address)
/** What each name resolves to (the guard must check the resolved address, on every attempt). */
const names: Record<string, string[]> = {
  'intranet.example.com': ['10.1.2.3'],
  localhost: ['127.0.0.1'],
  'rebinding.example.com': ['93.184.215.14'],
};
const server = setupServer({
  services: {
    outboundResolve: async (name) =>
      name === 'nowhere.invalid'
        ? Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }))
        : (names[name] ?? ['93.184.215.14']),
  },
});

let tenant: SignedIn;
let other: SignedIn;
let learnerEmails: string[] = [];

const sender = () => server.app.services.webhooks;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const a = answers[path] ?? { status: 404 };
      res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Hook Mentor' });
  other = await server.signedIn('TENANT', { profile: true, name: 'Other Mentor' });
  const learners = await Promise.all([1, 2, 3, 4, 5].map(() => server.signedIn('USER', { profile: true })));
  learnerEmails = learners.map((l) => l.account.email);
}, 120_000);

afterAll(() => new Promise<void>((resolve) => receiver?.close(() => resolve())));

async function addEndpoint(body: Record<string, unknown>, who: { token: string } = tenant.auth) {
  const res = await server.post('/api/tenant/webhooks', body, who);
  expect(res.status, res.text).toBe(201);
  return res.body.data as { _id: string; secret: string; status: string; events: string[] };
}

async function seat(email: string) {
  const res = await server.post('/api/tenant/users/add-user-v2', { email }, tenant.auth);
  expect(res.status, res.text).toBe(200);
}

const deliveriesOf = (endpointId: string) =>
  server.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.seq);

const at = (path: string) => received.filter((r) => r.path === path);

/** Verifies a received delivery with the standard's library; returns the body it vouches for. */
const verified = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
    id: string;
    type: string;
    tenantId: string;
    data: Record<string, unknown>;
  };

describe('webhook endpoints', () => {
  it('are added with a secret shown once and sealed, listed without it, and by a key with integrations:manage only', async () => {
    const made = await addEndpoint({ url: `${base}/ok`, events: ['seat.added'], description: 'HR' });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const dump = rowsOf<{ t: string }>(
      await server.db.execute(sql`select row_to_json(w)::text as t from webhook_endpoints w`),
    );
    expect(dump.map((r) => r.t).join('')).not.toContain(made.secret.slice(6));
    const list = await server.get('/api/tenant/webhooks', tenant.auth);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(made.secret.slice(6));
    expect(list.body.data.map((e: { _id: string }) => e._id)).toContain(made._id);

    const key = async (scopes: string[]) => {
      const res = await server.post(
        '/api/tenant/api-keys',
        { name: scopes.join() || 'x', scopes },
        tenant.auth,
      );
      expect(res.status, res.text).toBe(201);
      return { token: res.body.data.key as string };
    };
    const manager = await key(['integrations:manage']);
    const reader = await key(['seats:read']);
    expect((await server.get('/api/tenant/webhooks', manager)).status).toBe(200);
    const refused = await server.get('/api/tenant/webhooks', reader);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('API_KEY_SCOPE');
    // another tenant neither sees nor touches it
    const theirs = await server.get('/api/tenant/webhooks', other.auth);
    expect(theirs.body.data).toEqual([]);
    const touch = await server.request(
      'PATCH',
      `/api/tenant/webhooks/${made._id}`,
      { enabled: false },
      other.auth,
    );
    expect(touch.status).toBe(404);
    // a learner has no endpoints
    const learner = await server.signedIn('USER');
    expect((await server.get('/api/tenant/webhooks', learner.auth)).status).toBe(403);
    await server.request('DELETE', `/api/tenant/webhooks/${made._id}`, undefined, tenant.auth);
  });

  it('refuses addresses that are not public https, naming the field, and bad event types', async () => {
    for (const url of [
      'http://example.com/hook',
      // a name that does not resolve (yet) is accepted over https only
      'http://nowhere.invalid/hook',
      'https://10.0.0.8/hook',
      'https://169.254.169.254/latest',
      'https://intranet.example.com/hook',
      'https://[::ffff:192.168.1.1]/hook',
      'not an address',
    ]) {
      const res = await server.post('/api/tenant/webhooks', { url, events: ['seat.added'] }, tenant.auth);
      expect(res.status, url).toBe(400);
      expect(res.text, url).toContain('url');
    }
    const bad = await server.post(
      '/api/tenant/webhooks',
      { url: `${base}/ok`, events: ['seat.exploded'] },
      tenant.auth,
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('events');
    const none = await server.post('/api/tenant/webhooks', { url: `${base}/ok`, events: [] }, tenant.auth);
    expect(none.status).toBe(400);
  });

  it('delivers a committed event signed per Standard Webhooks, once, and a test event', async () => {
    const made = await addEndpoint({ url: `${base}/ok`, events: ['seat.added', 'seat.removed'] });
    // another tenant's endpoint for the same events gets none of this tenant's
    const theirs = await addEndpoint({ url: `${base}/theirs`, events: ['seat.added'] }, other.auth);
    await seat(learnerEmails[0]!);
    const rows = await deliveriesOf(made._id);
    expect(rows.map((r) => [r.eventType, r.status])).toEqual([['seat.added', 'PENDING']]);
    expect(await deliveriesOf(theirs._id)).toEqual([]);

    const sent = await sender().deliverEndpoint(made._id);
    expect(sent).toEqual({ delivered: 1, failed: 0 });
    const [got] = at('/ok');
    const body = verified(made.secret, got!);
    expect(body).toMatchObject({
      id: rows[0]!.eventId,
      type: 'seat.added',
      version: 1,
      tenantId: tenant.user._id,
      data: { learner: { email: learnerEmails[0] }, via: 'ADDED' },
    });
    expect(got!.headers['webhook-id']).toBe(rows[0]!.eventId);
    expect(Math.abs(Number(got!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // a tampered body, another id, an old timestamp: the library refuses them
    const headers = got!.headers as Record<string, string>;
    expect(() => new Webhook(made.secret).verify(got!.body.replace('ADDED', 'INVITATION'), headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() =>
      new Webhook(made.secret).verify(got!.body, {
        ...headers,
        'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600),
      }),
    ).toThrow(WebhookVerificationError);

    // sent once: nothing more to send
    expect(await sender().deliverEndpoint(made._id)).toEqual({ delivered: 0, failed: 0 });
    expect(at('/ok')).toHaveLength(1);
    const log = await server.get(`/api/tenant/webhooks/${made._id}/deliveries`, tenant.auth);
    expect(log.body.data.deliveries[0]).toMatchObject({
      eventType: 'seat.added',
      status: 'DELIVERED',
      attempts: 1,
      responseStatus: 200,
      responseBody: 'thanks',
    });
    expect(log.body.data.deliveries[0].responseMs).toBeGreaterThanOrEqual(0);

    // the test event
    const test = await server.post(`/api/tenant/webhooks/${made._id}/test`, undefined, tenant.auth);
    expect(test.status, test.text).toBe(202);
    await sender().deliverEndpoint(made._id);
    const ping = verified(made.secret, at('/ok')[1]!);
    expect(ping).toMatchObject({
      id: test.body.data.eventId,
      type: 'webhook.test',
      data: { endpointId: made._id },
    });
    await server.request('DELETE', `/api/tenant/webhooks/${theirs._id}`, undefined, other.auth);
    await server.request('DELETE', `/api/tenant/webhooks/${made._id}`, undefined, tenant.auth);
  });

  it('sends each delivery once when two processes send the same endpoint at once', async () => {
    received.length = 0;
    answers['/once'] = { status: 204 };
    const made = await addEndpoint({ url: `${base}/once`, events: ['seat.added'] });
    for (let i = 0; i < 12; i++) {
      const res = await server.post(`/api/tenant/webhooks/${made._id}/test`, undefined, tenant.auth);
      expect(res.status).toBe(202);
    }
    const second = await server.anotherProcess();
    try {
      const results = await Promise.all([
        sender().deliverEndpoint(made._id),
        second.app.services.webhooks.deliverEndpoint(made._id),
        sender().deliverEndpoint(made._id),
      ]);
      expect(results.reduce((n, r) => n + r.delivered, 0)).toBe(12);
    } finally {
      await second.close();
    }
    const ids = at('/once').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    for (const r of at('/once')) verified(made.secret, r);
    expect((await deliveriesOf(made._id)).every((d) => d.status === 'DELIVERED' && d.attempts === 1)).toBe(
      true,
    );
    await server.request('DELETE', `/api/tenant/webhooks/${made._id}`, undefined, tenant.auth);
  });

  it('retries a failure with backoff, keeps the first 2 KB of the answer, follows no redirect, and is redelivered', async () => {
    const failing = await addEndpoint({ url: `${base}/fail`, events: ['seat.added'] });
    const moved = await addEndpoint({ url: `${base}/redirect`, events: ['seat.added'] });
    await seat(learnerEmails[1]!);
    expect(await sender().deliverEndpoint(failing._id)).toEqual({ delivered: 0, failed: 1 });
    const [row] = await deliveriesOf(failing._id);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 1, responseStatus: 500 });
    expect(row!.responseBody).toHaveLength(2048);
    // the first retry about 5 s later (±10 %)
    const wait = row!.nextAttemptAt!.getTime() - row!.lastAttemptAt!.getTime();
    expect(wait).toBeGreaterThan(4000);
    expect(wait).toBeLessThan(6000);
    // not due yet: nothing is sent
    expect(await sender().deliverEndpoint(failing._id)).toEqual({ delivered: 0, failed: 0 });
    // the next failures wait longer: 5 minutes after the second
    await server.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(webhookDeliveries.id, row!.id));
    await sender().deliverEndpoint(failing._id);
    const [again] = await deliveriesOf(failing._id);
    expect(again!.attempts).toBe(2);
    expect(again!.nextAttemptAt!.getTime() - again!.lastAttemptAt!.getTime()).toBeGreaterThan(260_000);
    const endpoint = await server.get('/api/tenant/webhooks', tenant.auth);
    expect(
      endpoint.body.data.find((e: { _id: string }) => e._id === failing._id).failingSince,
    ).not.toBeNull();

    // the redirect is not followed: the delivery failed, saying where it pointed
    await sender().deliverEndpoint(moved._id);
    const [redirected] = await deliveriesOf(moved._id);
    expect(redirected).toMatchObject({ status: 'PENDING', responseStatus: 302 });
    expect(redirected!.lastError).toContain('redirects are not followed');
    expect(redirected!.lastErrorParts).toMatchObject([
      { code: 'deliveries.error.redirectTo', params: { status: 302 } },
    ]);
    expect(received.some((r) => r.path === '/elsewhere')).toBe(false);

    // the endpoint works again: the delivery is redelivered at once, signed as before
    answers['/fail'] = { status: 200, body: 'ok now' };
    const res = await server.post(
      `/api/tenant/webhooks/${failing._id}/deliveries/${row!.id}/redeliver`,
      undefined,
      tenant.auth,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'PENDING', attempts: 0 });
    await sender().deliverEndpoint(failing._id);
    const [done] = await deliveriesOf(failing._id);
    expect(done).toMatchObject({ status: 'DELIVERED', attempts: 1, responseStatus: 200 });
    const bodies = at('/fail').map((r) => verified(failing.secret, r));
    expect(new Set(bodies.map((b) => b.id))).toEqual(new Set([row!.eventId]));
    const after = await server.get('/api/tenant/webhooks', tenant.auth);
    expect(after.body.data.find((e: { _id: string }) => e._id === failing._id).failingSince).toBeNull();
    for (const id of [failing._id, moved._id])
      await server.request('DELETE', `/api/tenant/webhooks/${id}`, undefined, tenant.auth);
  });

  it('gives up after the last attempt, and an endpoint failing for three days is disabled and its owner told', async () => {
    answers['/down'] = { status: 503 };
    const made = await addEndpoint({ url: `${base}/down`, events: ['seat.added'] });
    await seat(learnerEmails[2]!);
    await server.db
      .update(webhookDeliveries)
      .set({ attempts: 9 })
      .where(eq(webhookDeliveries.endpointId, made._id));
    await sender().deliverEndpoint(made._id);
    const [row] = await deliveriesOf(made._id);
    expect(row).toMatchObject({ status: 'FAILED', attempts: 10, nextAttemptAt: null });
    expect(row!.lastError).toBe('The endpoint answered 503. Given up after 10 attempts.');
    // the same by code, for the portal to say in the reader's language (issue 31)
    const listed = await server.get(`/api/tenant/webhooks/${made._id}/deliveries`, tenant.auth);
    expect(listed.body.data.deliveries[0]).toMatchObject({
      error: row!.lastError,
      errorParts: [
        { code: 'deliveries.error.answered', params: { status: 503 } },
        { code: 'deliveries.error.givenUp', params: { attempts: 10 } },
      ],
    });

    // failing since three days ago: the next failure disables it, and the tenant is told in its language
    await server.db.execute(sql`update users set language = 'es' where id = ${tenant.user._id}`);
    await server.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date(Date.now() - 3 * 86_400_000 - 60_000) })
      .where(eq(webhookEndpoints.id, made._id));
    await server.post(`/api/tenant/webhooks/${made._id}/test`, undefined, tenant.auth);
    await sender().deliverEndpoint(made._id);
    const list = await server.get('/api/tenant/webhooks', tenant.auth);
    const disabled = list.body.data.find((e: { _id: string }) => e._id === made._id);
    expect(disabled.status).toBe('DISABLED');
    expect(disabled.disabledReason).toContain('3 days');
    // the same by code, for the portal to say in the reader's language (issue 31)
    expect(disabled.disabledWhy).toMatchObject({ code: 'FAILING', days: 3 });
    expect(disabled.disabledReason).toContain(disabled.disabledWhy.since);
    const audit = rowsOf<{ action: string; actor_kind: string }>(
      await server.db.execute(
        sql`select action, actor_kind from audit_events where target_id = ${made._id} and action = 'webhook.disabled'`,
      ),
    );
    expect(audit).toHaveLength(1);
    const mail = rowsOf<{ n: number }>(
      await server.db.execute(
        sql`select count(*)::int as n from outbox where "to" = ${tenant.account.email} and subject = 'Se desactivó tu endpoint de webhooks de Waymark'`,
      ),
    );
    expect(Number(mail[0]?.n)).toBe(1);
    await server.db.execute(sql`update users set language = 'en' where id = ${tenant.user._id}`);
    await server.request('DELETE', `/api/tenant/webhooks/${made._id}`, undefined, tenant.auth);
  });

  it('rotates the secret: both sign for 24 hours, then only the new one', async () => {
    received.length = 0;
    const made = await addEndpoint({ url: `${base}/ok`, events: ['seat.added'] });
    const rotated = await server.post(
      `/api/tenant/webhooks/${made._id}/rotate-secret`,
      undefined,
      tenant.auth,
    );
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).not.toBe(made.secret);
    expect(Date.parse(rotated.body.data.previousSecretUntil) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    await server.post(`/api/tenant/webhooks/${made._id}/test`, undefined, tenant.auth);
    await sender().deliverEndpoint(made._id);
    const [during] = at('/ok');
    verified(made.secret, during!);
    verified(fresh, during!);
    // the day has passed: the previous secret no longer verifies
    await server.db
      .update(webhookEndpoints)
      .set({ previousSecretUntil: new Date(Date.now() - 1000) })
      .where(eq(webhookEndpoints.id, made._id));
    await server.post(`/api/tenant/webhooks/${made._id}/test`, undefined, tenant.auth);
    await sender().deliverEndpoint(made._id);
    const [, after] = at('/ok');
    verified(fresh, after!);
    expect(() => verified(made.secret, after!)).toThrow(WebhookVerificationError);
    await server.request('DELETE', `/api/tenant/webhooks/${made._id}`, undefined, tenant.auth);
  });

  it('a paused endpoint gets nothing, keeps its events as failed to redeliver; a removed one gets nothing more', async () => {
    received.length = 0;
    answers['/paused'] = { status: 200 };
    const made = await addEndpoint({ url: `${base}/paused`, events: ['seat.added', 'seat.removed'] });
    const paused = await server.request(
      'PATCH',
      `/api/tenant/webhooks/${made._id}`,
      { enabled: false },
      tenant.auth,
    );
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body.data.status).toBe('DISABLED');
    expect(paused.body.data.disabledWhy).toEqual({ code: 'TENANT', since: null, days: null });
    const from = new Date(Date.now() - 1000).toISOString();
    await seat(learnerEmails[3]!);
    expect(await sender().deliverEndpoint(made._id)).toEqual({ delivered: 0, failed: 0 });
    expect(at('/paused')).toEqual([]);
    const [kept] = await deliveriesOf(made._id);
    expect(kept).toMatchObject({ status: 'FAILED', eventType: 'seat.added' });
    const refused = await server.post(
      `/api/tenant/webhooks/${made._id}/redeliver`,
      { from, to: new Date(Date.now() + 1000).toISOString() },
      tenant.auth,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe('ENDPOINT_DISABLED');
    await server.request('PATCH', `/api/tenant/webhooks/${made._id}`, { enabled: true }, tenant.auth);
    const changed = await server.request(
      'PATCH',
      `/api/tenant/webhooks/${made._id}`,
      { description: 'Paused once', ordered: true, events: ['seat.added'] },
      tenant.auth,
    );
    expect(changed.status, changed.text).toBe(200);
    const redo = await server.post(
      `/api/tenant/webhooks/${made._id}/redeliver`,
      { from, to: new Date(Date.now() + 1000).toISOString() },
      tenant.auth,
    );
    expect(redo.status, redo.text).toBe(200);
    expect(redo.body.data.redelivered).toBe(1);
    await sender().deliverEndpoint(made._id);
    expect(verified(made.secret, at('/paused')[0]!).id).toBe(kept!.eventId);

    // removed: its deliveries go with it, and a new event makes none
    const removed = await server.request(
      'DELETE',
      `/api/tenant/webhooks/${made._id}`,
      undefined,
      tenant.auth,
    );
    expect(removed.status).toBe(200);
    await seat(learnerEmails[4]!);
    const left = rowsOf<{ n: number }>(
      await server.db.execute(
        sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${made._id}`,
      ),
    );
    expect(Number(left[0]?.n)).toBe(0);
    expect(await sender().deliverEndpoint(made._id)).toEqual({ delivered: 0, failed: 0 });
    expect(at('/paused')).toHaveLength(1);
    const audit = rowsOf<{ action: string }>(
      await server.db.execute(
        sql`select action from audit_events where target_id = ${made._id} order by occurred_at, id`,
      ),
    );
    expect(audit.map((a) => a.action)).toEqual([
      'webhook.created',
      'webhook.disabled',
      'webhook.enabled',
      'webhook.updated',
      'webhook.redelivered',
      'webhook.removed',
    ]);
    // each said again in the reader's language from its details (issue 31), Waymark's disabling too
    await expectLogSaid(server.db, tenant.user._id, [
      'webhook.disabled',
      'webhook.enabled',
      'webhook.updated',
      'webhook.redelivered',
    ]);
  });

  it('refuses, on each attempt, a name that has come to resolve to a private address', async () => {
    const made = await addEndpoint({ url: 'https://rebinding.example.com/hook', events: ['seat.added'] });
    names['rebinding.example.com'] = ['192.168.0.10'];
    await server.post(`/api/tenant/webhooks/${made._id}/test`, undefined, tenant.auth);
    expect(await sender().deliverEndpoint(made._id)).toEqual({ delivered: 0, failed: 1 });
    const [row] = await deliveriesOf(made._id);
    expect(row).toMatchObject({ status: 'PENDING', responseStatus: null });
    expect(row!.lastError).toContain('not a public address');
    await server.request('DELETE', `/api/tenant/webhooks/${made._id}`, undefined, tenant.auth);
  });

  it('an ordered endpoint gets one delivery at a time, in order: a failing one holds back the rest', async () => {
    received.length = 0;
    answers['/ordered'] = { status: 500 };
    const made = await addEndpoint({ url: `${base}/ordered`, events: ['seat.added'], ordered: true });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await server.post(`/api/tenant/webhooks/${made._id}/test`, undefined, tenant.auth);
      ids.push(res.body.data.eventId);
    }
    expect(await sender().deliverEndpoint(made._id)).toEqual({ delivered: 0, failed: 1 });
    expect(at('/ordered').map((r) => r.headers['webhook-id'])).toEqual([ids[0]]);
    expect((await deliveriesOf(made._id)).map((d) => d.attempts)).toEqual([1, 0, 0]);
    answers['/ordered'] = { status: 200 };
    await server.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(webhookDeliveries.endpointId, made._id));
    expect(await sender().deliverEndpoint(made._id)).toEqual({ delivered: 3, failed: 0 });
    expect(at('/ordered').map((r) => r.headers['webhook-id'])).toEqual([ids[0], ...ids]);
    await server.request('DELETE', `/api/tenant/webhooks/${made._id}`, undefined, tenant.auth);
  });
});
