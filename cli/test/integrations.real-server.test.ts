/**
 * `waymark webhooks` and `waymark xapi` against the real server (the app on a PGlite clone, listening on a
 * free port, identity from the Firebase Auth emulator), with a receiver on this machine verifying every
 * delivery with the Standard Webhooks' own library and the stand-in LRS checking every statement with
 * xapi-validation: the mentor adds an endpoint (its secret printed once), lists it, sends a test event that
 * arrives signed, reads the deliveries, redelivers one and the failures of a period, removes the endpoint;
 * connects an LRS (the secret piped), tests it, reads what was sent, resends, disconnects. Deliveries are
 * sent by the server's own senders (the jobs' work), called when the test wants them.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { emitEvent } from '@server/integrations/core/events';
import { type StandInLrs, startStandInLrs, xapiProblems } from '@server/test/fixtures/lrs';
import { type SignedIn, type TestServer, uniqueEmail } from '@server/test/helper';
import { EVENT_CATALOGUE } from '@shared/contract/events';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Http } from '../src/core/http';
import type { SessionStore } from '../src/core/session';
import { startAuthoringServer } from './authoring-server';
import { runWaymark } from './harness';

const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const SKIP_REASON =
  'SKIPPED: needs the Firebase Auth emulator; set FIREBASE_AUTH_EMULATOR_HOST=host:port (npm test does)';
if (!emulatorHost) console.warn(`cli/test/integrations.real-server.test.ts ${SKIP_REASON}`);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe.skipIf(!emulatorHost)(
  `waymark webhooks and waymark xapi against the real server${emulatorHost ? '' : ` (${SKIP_REASON})`}`,
  () => {
    let api: TestServer;
    let server: string;
    let http: Http;
    let sessions: SessionStore;
    let mentor: SignedIn;
    let started: Awaited<ReturnType<typeof startAuthoringServer>>;
    let receiver: Server;
    let base = '';
    let lrs: StandInLrs;
    const received: Received[] = [];
    /** The receiver's answer by path. */
    const status: Record<string, number> = { '/hr': 204, '/partner': 503 };
    let hr = { id: '', secret: '' };

    /** `waymark …` as the mentor (WAYMARK_TOKEN); output NDJSON unless --no-json. */
    const waymark = (args: string[], stdin?: string) =>
      runWaymark(['--server', server, ...args], {
        sessions,
        http,
        env: { WAYMARK_TOKEN: mentor.token },
        stdin,
      });
    const deliver = (id: string) => api.app.services.webhooks.deliverEndpoint(id);
    const verified = (secret: string, r: Received) =>
      new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { id: string; type: string };
    const seat = async () => {
      const learner = await api.signedIn('USER', { email: uniqueEmail('hooked'), profile: true });
      const res = await api.post(
        '/api/tenant/users/add-user-v2',
        { email: learner.account.email },
        mentor.auth,
      );
      expect(res.status, res.text).toBe(200);
    };

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const path = req.url ?? '/';
          received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(status[path] ?? 404).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      lrs = await startStandInLrs();
      started = await startAuthoringServer('waymark-cli-integrations-');
      ({ api, server, http, sessions } = started);
      mentor = await api.signedIn('TENANT', { name: 'Hana Hooks', profile: true });
    }, 120_000);

    afterAll(async () => {
      await started?.close();
      await lrs?.close();
      await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    });

    it('adds an endpoint with its secret printed once, names a bad option, and lists it without the secret', async () => {
      const added = await waymark(['webhooks', 'add', `${base}/hr`, '--events', 'seat.added', '--no-json']);
      expect(added.code, added.err).toBe(0);
      const secret = added.out.trim();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(added.err).toMatch(
        /receives seat\.added\. The line above is its signing secret: .*shown only once/,
      );
      const partner = await waymark(['webhooks', 'add', `${base}/partner`, '--events', 'all', '--json']);
      expect(partner.code, partner.err).toBe(0);
      expect(partner.events[0]).toMatchObject({ event: 'created', url: `${base}/partner`, status: 'ACTIVE' });
      expect(partner.events[0].events).toContain('award.issued');

      const badUrl = await waymark(['webhooks', 'add', 'ftp://hr.example.com/x', '--events', 'seat.added']);
      // refused by the server (400: exit code 7), saying why and which address
      expect(badUrl.code).toBe(7);
      expect(badUrl.err).toContain('only https addresses are read (ftp://hr.example.com/x)');
      const badEvent = await waymark(['webhooks', 'add', `${base}/hr`, '--events', 'seat.sold']);
      expect(badEvent.code).toBe(2);
      expect(badEvent.err).toMatch(/--events: /);

      const list = await waymark(['webhooks', 'list', '--json']);
      expect(list.code, list.err).toBe(0);
      expect(list.events.map((e) => e.url).sort()).toEqual([`${base}/hr`, `${base}/partner`]);
      expect(list.out).not.toContain(secret.slice(6));
      hr = { id: list.events.find((e) => e.url === `${base}/hr`)._id, secret };
      const lines = (await waymark(['webhooks', 'list', '--no-json'])).out.trim().split('\n');
      expect(lines).toContain(`${base}/hr\tseat.added\tactive\t—\t${hr.id}`);
    });

    it('sends a test event that arrives signed, shows the deliveries, and redelivers one with the same id', async () => {
      const test = await waymark(['webhooks', 'test', `${base}/hr`, '--json']);
      expect(test.code, test.err).toBe(0);
      expect(test.events[0]).toMatchObject({ event: 'test' });
      const eventId = test.events[0].eventId as string;
      expect(await deliver(hr.id)).toEqual({ delivered: 1, failed: 0 });
      const [got] = received.filter((r) => r.path === '/hr');
      expect(verified(hr.secret, got!)).toMatchObject({ id: eventId, type: 'webhook.test' });
      expect(got!.headers['webhook-id']).toBe(eventId);

      const shown = await waymark(['webhooks', 'deliveries', hr.id, '--json']);
      expect(shown.code, shown.err).toBe(0);
      expect(shown.events).toHaveLength(1);
      expect(shown.events[0]).toMatchObject({
        eventType: 'webhook.test',
        status: 'DELIVERED',
        attempts: 1,
        responseStatus: 204,
      });
      const table = await waymark(['webhooks', 'deliveries', `${base}/hr`, '--no-json']);
      expect(table.out).toMatch(/^webhook\.test\tdelivered\t.+\t1\t204\t\d+\t\t[0-9a-f-]{36}$/m);
      const badStatus = await waymark(['webhooks', 'deliveries', hr.id, '--status', 'lost']);
      expect(badStatus.code).toBe(2);
      expect(badStatus.err).toMatch(/--status: must be one of pending, sending, delivered, failed/);

      const again = await waymark([
        'webhooks',
        'redeliver',
        hr.id,
        '--delivery',
        shown.events[0]._id,
        '--no-json',
      ]);
      expect(again.code, again.err).toBe(0);
      expect(again.out).toContain(`The webhook.test delivery is sent again to ${base}/hr.`);
      await deliver(hr.id);
      const both = received.filter((r) => r.path === '/hr');
      expect(both).toHaveLength(2);
      expect(verified(hr.secret, both[1]!).id).toBe(eventId);
    });

    it('redelivers the failed deliveries of a period once the endpoint works again', async () => {
      const paused = await waymark(['webhooks', 'pause', `${base}/partner`, '--no-json']);
      expect(paused.out).toContain(`${base}/partner is paused`);
      await seat();
      const failed = await waymark([
        'webhooks',
        'deliveries',
        `${base}/partner`,
        '--status',
        'failed',
        '--json',
      ]);
      expect(failed.events.map((d) => d.eventType)).toEqual(['seat.added']);
      const usage = await waymark(['webhooks', 'redeliver', `${base}/partner`]);
      expect(usage.code).toBe(2);
      expect(usage.err).toMatch(/Name one delivery \(--delivery <id>\) or a period/);

      expect((await waymark(['webhooks', 'enable', `${base}/partner`, '--no-json'])).out).toContain(
        'is enabled',
      );
      status['/partner'] = 200;
      const redone = await waymark([
        'webhooks',
        'redeliver',
        `${base}/partner`,
        '--failed-since',
        '24',
        '--json',
      ]);
      expect(redone.code, redone.err).toBe(0);
      expect(redone.events[0]).toEqual({ event: 'redelivered', count: 1 });
      const listed = await waymark(['webhooks', 'list', '--json']);
      const partnerId = listed.events.find((e) => e.url === `${base}/partner`)._id as string;
      expect(await deliver(partnerId)).toEqual({ delivered: 1, failed: 0 });
      const done = await waymark(['webhooks', 'deliveries', `${base}/partner`, '--json']);
      expect(done.events[0]).toMatchObject({
        eventType: 'seat.added',
        status: 'DELIVERED',
        responseStatus: 200,
      });
    });

    it('removes an endpoint after --yes, and nothing more is sent to it', async () => {
      const unconfirmed = await waymark(['webhooks', 'remove', `${base}/hr`]);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.err).toMatch(/needs confirmation/);
      const removed = await waymark(['webhooks', 'remove', `${base}/hr`, '--yes', '--no-json']);
      expect(removed.code, removed.err).toBe(0);
      expect(removed.out.trim()).toBe(`Removed ${base}/hr.`);
      const list = await waymark(['webhooks', 'list', '--json']);
      expect(list.events.map((e) => e.url)).toEqual([`${base}/partner`]);
      const before = received.filter((r) => r.path === '/hr').length;
      await seat();
      expect(await deliver(hr.id)).toEqual({ delivered: 0, failed: 0 });
      expect(received.filter((r) => r.path === '/hr')).toHaveLength(before);
      const gone = await waymark(['webhooks', 'deliveries', hr.id]);
      expect(gone.code).toBe(5);
      expect(gone.err).toContain(`${hr.id} is not one of your webhook endpoints.`);
    });

    it('connects an LRS with the secret piped, tests it, lists what was sent, resends and disconnects', async () => {
      const none = await waymark(['xapi', 'show', '--no-json']);
      expect(none.out).toMatch(/No learning record store is connected/);
      const connected = await waymark(
        ['xapi', 'connect', lrs.endpoint, '--key', lrs.username, '--send', 'roadmaps,awards', '--no-json'],
        `${lrs.password}\n`,
      );
      expect(connected.code, connected.err).toBe(0);
      expect(connected.out.trim()).toBe(
        `Connected: ${lrs.endpoint} receives roadmaps, awards, learners as account.`,
      );
      const test = await waymark(['xapi', 'test', '--json']);
      expect(test.code, test.err).toBe(0);
      expect(test.events[0]).toMatchObject({ ok: true, status: 200 });
      expect(lrs.stored.get(test.events[0].statementId)).toBeDefined();

      await api.db.transaction((tx) =>
        emitEvent(tx, {
          tenantId: mentor.user._id,
          type: 'roadmap.completed',
          data: EVENT_CATALOGUE['roadmap.completed'].versions[1].example,
        }),
      );
      expect(await api.app.services.xapi.sendTenant(mentor.user._id)).toEqual({ sent: 1, failed: 0 });
      const sent = await waymark(['xapi', 'statements', '--json']);
      expect(sent.code, sent.err).toBe(0);
      expect(sent.events).toHaveLength(1);
      expect(sent.events[0]).toMatchObject({
        eventType: 'roadmap.completed',
        status: 'SENT',
        responseStatus: 200,
      });
      const [statementId] = sent.events[0].statementIds as string[];
      expect(xapiProblems(lrs.stored.get(statementId!))).toEqual([]);
      const table = await waymark(['xapi', 'statements', '--no-json']);
      expect(table.out).toMatch(/^roadmap\.completed\t1\tsent\t.+\t1\t200\t$/m);
      const shown = await waymark(['xapi', 'show', '--no-json']);
      expect(shown.out).toContain(`Endpoint:\t${lrs.endpoint}`);
      expect(shown.out).toContain('Events:\t0 waiting, 1 sent, 0 failed');
      expect(shown.out).not.toContain(lrs.password);

      const resent = await waymark(['xapi', 'resend', '--no-json']);
      expect(resent.out.trim()).toBe('0 failed entries are sent again.');
      expect((await waymark(['xapi', 'disconnect'])).code).toBe(2);
      const disconnected = await waymark(['xapi', 'disconnect', '--yes', '--no-json']);
      expect(disconnected.out.trim()).toBe('The learning record store is disconnected.');
      expect((await waymark(['xapi', 'show', '--json'])).events).toEqual([]);
    });
  },
);
