/**
 * How long an award stands (issue 30, decision 037): the validity periods of its test (awards/tables.ts), the
 * end of each award a learner earned of one test (shared/rules/validity.ts: a renewal passed while the last
 * award is valid runs on from its end), and what an award page says of it. The credential's validUntil, the
 * award page, the reminders and the renewal read this one computation.
 */
import { AWARD_EARNED_STATUSES } from '@shared/rules/test-status';
import { type ValidityPeriod, validityState, validUntilChain } from '@shared/rules/validity';
import type { AwardValidity } from '@shared/schemas/award';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type LinkRow, testLinks } from '../assessments/tables';
import type { Db } from '../db/client';
import { awardExpiries, awardValidityPeriods } from './tables';

/** The key of the platform's period for every subject test (SUBJECT_TEST_VALIDITY_MONTHS). */
export const SUBJECT_TESTS = 'SUBJECT:*';

/** The keys whose periods apply to a test: its own, and for a subject test the platform's. */
export const periodKeysOf = (testKey: string) =>
  testKey.startsWith('SUBJECT:') ? [testKey, SUBJECT_TESTS] : [testKey];

/** The validity periods of a test, oldest first. */
export async function periodsOf(db: Db, testKey: string): Promise<ValidityPeriod[]> {
  const rows = await db
    .select({ months: awardValidityPeriods.months, from: awardValidityPeriods.effectiveFrom })
    .from(awardValidityPeriods)
    .where(inArray(awardValidityPeriods.testKey, periodKeysOf(testKey)))
    .orderBy(asc(awardValidityPeriods.effectiveFrom));
  return rows;
}

/** The awards one learner earned of one test, in the order earned. */
async function earnedOf(db: Db, userId: string, testKey: string) {
  return db
    .select({
      id: testLinks.id,
      linkId: testLinks.linkId,
      completedAt: testLinks.completedAt,
      createdAt: testLinks.createdAt,
    })
    .from(testLinks)
    .where(
      and(
        eq(testLinks.userId, userId),
        eq(testLinks.testKey, testKey),
        eq(testLinks.isCompleted, true),
        inArray(testLinks.status, [...AWARD_EARNED_STATUSES]),
      ),
    )
    .orderBy(asc(sql`coalesce(${testLinks.completedAt}, ${testLinks.createdAt})`), asc(testLinks.linkId));
}

export interface AwardRecord {
  awardId: string;
  earnedAt: Date;
  validUntil: Date | null;
}

/**
 * Every award the link's learner earned of the link's test, with its end, oldest first; empty when the link
 * has no learner or test. An award is dated by its evaluation.
 */
export async function awardHistory(
  db: Db,
  link: Pick<LinkRow, 'userId' | 'testKey'>,
  periods?: ValidityPeriod[],
): Promise<AwardRecord[]> {
  if (!link.userId || !link.testKey) return [];
  const [ps, earned] = await Promise.all([
    periods ?? periodsOf(db, link.testKey),
    earnedOf(db, link.userId, link.testKey),
  ]);
  const dates = earned.map((e) => e.completedAt ?? e.createdAt);
  const ends = validUntilChain(ps, dates);
  return earned.map((e, i) => ({ awardId: e.linkId, earnedAt: dates[i]!, validUntil: ends[i]! }));
}

/** The end of one earned award (null: no end). */
export async function validUntilOf(
  db: Db,
  link: Pick<LinkRow, 'userId' | 'testKey' | 'linkId'>,
  periods?: ValidityPeriod[],
): Promise<Date | null> {
  if (!link.testKey) return null;
  const ps = periods ?? (await periodsOf(db, link.testKey));
  // a test that never had a period has no award with an end: no need to read the learner's awards
  if (!ps.some((p) => p.months !== null)) return null;
  const history = await awardHistory(db, link, ps);
  return history.find((h) => h.awardId === link.linkId)?.validUntil ?? null;
}

/** What an award page says of the award's validity; the renewal only to its learner. */
export async function awardValidity(
  db: Db,
  link: LinkRow,
  now: Date,
  isOwner: boolean,
): Promise<AwardValidity> {
  const history = link.testKey ? await awardHistory(db, link) : [];
  const mine = history.find((h) => h.awardId === link.linkId);
  const validUntil = mine?.validUntil ?? null;
  const state = validityState(validUntil, now);
  const later = history.filter((h) => h.earnedAt.getTime() > (mine?.earnedAt.getTime() ?? Infinity));
  let renewal: AwardValidity['renewal'] = null;
  if (isOwner && validUntil && later.length === 0 && (state === 'expiring' || state === 'expired')) {
    if (link.type === 'SUBJECT' && link.subjectId) {
      renewal = { kind: 'SUBJECT', subjectId: link.subjectId, lookingForJob: link.lookingForJob ?? 'NO' };
    } else {
      const [expiry] = await db
        .select({ renewal: awardExpiries.renewalLinkId })
        .from(awardExpiries)
        .where(eq(awardExpiries.awardId, link.linkId))
        .limit(1);
      renewal = { kind: 'ASSESSMENT', testLinkId: expiry?.renewal ?? null };
    }
  }
  return {
    validUntil: validUntil?.toISOString() ?? null,
    state,
    renewedBy: later[0]?.awardId ?? null,
    history: history.map((h) => ({
      awardId: h.awardId,
      earnedAt: h.earnedAt.toISOString(),
      validUntil: h.validUntil?.toISOString() ?? null,
    })),
    renewal,
  };
}
