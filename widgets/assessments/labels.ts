/**
 * What a test link assessed, as the tables name it (learner §2 'Subject' column): the resource, section,
 * roadmap or subject by the link's type, with the roadmap (and section) it belongs to as context.
 */
import type { TestLink, TestType } from '@shared/schemas/assessment';

export const TEST_TYPE_LABELS: Record<TestType, string> = {
  SUBJECT: 'Subject',
  ROADMAP: 'Final',
  SECTION: 'Section',
  RESOURCE: 'Resource',
  'RESOURCE-FROM-WHATSAPP': 'Resource',
  'CUSTOM-TEST': 'Custom',
  'INITIAL-ASSESSMENT': 'Prerequisite',
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
export function assessedName(link: NamedLink): string {
  const subject = first(link.assignedSubjectName, link.subject?.name);
  switch (link.type) {
    case 'RESOURCE':
    case 'RESOURCE-FROM-WHATSAPP':
      return (
        first(link.assignedResourceName, link.assignedSectionName, link.assignedRoadMapName) ?? 'Resource'
      );
    case 'SECTION':
      return first(link.assignedSectionName, link.assignedRoadMapName) ?? 'Section';
    case 'ROADMAP':
    case 'INITIAL-ASSESSMENT':
      return first(link.assignedRoadMapName, subject) ?? 'Roadmap';
    case 'SUBJECT':
      return subject ?? 'Subject';
    case 'CUSTOM-TEST':
      return first(link.testId?.name, subject) ?? 'Assessment';
  }
}

/** 'Attempt 2': which attempt of its test a link is (learners' and mentors' tables, the answers view). */
export const attemptLabel = (attempt: number) => `Attempt ${attempt}`;

/**
 * The level and where it sits: 'Resource · JavaScript Foundations › Basics', 'Final · SQL Essentials'; with
 * the attempt once started ('Section · SQL Essentials · Attempt 2').
 */
export function assessedContext(link: NamedLink & { attempt?: number | null }): string {
  const where = placeOf(link);
  return link.attempt ? `${where} · ${attemptLabel(link.attempt)}` : where;
}

function placeOf(link: NamedLink): string {
  const level = TEST_TYPE_LABELS[link.type];
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
