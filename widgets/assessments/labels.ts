/**
 * What a test link assessed, as the tables name it (learner §2 'Subject' column): the resource, section,
 * roadmap or subject by the link's type, with the roadmap (and section) it belongs to as context.
 */
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import type { TestLink, TestType } from '@shared/schemas/assessment';

type T = Translator['t'];

/** The level of a test, as the tables name it (message keys). */
export const TEST_TYPE_LABELS: Record<TestType, MessageKey> = {
  SUBJECT: 'links.level.subject',
  ROADMAP: 'links.level.final',
  SECTION: 'links.level.section',
  RESOURCE: 'links.level.resource',
  'RESOURCE-FROM-WHATSAPP': 'links.level.resource',
  'CUSTOM-TEST': 'links.level.custom',
  'INITIAL-ASSESSMENT': 'links.level.prerequisite',
};

export type NamedLink = Pick<
  TestLink,
  | 'type'
  | 'subject'
  | 'testId'
  | 'assignedSubjectName'
  | 'assignedRoadMapName'
  | 'assignedSectionName'
  | 'assignedResourceName'
>;

const first = (...names: (string | null | undefined)[]) => names.find((n) => n?.trim()) ?? null;

/** The name of what was assessed: the resource, the section, the roadmap, the subject or the custom test. */
export function assessedName(link: NamedLink, t: T): string {
  const subject = first(link.assignedSubjectName, link.subject?.name);
  switch (link.type) {
    case 'RESOURCE':
    case 'RESOURCE-FROM-WHATSAPP':
      return (
        first(link.assignedResourceName, link.assignedSectionName, link.assignedRoadMapName) ??
        t('links.fallback.resource')
      );
    case 'SECTION':
      return first(link.assignedSectionName, link.assignedRoadMapName) ?? t('links.fallback.section');
    case 'ROADMAP':
    case 'INITIAL-ASSESSMENT':
      return first(link.assignedRoadMapName, subject) ?? t('links.fallback.roadmap');
    case 'SUBJECT':
      return subject ?? t('links.fallback.subject');
    case 'CUSTOM-TEST':
      return first(link.testId?.name, subject) ?? t('links.fallback.assessment');
  }
}

/** 'Attempt 2': which attempt of its test a link is (learners' and mentors' tables, the answers view). */
export const attemptLabel = (attempt: number, t: T) => t('links.attempt', { attempt });

/**
 * The level and where it sits: 'Resource · JavaScript Foundations › Basics', 'Final · SQL Essentials'; with
 * the attempt once started ('Section · SQL Essentials · Attempt 2').
 */
export function assessedContext(link: NamedLink & { attempt?: number | null }, t: T): string {
  const where = placeOf(link, t);
  return link.attempt ? `${where} · ${attemptLabel(link.attempt, t)}` : where;
}

function placeOf(link: NamedLink, t: T): string {
  const level = t(TEST_TYPE_LABELS[link.type]);
  const roadmap = link.assignedRoadMapName?.trim();
  const section = link.assignedSectionName?.trim();
  switch (link.type) {
    case 'RESOURCE':
    case 'RESOURCE-FROM-WHATSAPP':
      return [level, [roadmap, section].filter(Boolean).join(' › ')].filter(Boolean).join(' · ');
    case 'SECTION':
      return [level, roadmap].filter(Boolean).join(' · ');
    default:
      return level;
  }
}
