/**
 * The job queue with more than one server process on the database (two apps with their own connections
 * on PostgreSQL; on PGlite, two apps on the one instance): periodic work scheduled once, mail delivered
 * once through a real SMTP server however many workers race for it, refused deliveries retried with
 * growing waits, and work waiting in the database picked up by a process started later.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAIL_QUEUE } from '../adapters/mail';
import { rowsOf } from '../db/helpers';
import { outbox } from '../db/schema';
import { TestServer } from '../test/helper';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink';
import { jobDefinitions } from './jobs';

let sink: SmtpSink;
let first: TestServer;
let second: Awaited<ReturnType<TestServer['anotherProcess']>>;

const contact = (app: FastifyInstance, subject: string) =>
  app.inject({
    method: 'POST',
    url: '/api/contact-us/send-email',
    payload: { name: 'Priya Nair', email: 'priya@example.com', subject, message: 'Hello there' },
  });

beforeAll(async () => {
  sink = await startSmtpSink();
  first = new TestServer({
    env: { JOB_WORKERS: 'true', SMTP_URL: sink.url, MAIL_RETRY_DELAY: '1', MAIL_RETRY_LIMIT: '4' },
  });
  await first.start();
  second = await first.anotherProcess();
}, 120_000);

afterAll(async () => {
  await second?.close();
  await first?.close();
  await sink?.close();
}, 60_000);

describe('the job queue with two server processes', () => {
  it('schedules each periodic job once, however many processes start', async () => {
    const rows = rowsOf<{ name: string; cron: string }>(
      await first.db.execute(sql`select name, cron from pgboss.schedule order by name`),
    );
    const periodic = jobDefinitions(first.app.services)
      .filter((d) => d.cron)
      .map((d) => ({ name: d.name, cron: d.cron }))
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(rows).toEqual(periodic);
    expect(periodic.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'accounts-purge-deleted',
        'activity-partitions',
        'assessments-link-sweep',
        'billing-seat-cycle',
      ]),
    );
  });

  it('delivers each message once, retrying refused deliveries with growing waits', async () => {
    sink.refuseFirst(2);
    const subjects = Array.from({ length: 6 }, (_, i) => `Once only ${i}`);
    const replies = await Promise.all(subjects.map((s, i) => contact(i % 2 ? second.app : first.app, s)));
    expect(replies.map((r) => r.statusCode)).toEqual(subjects.map(() => 200));

    const mine = () => sink.attempts.filter((a) => a.subject.startsWith('Contact: Once only'));
    await vi.waitFor(() => expect(mine().filter((a) => a.accepted)).toHaveLength(6), {
      timeout: 45_000,
      interval: 250,
    });
    // a little longer: nothing arrives twice
    await new Promise((r) => setTimeout(r, 1500));
    const accepted = mine().filter((a) => a.accepted);
    expect(new Set(accepted.map((a) => a.messageId)).size).toBe(6);
    expect(accepted.map((a) => a.subject.replace('Contact: ', '')).sort()).toEqual(subjects);

    for (const messageId of new Set(accepted.map((a) => a.messageId))) {
      const tries = mine().filter((a) => a.messageId === messageId);
      expect(tries.map((a) => a.accepted)).toEqual([false, false, true]);
      // pg-boss's exponential backoff: at least 1 s, then at least 2 s
      expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(950);
      expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(1950);
    }
    const ids = [...new Set(accepted.map((a) => /^<([^@]+)@/.exec(a.messageId)![1]!))];
    const rows = await first.db.select().from(outbox).where(inArray(outbox.id, ids));
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(ids.map(() => ['SENT', 3]));
    sink.refuseFirst(0);
  }, 90_000);

  it('lets one worker deliver a message two workers take at once', async () => {
    const [row] = await first.db
      .insert(outbox)
      .values({ to: 'race@example.com', subject: 'Race', text: 'Only once', kind: 'contact' })
      .returning();
    const outcomes = await Promise.allSettled([
      first.app.services.mail.deliver(row!.id),
      second.app.services.mail.deliver(row!.id),
    ]);
    const sent = outcomes.filter((o) => o.status === 'fulfilled' && o.value === 'sent');
    expect(sent).toHaveLength(1);
    const other = outcomes.find((o) => !(o.status === 'fulfilled' && o.value === 'sent'))!;
    // the other found it delivered, or in hand (its job is then retried and finds it delivered)
    if (other.status === 'fulfilled') expect(other.value).toBe('already-sent');
    else expect(String(other.reason)).toMatch(/being delivered by another worker/);
    expect(sink.accepted().filter((a) => a.subject === 'Race')).toHaveLength(1);
  });

  it('keeps a message waiting through a restart and delivers it from a process started later', async () => {
    sink.refuseAll(true);
    const res = await contact(second.app, 'Through a restart');
    expect(res.statusCode).toBe(200);
    const tried = () => sink.attempts.filter((a) => a.subject === 'Contact: Through a restart');
    await vi.waitFor(() => expect(tried().length).toBeGreaterThanOrEqual(1), { timeout: 20_000 });

    // every process stops; the message waits in the database with its retry
    await second.close();
    await first.app.close();
    sink.refuseAll(false);
    const [waiting] = await first.db
      .select()
      .from(outbox)
      .where(eq(outbox.subject, 'Contact: Through a restart'));
    expect(waiting!.status).toBe('FAILED');

    const later = await first.anotherProcess();
    try {
      await vi.waitFor(() => expect(tried().filter((a) => a.accepted)).toHaveLength(1), {
        timeout: 30_000,
        interval: 250,
      });
      const [row] = await first.db.select().from(outbox).where(eq(outbox.id, waiting!.id));
      expect(row!.status).toBe('SENT');
      const jobs = rowsOf<{ state: string }>(
        await first.db.execute(
          sql`select state from pgboss.job where name = ${MAIL_QUEUE} and singleton_key = ${waiting!.id}`,
        ),
      );
      expect(jobs.map((j) => j.state)).toEqual(['completed']);
    } finally {
      await later.close();
    }
  }, 90_000);
});
