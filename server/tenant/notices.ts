/**
 * Telling a mentor that someone their organisation sent could not get a seat (a directory's new user, a
 * first sign-in through the organisation's identity provider): one mail an hour at most per tenant and
 * kind, however many arrive, decided by one statement so processes sending at once send it once.
 */
import { sql } from 'drizzle-orm';
import type { MailService } from '../adapters/mail';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';

/** How often a tenant hears of the same trouble. */
export const NOTICE_INTERVAL_MS = 3_600_000;

/**
 * Mails the tenant that `who` could not be given a seat (at most once an hour per `kind`); true when the mail
 * went out now.
 */
export async function noticeNoSeat(
  db: Db,
  mail: MailService,
  input: { tenantId: string; kind: 'scim' | 'sso'; who: string; publicUrl: string; now: Date },
): Promise<boolean> {
  const rows = rowsOf<{ email: string; name: string | null }>(
    await db.execute(sql`
      with due as (
        insert into tenant_notices as n (tenant_id, kind, last_sent_at)
        values (${input.tenantId}, ${`no-seat:${input.kind}`}, ${input.now.toISOString()}::timestamptz)
        on conflict (tenant_id, kind) do update set last_sent_at = excluded.last_sent_at
          where n.last_sent_at < excluded.last_sent_at - make_interval(secs => ${NOTICE_INTERVAL_MS / 1000})
        returning tenant_id)
      select u.email, u.name from users u join due on due.tenant_id = u.id`),
  );
  const tenant = rows[0];
  if (!tenant) return false;
  const how =
    input.kind === 'scim'
      ? 'Your identity provider tried to provision'
      : "Someone signed in with your organisation's sign-in for the first time:";
  const portal = `${input.publicUrl}/portal/users`;
  await mail.send({
    to: tenant.email,
    kind: 'no-seat',
    subject: 'A learner is waiting for a seat on Waymark',
    text: [
      `Hello${tenant.name ? ` ${tenant.name}` : ''},`,
      '',
      `${how} ${input.who}, but every seat is taken, so they have no access yet.`,
      `Buy more seats (Pay Now on the Users page: ${portal}) or free one; ${
        input.kind === 'scim'
          ? 'your identity provider sends the user again on its next cycle'
          : 'they get a seat the next time they sign in'
      }.`,
      '',
      'We tell you this at most once an hour.',
    ].join('\n'),
  });
  return true;
}
