/**
 * The contact form (mentor §2.15, §5, §8): validation naming the field, the message in the outbox for the
 * local mailbox, 503 when it cannot be queued, and delivery through SMTP (nodemailer) to a local SMTP
 * server.
 */
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { smtpTransport } from '../adapters/mail';
import { outbox } from '../db/schema';
import { BACKENDS, type Harness, openHarness } from '../test/harness';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink';

const message = {
  name: 'Priya Nair',
  email: 'priya@example.com',
  subject: 'Certificate name\r\nBcc: everyone@example.com',
  message: 'My certificate shows my old name. Could you help?',
};

for (const backend of BACKENDS) {
  describe(`POST /contact-us/send-email on ${backend}`, () => {
    let h: Harness;

    beforeAll(async () => {
      h = await openHarness(backend, { env: { SUPPORT_EMAIL: 'help@waymark.test' } });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    });

    const send = (payload: object) =>
      h.app.inject({ method: 'POST', url: '/api/contact-us/send-email', payload });

    it('queues the message to the support address, replying to the sender, and thanks them', async () => {
      const res = await send(message);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: { ok: true },
        message: 'Thanks for contacting Us. We will get back to you in 24 hrs.',
      });
      const [mail] = await h.db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(1);
      expect(mail).toMatchObject({ to: 'help@waymark.test', kind: 'contact', status: 'SENT' });
      // one header line: the sender cannot add headers through the subject
      expect(mail!.subject).toBe('Contact: Certificate name Bcc: everyone@example.com');
      expect(mail!.text).toContain('From: Priya Nair <priya@example.com>');
      expect(mail!.text).toContain('My certificate shows my old name.');
    });

    it('refuses incomplete messages with the form’s messages, writing nothing', async () => {
      const before = (await h.db.select().from(outbox)).length;
      const cases: [object, string, string][] = [
        [{ ...message, name: ' ' }, 'name', 'Name is required'],
        [{ ...message, email: '' }, 'email', 'Required'],
        [{ ...message, email: 'priya@' }, 'email', 'Invalid email address'],
        [{ ...message, subject: '' }, 'subject', 'Subject is required'],
        [{ ...message, message: undefined }, 'message', 'Message is required'],
      ];
      for (const [payload, field, text] of cases) {
        const res = await send(payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().field).toBe(field);
        expect(res.json().fields[field]).toBe(text);
      }
      expect((await h.db.select().from(outbox)).length).toBe(before);
    });

    it('answers 503 with a clear message when the message cannot be queued', async () => {
      const mail = h.app.services.mail;
      const original = mail.send;
      mail.send = async () => {
        throw new Error('relation "outbox" is unavailable');
      };
      try {
        const res = await send(message);
        expect(res.statusCode).toBe(503);
        expect(res.json().message).toBe(
          'Your message could not be sent right now. Please try again in a few minutes, or write to help@waymark.test.',
        );
        expect(res.body).not.toContain('outbox');
      } finally {
        mail.send = original;
      }
    });
  });
}

describe('contact mail through SMTP', () => {
  let h: Harness;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    h = await openHarness(undefined, {
      // delivery is a job: this process runs the workers
      env: { SUPPORT_EMAIL: 'help@waymark.test', JOB_WORKERS: 'true' },
      services: { mailTransport: smtpTransport(sink.url, 'Waymark <no-reply@waymark.test>') },
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await sink?.close();
  });

  it('delivers the message to the support address with the sender as Reply-To', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/contact-us/send-email', payload: message });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(() => expect(sink.accepted()).toHaveLength(1), { timeout: 15_000, interval: 100 });
    const [mail] = sink.accepted();
    expect(mail!.from).toBe('no-reply@waymark.test');
    expect(mail!.to).toEqual(['help@waymark.test']);
    expect(mail!.raw).toMatch(/^Reply-To: priya@example\.com\r?$/m);
    expect(mail!.raw).toMatch(/^Subject: Contact: Certificate name Bcc: everyone@example\.com\r?$/m);
    const [headers, ...rest] = mail!.raw.split(/\r?\n\r?\n/);
    expect(headers).not.toMatch(/^Bcc:/m);
    // the body, quoted-printable soft line breaks undone
    expect(rest.join('\n').replace(/=\r?\n/g, '')).toContain(
      'My certificate shows my old name. Could you help?',
    );
    // one Message-ID for every attempt of this message, so a mail system can drop a duplicate
    const [row] = await h.db.select().from(outbox).where(eq(outbox.kind, 'contact'));
    expect(mail!.raw).toMatch(new RegExp(`^Message-ID: <${row!.id}@[a-z.]+>\r?$`, 'mi'));
    await vi.waitFor(
      async () => {
        const [now] = await h.db.select().from(outbox).where(eq(outbox.kind, 'contact'));
        expect(now!.status).toBe('SENT');
      },
      { timeout: 5_000 },
    );
  });
});
