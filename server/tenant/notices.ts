/**
 * Telling a mentor that someone their organisation sent could not get a seat (a directory's new user, a
 * first sign-in through the organisation's identity provider): one mail an hour at most per tenant and
 * kind, however many arrive, decided by one statement so processes sending at once send it once.
 */
import type { Translator } from '@shared/i18n/translator';
import { sql } from 'drizzle-orm';
import type { MailService } from '../adapters/mail';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';
import { translatorFor } from '../lib/i18n';

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
  const rows = rowsOf<{ email: string; name: string | null; language: string | null }>(
    await db.execute(sql`
      with due as (
        insert into tenant_notices as n (tenant_id, kind, last_sent_at)
        values (${input.tenantId}, ${`no-seat:${input.kind}`}, ${input.now.toISOString()}::timestamptz)
        on conflict (tenant_id, kind) do update set last_sent_at = excluded.last_sent_at
          where n.last_sent_at < excluded.last_sent_at - make_interval(secs => ${NOTICE_INTERVAL_MS / 1000})
        returning tenant_id)
      select u.email, u.name, u.language from users u join due on due.tenant_id = u.id`),
  );
  const tenant = rows[0];
  if (!tenant) return false;
  // in the mentor's own language (decision 040)
  await mail.send({
    to: tenant.email,
    kind: 'no-seat',
    ...noSeatMail(translatorFor(tenant.language), tenant, input),
  });
  return true;
}

/** The no-seat notice's subject and text in `translator`'s language. */
export function noSeatMail(
  { t }: Pick<Translator, 't'>,
  tenant: { name: string | null },
  input: { kind: 'scim' | 'sso'; who: string; publicUrl: string },
) {
  return {
    subject: t('mail.noSeat.subject'),
    text: t('mail.noSeat.text', {
      hasName: tenant.name ? 'yes' : 'no',
      name: tenant.name ?? '',
      kind: input.kind,
      who: input.who,
      portal: `${input.publicUrl}/portal/users`,
    }),
  };
}
