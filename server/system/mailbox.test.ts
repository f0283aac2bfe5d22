/**
 * The local mailbox (GET /api/dev/mailbox and the /mailbox page) shows other people's mail, test links
 * included: it exists only in the embedded development setup (a demo-* Firebase project, NODE_ENV not
 * production, no SMTP_URL) and answers only a request made on this machine — from a loopback address, to a
 * loopback host name, not relayed by a proxy (a proxy on this machine connects from loopback for someone
 * else, whatever TRUST_PROXY says).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailTransport } from '../adapters/mail';
import { TEST_SIGNING_KEY } from '../credentials/test-keys';
import { outbox } from '../db/schema';
import { TestServer } from '../test/helper';

/** A test link in someone's mail: what a stranger must not read. */
const mailForAsha = (server: TestServer) =>
  server.db.insert(outbox).values({
    to: 'asha@example.com',
    subject: 'Your test link',
    text: 'Open http://127.0.0.1:8080/test/secret-link-id',
    kind: 'testlink',
  });

const local = { remoteAddress: '127.0.0.1', headers: { host: '127.0.0.1:8080' } };

describe('the local mailbox in the development setup', () => {
  for (const trustProxy of ['false', 'true']) {
    describe(`TRUST_PROXY=${trustProxy}`, () => {
      const server = new TestServer({ env: { TRUST_PROXY: trustProxy } });
      beforeAll(async () => {
        await server.start();
        await mailForAsha(server);
      }, 120_000);
      afterAll(() => server.close());

      const get = (
        opts: { remoteAddress: string; headers: Record<string, string> },
        url = '/api/dev/mailbox',
      ) =>
        server.app.inject({ method: 'GET', url, remoteAddress: opts.remoteAddress, headers: opts.headers });

      it('shows the mail to a request made on this machine', async () => {
        for (const host of ['127.0.0.1:8080', 'localhost:8080', '[::1]:8080', 'localhost']) {
          const res = await get({ remoteAddress: '127.0.0.1', headers: { host } });
          expect(res.statusCode, host).toBe(200);
          expect(res.json().data.map((m: { subject: string }) => m.subject)).toContain('Your test link');
        }
        expect((await get({ remoteAddress: '::1', headers: { host: '[::1]:8080' } })).statusCode).toBe(200);
        expect(
          (await get({ remoteAddress: '::ffff:127.0.0.1', headers: { host: 'localhost:8080' } })).statusCode,
        ).toBe(200);
        const config = await server.app.inject({ method: 'GET', url: '/api/config', ...local });
        expect(config.json().data.mailbox).toBe(true);
      });

      it('refuses a request from another machine, saying why, and hides the mailbox from its config', async () => {
        for (const remoteAddress of ['203.0.113.9', '10.0.0.5', '::ffff:192.168.1.20', '2001:db8::1']) {
          const res = await get({ remoteAddress, headers: { host: '127.0.0.1:8080' } });
          expect(res.statusCode, remoteAddress).toBe(403);
          expect(res.json().message).toBe('The local mailbox answers only requests made on this machine.');
          expect(res.body).not.toContain('secret-link-id');
          const config = await server.app.inject({
            method: 'GET',
            url: '/api/config',
            remoteAddress,
            headers: { host: '127.0.0.1:8080' },
          });
          expect(config.json().data.mailbox).toBe(false);
        }
      });

      it('refuses a request relayed by a proxy on this machine, whatever the forwarded address says', async () => {
        for (const [name, value] of [
          ['x-forwarded-for', '127.0.0.1'],
          ['x-forwarded-for', '203.0.113.9'],
          ['forwarded', 'for=127.0.0.1'],
          ['x-real-ip', '127.0.0.1'],
          ['via', '1.1 nginx'],
        ] as const) {
          const res = await get({
            remoteAddress: '127.0.0.1',
            headers: { host: '127.0.0.1:8080', [name]: value },
          });
          expect(res.statusCode, `${name}: ${value}`).toBe(403);
          expect(res.body).not.toContain('secret-link-id');
        }
      });

      it('refuses a loopback request for another host name (a rebound DNS name in a browser)', async () => {
        for (const host of ['attacker.example:8080', 'waymark.example.com', '127.0.0.1.nip.io']) {
          const res = await get({ remoteAddress: '127.0.0.1', headers: { host } });
          expect(res.statusCode, host).toBe(403);
        }
      });

      it('serves the /mailbox page only where the mailbox answers', async () => {
        const here = await server.app.inject({ method: 'GET', url: '/mailbox', ...local });
        expect(here.statusCode).toBe(200);
        const away = await server.app.inject({
          method: 'GET',
          url: '/mailbox',
          remoteAddress: '203.0.113.9',
          headers: { host: '127.0.0.1:8080' },
        });
        expect(away.statusCode).toBe(404);
      });
    });
  }
});

describe('the local mailbox outside the development setup', () => {
  const smtp: MailTransport = { name: 'smtp', deliver: async () => {} };
  const cases: [string, ConstructorParameters<typeof TestServer>[0]][] = [
    [
      'NODE_ENV=production',
      {
        env: {
          NODE_ENV: 'production',
          PAYMENTS_SANDBOX: 'true',
          MAIL_OUTBOX_ONLY: 'true',
          CREDENTIAL_SIGNING_KEY: TEST_SIGNING_KEY,
          INTEGRATIONS_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
        },
      },
    ],
    [
      'a real Firebase project',
      { env: { FIREBASE_PROJECT_ID: 'waymark-live', FIREBASE_AUTH_EMULATOR_HOST: undefined } },
    ],
    ['SMTP_URL set', { env: { SMTP_URL: 'smtp://127.0.0.1:2525' }, services: { mailTransport: smtp } }],
  ];
  for (const [name, options] of cases) {
    describe(name, () => {
      const server = new TestServer(options);
      beforeAll(async () => {
        await server.start();
        await mailForAsha(server);
      }, 120_000);
      afterAll(() => server.close());

      it('is a test server that never sheds load, whatever its NODE_ENV', () => {
        // production's defaults shed a request queued 500 ms: a busy CI machine's stall answered 503 here
        expect(server.config.shed).toMatchObject({ eventLoopDelayMs: 0, queueMs: 0, poolWaitMs: 0 });
      });

      it('has no mailbox, not even for a request made on this machine', async () => {
        const res = await server.app.inject({ method: 'GET', url: '/api/dev/mailbox', ...local });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('secret-link-id');
        const page = await server.app.inject({ method: 'GET', url: '/mailbox', ...local });
        expect(page.statusCode).toBe(404);
        const config = await server.app.inject({ method: 'GET', url: '/api/config', ...local });
        expect(config.json().data.mailbox).toBe(false);
      });
    });
  }
});
