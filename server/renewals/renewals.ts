/**
 * Certificates that expire, kept current (issue 30, decision 037): a mentor's assessment's validity period,
 * the platform's period for subject tests (SUBJECT_TEST_VALIDITY_MONTHS, recorded when a server first starts
 * with it), the renewal test of a certificate, and the reminders — each sent once, 30 days before the end,
 * whatever the number of processes: the job claims an award's `reminded_at` in the statement that picks it.
 */

import { achievementIn } from '@shared/rules/award';
import { formatDate } from '@shared/rules/format-date';
import { AWARD_EARNED_STATUSES } from '@shared/rules/test-status';
import { REMINDER_DAYS, validityState } from '@shared/rules/validity';
import { and, desc, eq, param, sql } from 'drizzle-orm';
import type { MailService } from '../adapters/mail';
import { findLink } from '../assessments/engine/link-life';
import { type LinkRow, testLinks } from '../assessments/tables';
import { createCustomLinks, publishedQuestionIds } from '../authoring/access';
import { tenantAssessments } from '../authoring/tables';
import { awardExpiries, awardValidityPeriods } from '../awards/tables';
import { SUBJECT_TESTS, validUntilOf } from '../awards/validity';
import type { Db } from '../db/client';
import { inTx, rowsOf } from '../db/helpers';
import { users } from '../db/schema';
import { translatorFor } from '../lib/i18n';
import { questionOptions } from '../questions/tables';

/** A renewal test stays open this long after the certificate's end. */
export const RENEWAL_GRACE_DAYS = 30;
/** Reminders claimed by one run of the job. */
const REMINDER_BATCH = 100;

/** The periods set for one test key, oldest first. */
export function periodRows(db: Db, testKey: string) {
  return db
    .select({ months: awardValidityPeriods.months, from: awardValidityPeriods.effectiveFrom })
    .from(awardValidityPeriods)
    .where(eq(awardValidityPeriods.testKey, testKey))
    .orderBy(awardValidityPeriods.effectiveFrom);
}

/** Sets a test's period from now on (nothing when it is the period in force already); the periods after. */
export async function setPeriod(db: Db, testKey: string, months: number | null, setBy: string | null) {
  return inTx(db, async (tx) => {
    // one change at a time per test: two at once would both read the same latest period
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`validity:${testKey}`}))`);
    const rows = await periodRows(tx, testKey);
    const current = rows.length ? rows[rows.length - 1]!.months : null;
    if (current !== months) {
      await tx.insert(awardValidityPeriods).values({ testKey, months, setBy });
      return periodRows(tx, testKey);
    }
    return rows;
  });
}

/** Records the platform's period for subject tests when it differs from the one in force (at start). */
export async function syncSubjectPeriod(db: Db, months: number | null) {
  await setPeriod(db, SUBJECT_TESTS, months, null);
}

/** The learner's name and address, and what their award is of. */
async function learnerOf(db: Db, userId: string) {
  const [u] = await db
    .select({ name: users.name, email: users.email, language: users.language })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return u ?? null;
}

/**
 * The renewal test of a certificate from a mentor's assessment: the one made before while it can still be
 * taken, else a new custom test of the assessment's questions now, open from now until RENEWAL_GRACE_DAYS
 * after the certificate's end, with the time limit the certificate's test had. Null when the assessment is
 * gone or has no questions. One at a time per award (its expiry row is locked).
 */
export async function renewalLinkFor(
  db: Db,
  award: LinkRow,
  validUntil: Date,
  now: Date,
): Promise<string | null> {
  if (award.type !== 'CUSTOM-TEST' || !award.tenantAssessmentId || !award.userId) return null;
  const userId = award.userId;
  return inTx(db, async (tx) => {
    await tx
      .insert(awardExpiries)
      .values({
        awardId: award.linkId,
        testLinkId: award.id,
        userId,
        testKey: award.testKey ?? `CUSTOM-TEST:${award.tenantAssessmentId}`,
        earnedAt: award.completedAt ?? award.createdAt,
        validUntil,
      })
      .onConflictDoNothing();
    const [expiry] = await tx
      .select()
      .from(awardExpiries)
      .where(eq(awardExpiries.awardId, award.linkId))
      .for('update')
      .limit(1);
    if (expiry?.renewalLinkId) {
      const made = await findLink(tx, expiry.renewalLinkId);
      // still to be taken: the same link again (a failed one gives way to a new one)
      if (made && !made.isCompleted && made.status === 'TAKE_TEST') return made.linkId;
    }
    const [assessment] = await tx
      .select({ id: tenantAssessments.id, name: tenantAssessments.name })
      .from(tenantAssessments)
      .where(eq(tenantAssessments.id, award.tenantAssessmentId!))
      .limit(1);
    if (!assessment) return null;
    const ids = await publishedQuestionIds(tx, assessment.id);
    if (ids.length === 0) return null;
    const options = await tx
      .select({ q: questionOptions.questionId, id: questionOptions.id })
      .from(questionOptions)
      .where(sql`${questionOptions.questionId} = any(${param(ids)}::uuid[])`)
      .orderBy(questionOptions.position);
    const optionIds = new Map<string, string[]>();
    for (const o of options) optionIds.set(o.q, [...(optionIds.get(o.q) ?? []), o.id]);
    const closes = validUntil.getTime() + RENEWAL_GRACE_DAYS * 86_400_000;
    const [link] = await createCustomLinks(tx, {
      assessment,
      questions: ids.map((id) => ({ id, optionIds: optionIds.get(id) ?? [] })),
      learnerIds: [userId],
      start: now,
      durationHours: Math.max(1, Math.ceil((closes - now.getTime()) / 3_600_000)),
      timeLimitMinutes: award.timeLimitMinutes,
    });
    await tx
      .update(awardExpiries)
      .set({ renewalLinkId: link!.linkId })
      .where(eq(awardExpiries.awardId, award.linkId));
    return link!.linkId;
  });
}

/** Awards with an end within REMINDER_DAYS, not reminded and not renewed since: claimed, in one statement. */
async function claimDue(db: Db, now: Date) {
  const horizon = new Date(now.getTime() + REMINDER_DAYS * 86_400_000);
  return rowsOf<{ awardId: string; validUntil: string | Date }>(
    await db.execute(sql`
      update ${awardExpiries} e set reminded_at = ${now.toISOString()}::timestamptz
      where e.award_id in (
        select x.award_id from ${awardExpiries} x
        where x.reminded_at is null and x.valid_until > ${now.toISOString()}::timestamptz
          and x.valid_until <= ${horizon.toISOString()}::timestamptz
          and not exists (
            select 1 from ${testLinks} l
            where l.user_id = x.user_id and l.test_key = x.test_key and l.is_completed
              and l.status in (${sql.join(
                AWARD_EARNED_STATUSES.map((s) => sql`${s}`),
                sql`, `,
              )})
              and coalesce(l.completed_at, l.created_at) > x.earned_at)
        order by x.valid_until
        limit ${REMINDER_BATCH}
        for update skip locked)
        and e.reminded_at is null
      returning e.award_id as "awardId", e.valid_until as "validUntil"`),
  );
}

/**
 * The reminder job: claims the awards due a reminder, makes a custom test's renewal test, and mails each
 * learner once. A message that cannot be written gives its claim back, to be tried at the next run.
 */
export async function sendReminders(
  db: Db,
  mail: MailService,
  publicUrl: string,
  now: Date,
): Promise<{ reminded: number; failed: number }> {
  let reminded = 0;
  let failed = 0;
  for (;;) {
    const due = await claimDue(db, now);
    if (due.length === 0) break;
    for (const row of due) {
      try {
        const sent = await remind(db, mail, publicUrl, row.awardId, new Date(row.validUntil), now);
        if (sent) reminded++;
      } catch {
        failed++;
        await db
          .update(awardExpiries)
          .set({ remindedAt: null })
          .where(eq(awardExpiries.awardId, row.awardId));
      }
    }
    if (due.length < REMINDER_BATCH || failed > 0) break;
  }
  return { reminded, failed };
}

async function remind(
  db: Db,
  mail: MailService,
  publicUrl: string,
  awardId: string,
  validUntil: Date,
  now: Date,
) {
  const award = await findLink(db, awardId);
  if (!award?.userId) return false;
  const learner = await learnerOf(db, award.userId);
  if (!learner) return false;
  // in the learner's own language (decision 040), the date as that language writes it
  const { t, locale } = translatorFor(learner.language);
  const what = achievementIn(
    {
      type: award.type,
      assignedResourceName: award.assignedResourceName,
      assignedSectionName: award.assignedSectionName,
      assignedRoadMapName: award.assignedRoadMapName,
      subject: award.assignedSubjectName ? { name: award.assignedSubjectName } : null,
    },
    { t },
  );
  const page = `${publicUrl}/certificate/${encodeURIComponent(award.linkId)}`;
  // the renewal: a renewal test of the assessment, the mentor's when none can be made, or the subject's again
  let renewal: { renewal: 'test' | 'ask' | 'named' | 'other'; url: string; subject: string };
  if (award.type === 'CUSTOM-TEST') {
    const linkId = await renewalLinkFor(db, award, validUntil, now);
    renewal = linkId
      ? { renewal: 'test', url: `${publicUrl}/test/${encodeURIComponent(linkId)}`, subject: '' }
      : { renewal: 'ask', url: '', subject: '' };
  } else {
    const subject = award.assignedSubjectName;
    renewal = { renewal: subject ? 'named' : 'other', url: `${page}?renew=1`, subject: subject ?? '' };
  }
  await mail.send({
    to: learner.email,
    kind: 'certificate-expiry',
    subject: t('mail.renewal.subject', { what }),
    text: t('mail.renewal.text', {
      name: learner.name ?? '',
      what,
      state: validityState(validUntil, now) === 'expired' ? 'expired' : 'valid',
      day: formatDate(validUntil, 'UTC', locale),
      ...renewal,
      page,
    }),
  });
  return true;
}

/** The renewal of a certificate asked for from its page: its renewal test's link id. */
export async function renewFromPage(db: Db, award: LinkRow, now: Date) {
  const validUntil = await validUntilOf(db, award);
  const state = validityState(validUntil, now);
  if (!validUntil || (state !== 'expiring' && state !== 'expired')) return { due: false as const };
  const [later] = await db
    .select({ id: testLinks.id })
    .from(testLinks)
    .where(
      and(
        eq(testLinks.userId, award.userId!),
        eq(testLinks.testKey, award.testKey!),
        eq(testLinks.isCompleted, true),
        sql`${testLinks.status} in ('GENERATE_CERTIFICATE', 'VIEW_CERTIFICATE')`,
        sql`coalesce(${testLinks.completedAt}, ${testLinks.createdAt}) > ${(award.completedAt ?? award.createdAt).toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(testLinks.completedAt))
    .limit(1);
  if (later) return { due: false as const, renewed: true };
  return { due: true as const, linkId: await renewalLinkFor(db, award, validUntil, now) };
}
