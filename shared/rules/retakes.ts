/**
 * Retakes (docs/decisions/010): which links are attempts of the same test, when a failed
 * test may be taken again, and how that is said. Pure: the server decides with the same rules the portal
 * uses to say it before the learner asks.
 */

import { type LocalMessage, localMessage, type Speaker } from '../i18n/message';
import type { TestType } from '../schemas/assessment';
import { formatDateTime } from './format-date';

/** The tests a learner asks a link for, and so the ones a failure holds back for the cool-down. */
export const RETAKE_TYPES: readonly TestType[] = [
  'RESOURCE',
  'RESOURCE-FROM-WHATSAPP',
  'SECTION',
  'ROADMAP',
  'SUBJECT',
];

export const isRetakeLimited = (type: TestType) => RETAKE_TYPES.includes(type);

export interface TestTarget {
  type: TestType;
  resourceId?: string | null;
  sectionId?: string | null;
  roadmapId?: string | null;
  subjectId?: string | null;
  tenantAssessmentId?: string | null;
}

/**
 * Which test a link is an attempt of, whatever way it was asked for — a resource test from the roadmap page,
 * the dashboard or by the resource's id is the same test. The database computes the same key
 * (test_links.test_key, server/assessments/tables.ts).
 */
export function testKeyOf(t: TestTarget): string | null {
  const key = (kind: string, id: string | null | undefined) => (id ? `${kind}:${id}` : null);
  switch (t.type) {
    case 'RESOURCE':
    case 'RESOURCE-FROM-WHATSAPP':
      return key('RESOURCE', t.resourceId);
    case 'SECTION':
      return key('SECTION', t.sectionId);
    case 'ROADMAP':
      return key('ROADMAP', t.roadmapId);
    case 'SUBJECT':
      return key('SUBJECT', t.subjectId);
    case 'CUSTOM-TEST':
      return key('CUSTOM-TEST', t.tenantAssessmentId);
    case 'INITIAL-ASSESSMENT':
      return key('INITIAL-ASSESSMENT', t.roadmapId);
  }
}

/** When a retake of a failed attempt opens, or null when the attempt holds nothing back. */
export function retakeOpensAt(
  attempt: { type: TestType; status: string; completedAt: Date | null },
  cooldownMs: number,
): Date | null {
  if (!isRetakeLimited(attempt.type) || attempt.status !== 'NO_ENOUGH_MARKS' || !attempt.completedAt)
    return null;
  if (cooldownMs <= 0) return null;
  return new Date(attempt.completedAt.getTime() + cooldownMs);
}

/** The server's words (UTC, for any client): 'You can retake this test from 2026-11-25 10:30 UTC. …' */
export function retakeMessage(opensAt: Date): LocalMessage {
  const utc = `${opensAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  return localMessage('test.retakeFrom', { at: utc });
}

/**
 * The portal's words, in the reader's time zone: 'You can retake this test from 25th Nov 2026 10:30 am.
 * Meanwhile, …' (`timeZone` for tests).
 */
export function retakeNotice(opensAt: string | Date, speaker: Speaker, timeZone?: string): string {
  return speaker.t('test.retakeFrom', { at: formatDateTime(opensAt, timeZone, speaker.locale) });
}

/** Where the take-test action would be: 'Retake from 25th Nov 2026 10:30 am'. */
export function retakeLabel(opensAt: string | Date, speaker: Speaker, timeZone?: string): string {
  return speaker.t('test.retakeLabel', { at: formatDateTime(opensAt, timeZone, speaker.locale) });
}

/** What the portal knows of a link, to tell which test it is an attempt of. */
export interface ListedAttempt {
  type: TestType;
  status: string;
  resourceId: string | null;
  sectionId: string | null;
  assignedRoadmapId: string | null;
  subject: { _id: string } | null;
  retakeAt: string | null;
}

/**
 * When the learner can next ask for a link to this test, judging by the links they hold (the latest
 * `retakeAt` still to come), or null when they can now. The server decides; this says it beforehand.
 */
export function retakeOpensFor(
  links: readonly ListedAttempt[],
  target:
    | { type: 'RESOURCE'; resourceId: string }
    | { type: 'SECTION'; sectionId: string }
    | { type: 'ROADMAP'; assignedRoadmapId: string }
    | { type: 'SUBJECT'; subjectId: string },
  now = Date.now(),
): string | null {
  const same = (l: ListedAttempt) => {
    switch (target.type) {
      case 'RESOURCE':
        return (
          (l.type === 'RESOURCE' || l.type === 'RESOURCE-FROM-WHATSAPP') && l.resourceId === target.resourceId
        );
      case 'SECTION':
        return l.type === 'SECTION' && l.sectionId === target.sectionId;
      case 'ROADMAP':
        return l.type === 'ROADMAP' && l.assignedRoadmapId === target.assignedRoadmapId;
      case 'SUBJECT':
        return l.type === 'SUBJECT' && l.subject?._id === target.subjectId;
    }
  };
  let latest: string | null = null;
  for (const l of links) {
    if (!l.retakeAt || !same(l) || Date.parse(l.retakeAt) <= now) continue;
    if (!latest || Date.parse(l.retakeAt) > Date.parse(latest)) latest = l.retakeAt;
  }
  return latest;
}

/** When a refused new link opens, from the API's error (409 RETAKE_COOLDOWN with `opensAt`), else null. */
export function retakeOpensAtOf(err: unknown): string | null {
  const body = (err as { body?: { errorCode?: unknown; opensAt?: unknown } } | null)?.body;
  return body?.errorCode === 'RETAKE_COOLDOWN' && typeof body.opensAt === 'string' ? body.opensAt : null;
}
