/**
 * The mail adapter. Every message is written to the outbox table first, so nothing is lost. Without
 * SMTP_URL the outbox is the local mailbox that the /mailbox page shows. With it, the message is queued
 * together with a delivery job (in one transaction); the job, run by whichever server process takes it,
 * claims the row, hands the message to the SMTP server once, and is retried with exponential backoff when
 * delivery fails (MAIL_RETRY_LIMIT, MAIL_RETRY_DELAY).
 *
 * Never twice: a job is taken by one worker at a time, and the claim on the row (SENDING) keeps a second
 * worker off a message in hand. The one case left in doubt is a process that dies after the SMTP server
 * accepted the message but before the row says SENT: once the claim's lease has run out the message is
 * sent again with the same Message-ID, which lets mail systems drop the duplicate.
 */
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';
import type { JobQueue } from '../jobs/queue';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** What the mail is for: contact, invite, … */
  kind: string;
  /** The Message-ID header, the same on every attempt of one message. */
  messageId?: string;
}

export interface MailTransport {
  deliver(msg: MailMessage): Promise<void>;
  readonly name: 'smtp' | 'mailbox';
}

export function smtpTransport(url: string, from: string): MailTransport & { transporter: Transporter } {
  // a server that does not answer must not hold a delivery job past its lease
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  return {
    name: 'smtp',
    transporter,
    async deliver(msg) {
      await transporter.sendMail({
        from,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        html: msg.html,
        replyTo: msg.replyTo,
        messageId: msg.messageId,
      });
    },
  };
}

export const mailboxTransport: MailTransport = { name: 'mailbox', deliver: async () => {} };

/** The delivery queue: one job per message (its outbox id as the key, so one live job per message). */
export const MAIL_QUEUE = 'mail-deliver';
/** How long a claim keeps other workers off a message: longer than any SMTP conversation can last. */
export const CLAIM_LEASE_SECONDS = 300;

export interface MailRetry {
  /** Retries after the first attempt. */
  limit: number;
  /** Seconds before the first retry; each later one waits twice as long, up to an hour. */
  delaySeconds: number;
}

/** What one delivery attempt found. */
export type DeliveryOutcome = 'sent' | 'already-sent' | 'gone';

export class MailService {
  constructor(
    private readonly db: Db,
    readonly transport: MailTransport,
    private readonly log: { warn: (o: object, m: string) => void },
    private readonly jobs: JobQueue | null,
    readonly retry: MailRetry = { limit: 6, delaySeconds: 60 },
    /** The domain of Message-ID headers (MAIL_FROM's). */
    private readonly domain = 'waymark.local',
  ) {}

  /**
   * Records the message; with SMTP it is queued for delivery in the same transaction, so a message is
   * never queued without its job nor a job sent for a message that was not written.
   */
  async send(msg: MailMessage): Promise<{ id: string; delivered: boolean }> {
    const values = {
      to: msg.to,
      subject: msg.subject,
      text: msg.text,
      html: msg.html ?? null,
      replyTo: msg.replyTo ?? null,
      kind: msg.kind,
    };
    if (this.transport.name === 'mailbox' || !this.jobs) {
      // the local mailbox is where the message goes: it is there as soon as it is written
      const [row] = await this.db
        .insert(outbox)
        .values({ ...values, status: 'SENT', attempts: 1, sentAt: new Date() })
        .returning({ id: outbox.id });
      return { id: row!.id, delivered: true };
    }
    const jobs = this.jobs;
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx.insert(outbox).values(values).returning({ id: outbox.id });
      await jobs.send(
        MAIL_QUEUE,
        { outboxId: row!.id },
        { tx, singletonKey: row!.id, ...this.retryOptions() },
      );
      return row!.id;
    });
    return { id, delivered: false };
  }

  /** pg-boss's retry options for a delivery job. */
  retryOptions() {
    return {
      retryLimit: this.retry.limit,
      retryDelay: this.retry.delaySeconds,
      retryBackoff: true,
      retryDelayMax: 3600,
    };
  }

  /**
   * The delivery job: claims the message, hands it to the transport, records the outcome. Throws when the
   * transport failed (the queue retries the job later) or when another worker holds a fresh claim.
   */
  async deliver(outboxId: string): Promise<DeliveryOutcome> {
    const lease = sql`now() - make_interval(secs => ${CLAIM_LEASE_SECONDS})`;
    const [row] = await this.db
      .update(outbox)
      .set({ status: 'SENDING', attempts: sql`${outbox.attempts} + 1`, claimedAt: sql`now()` })
      .where(
        and(
          eq(outbox.id, outboxId),
          or(
            inArray(outbox.status, ['QUEUED', 'FAILED']),
            and(eq(outbox.status, 'SENDING'), lt(outbox.claimedAt, lease)),
          ),
        ),
      )
      .returning();
    if (!row) {
      const [now] = await this.db
        .select({ status: outbox.status })
        .from(outbox)
        .where(eq(outbox.id, outboxId));
      if (!now) return 'gone';
      if (now.status === 'SENT') return 'already-sent';
      throw new Error(`message ${outboxId} is being delivered by another worker`);
    }
    try {
      await this.transport.deliver({
        to: row.to,
        subject: row.subject,
        text: row.text,
        html: row.html ?? undefined,
        replyTo: row.replyTo ?? undefined,
        kind: row.kind,
        messageId: `<${row.id}@${this.domain}>`,
      });
    } catch (err) {
      const message = String((err as Error).message).slice(0, 500);
      this.log.warn({ err: message, to: row.to, attempt: row.attempts }, 'mail delivery failed');
      await this.db
        .update(outbox)
        .set({ status: 'FAILED', lastError: message, claimedAt: null })
        .where(and(eq(outbox.id, row.id), eq(outbox.status, 'SENDING')));
      throw err;
    }
    await this.db
      .update(outbox)
      .set({ status: 'SENT', sentAt: new Date(), lastError: null })
      .where(eq(outbox.id, row.id));
    return 'sent';
  }

  /**
   * Messages waiting for delivery without a live job (written before the queue existed, or whose job was
   * lost with a restored backup) get one; the queue's one-job-per-message key makes this safe to repeat.
   */
  async requeueStranded(): Promise<number> {
    if (this.transport.name === 'mailbox' || !this.jobs) return 0;
    const rows = await this.db
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          inArray(outbox.status, ['QUEUED', 'FAILED', 'SENDING']),
          lt(outbox.attempts, this.retry.limit + 1),
        ),
      )
      .limit(1000);
    let queued = 0;
    for (const { id } of rows) {
      const job = await this.jobs.send(
        MAIL_QUEUE,
        { outboxId: id },
        { singletonKey: id, ...this.retryOptions() },
      );
      if (job) queued++;
    }
    return queued;
  }
}
