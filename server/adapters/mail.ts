/**
 * The mail adapter. Every message is written to the outbox table first, so nothing is lost; with SMTP_URL
 * it is then delivered through nodemailer (failed deliveries are retried), without it the outbox is the
 * local mailbox that the /mailbox page shows.
 */
import { and, asc, eq, lt } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** What the mail is for: contact, invite, … */
  kind: string;
}

export interface MailTransport {
  deliver(msg: MailMessage): Promise<void>;
  readonly name: 'smtp' | 'mailbox';
}

export function smtpTransport(url: string, from: string): MailTransport & { transporter: Transporter } {
  const transporter = nodemailer.createTransport(url);
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
      });
    },
  };
}

export const mailboxTransport: MailTransport = { name: 'mailbox', deliver: async () => {} };

const MAX_ATTEMPTS = 5;

export class MailService {
  constructor(
    private readonly db: Db,
    readonly transport: MailTransport,
    private readonly log: { warn: (o: object, m: string) => void },
  ) {}

  /** Queues and tries to deliver at once; the outbox row is the record either way. */
  async send(msg: MailMessage): Promise<{ id: string; delivered: boolean }> {
    const [row] = await this.db
      .insert(outbox)
      .values({ to: msg.to, subject: msg.subject, text: msg.text, html: msg.html ?? null, kind: msg.kind })
      .returning({ id: outbox.id });
    const delivered = await this.attempt(row!.id, msg);
    return { id: row!.id, delivered };
  }

  private async attempt(id: string, msg: MailMessage): Promise<boolean> {
    try {
      await this.transport.deliver(msg);
      await this.db
        .update(outbox)
        .set({ status: 'SENT', sentAt: new Date(), attempts: 1 })
        .where(eq(outbox.id, id));
      return true;
    } catch (err) {
      this.log.warn({ err: (err as Error).message, to: msg.to }, 'mail delivery failed; it will be retried');
      await this.db
        .update(outbox)
        .set({ status: 'FAILED', attempts: 1, lastError: String((err as Error).message).slice(0, 500) })
        .where(eq(outbox.id, id));
      return false;
    }
  }

  /** Retries failed deliveries (run periodically). */
  async retryFailed(): Promise<number> {
    const rows = await this.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.status, 'FAILED'), lt(outbox.attempts, MAX_ATTEMPTS)))
      .orderBy(asc(outbox.createdAt))
      .limit(50);
    let sent = 0;
    for (const row of rows) {
      try {
        await this.transport.deliver({
          to: row.to,
          subject: row.subject,
          text: row.text,
          html: row.html ?? undefined,
          kind: row.kind,
        });
        await this.db
          .update(outbox)
          .set({ status: 'SENT', sentAt: new Date(), attempts: row.attempts + 1 })
          .where(eq(outbox.id, row.id));
        sent++;
      } catch (err) {
        await this.db
          .update(outbox)
          .set({ attempts: row.attempts + 1, lastError: String((err as Error).message).slice(0, 500) })
          .where(eq(outbox.id, row.id));
      }
    }
    return sent;
  }
}
