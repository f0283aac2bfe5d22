/**
 * How a test link shows in the tables (learner §4 "Test link", mentor §4): status labels, award links by
 * type, the score column, when 'View Answers' is offered, the custom-test window, and the award counts of
 * the progress page. Pure: the portal, the widgets, the CLI and the server read the same rules.
 */
import type { TestStatus, TestType } from '../schemas/assessment';
import type { AwardKind } from '../schemas/award';
import { formatDateTime } from './format-date';

export const STATUS_LABELS: Record<TestStatus, string> = {
  TAKE_TEST: 'Take Test',
  EXPIRED: 'Expired',
  NO_ENOUGH_MARKS: 'No Enough Marks',
  GENERATE_CERTIFICATE: 'Not Generated Yet',
  VIEW_CERTIFICATE: 'View Certificate',
};

/** Shown instead of a status for a test that earns no award once generated (e.g. RESOURCE-FROM-WHATSAPP). */
export const NO_AWARD_LABEL = '-';

/** The award a test type earns: feather (resource), badge (section), certificate (roadmap, subject, or a mentor's assessment). */
export function awardKindOf(type: TestType): AwardKind | null {
  switch (type) {
    case 'RESOURCE':
      return 'feather';
    case 'SECTION':
      return 'badge';
    case 'ROADMAP':
    case 'SUBJECT':
    // a mentor's assessment passed earns a certificate, which may expire (decision 037)
    case 'CUSTOM-TEST':
      return 'certificate';
    default:
      // RESOURCE-FROM-WHATSAPP and INITIAL-ASSESSMENT have no award page
      return null;
  }
}

/** The public award page of a link: /feather/{id}, /badge/{id} or /certificate/{id}; null when none. */
export function awardPath(type: TestType, linkId: string): string | null {
  const kind = awardKindOf(type);
  return kind ? `/${kind}/${encodeURIComponent(linkId)}` : null;
}

/** The custom test window (learner §4): 0 open, 1 not yet started, -1 over. */
export type WindowCode = 0 | 1 | -1;

export interface CustomWindow {
  code: WindowCode;
  label: string;
  /** The link can be followed only while the window is open. */
  disabled: boolean;
}

export const WINDOW_LABELS = {
  open: 'Take Test',
  before: (when: string) => `Assessment will Start at ${when}`,
  after: 'Link has expired',
} as const;

/**
 * Code 0 'Take Test' while now is within [start, start + duration hours]; 1 'Assessment will Start at
 * {date time}' before; -1 'Link has expired' after.
 */
export function customTestWindow(
  startTime: string | number | Date,
  durationHours: number,
  now: number | Date = Date.now(),
  timeZone?: string,
): CustomWindow {
  const start = new Date(startTime).getTime();
  const end = start + durationHours * 3600_000;
  const t = new Date(now).getTime();
  if (t < start) {
    return { code: 1, label: WINDOW_LABELS.before(formatDateTime(start, timeZone)), disabled: true };
  }
  if (t > end) return { code: -1, label: WINDOW_LABELS.after, disabled: true };
  return { code: 0, label: WINDOW_LABELS.open, disabled: false };
}

/** The fields of a test link the table rules read. */
export interface LinkForDisplay {
  linkId: string;
  type: TestType;
  status: TestStatus;
  isCompleted: boolean;
  percentage: number | null;
  score: number | null;
  startTime?: string | null;
  duration?: number | null;
  /** A failed test: when it can be taken again (the retake cool-down). */
  retakeAt?: string | null;
}

/** What the Status column shows: a plain label, an award link, or (custom tests) the window. */
export type StatusCell =
  | { kind: 'label'; label: string }
  | { kind: 'take-test'; label: string; href: string; disabled: boolean; windowCode?: WindowCode }
  | { kind: 'award'; label: string; href: string; award: AwardKind };

/** The Status cell of a test link (learner §4 "Test link"). */
export function statusCell(
  link: LinkForDisplay,
  now: number | Date = Date.now(),
  timeZone?: string,
): StatusCell {
  const href = `/test/${encodeURIComponent(link.linkId)}`;
  switch (link.status) {
    case 'TAKE_TEST': {
      if (link.type === 'CUSTOM-TEST' && link.startTime && link.duration != null) {
        const w = customTestWindow(link.startTime, link.duration, now, timeZone);
        return { kind: 'take-test', label: w.label, href, disabled: w.disabled, windowCode: w.code };
      }
      return { kind: 'take-test', label: STATUS_LABELS.TAKE_TEST, href, disabled: false };
    }
    case 'GENERATE_CERTIFICATE':
      return {
        kind: 'label',
        label: awardKindOf(link.type) ? STATUS_LABELS.GENERATE_CERTIFICATE : NO_AWARD_LABEL,
      };
    case 'VIEW_CERTIFICATE': {
      const award = awardKindOf(link.type);
      const path = awardPath(link.type, link.linkId);
      if (!award || !path) return { kind: 'label', label: NO_AWARD_LABEL };
      return { kind: 'award', label: AWARD_LINK_LABELS[award], href: path, award };
    }
    default:
      return { kind: 'label', label: STATUS_LABELS[link.status] };
  }
}

export const AWARD_LINK_LABELS: Record<AwardKind, string> = {
  feather: 'View Feather',
  badge: 'View Badge',
  certificate: 'View Certificate',
};

/**
 * The Score column: the percentage rounded up when it exists, else the raw score; only once completed.
 * Returns null when nothing is shown.
 */
export function scoreDisplay(
  link: Pick<LinkForDisplay, 'isCompleted' | 'percentage' | 'score'>,
): string | null {
  if (!link.isCompleted) return null;
  if (link.percentage !== null && link.percentage !== undefined) {
    // 2-decimal storage: 70.00000001 from float arithmetic must not round up to 71
    return `${Math.ceil(Math.round(link.percentage * 100) / 100)}%`;
  }
  if (link.score !== null && link.score !== undefined) return String(link.score);
  return null;
}

/** 'View Answers' is offered only for these statuses. */
export const VIEW_ANSWERS_STATUSES: readonly TestStatus[] = [
  'VIEW_CERTIFICATE',
  'NO_ENOUGH_MARKS',
  'GENERATE_CERTIFICATE',
];

export function canViewAnswers(status: TestStatus): boolean {
  return VIEW_ANSWERS_STATUSES.includes(status);
}

/** Where 'View Answers' goes: the learner's view, or the tenant's view of one learner. */
export function viewAnswersPath(linkId: string, tenantViewOf?: { userId: string }): string {
  const id = encodeURIComponent(linkId);
  return tenantViewOf
    ? `/portal/users/${encodeURIComponent(tenantViewOf.userId)}/testlink/${id}`
    : `/assesments/${id}/view`;
}

/** Statuses that count an award on the progress page (earned, whether or not the image exists yet). */
export const AWARD_EARNED_STATUSES: readonly TestStatus[] = ['VIEW_CERTIFICATE', 'GENERATE_CERTIFICATE'];

export function hasEarnedAward(link: Pick<LinkForDisplay, 'type' | 'status'>): boolean {
  return awardKindOf(link.type) !== null && AWARD_EARNED_STATUSES.includes(link.status);
}

export interface AwardCounts {
  /** Final (roadmap) and subject assessments. */
  certificates: number;
  /** Section assessments. */
  badges: number;
  /** Resource assessments. */
  feathers: number;
}

/**
 * The progress-page counters (learner §4, mentor §4): a certificate counts when the final assessment's
 * status is VIEW_CERTIFICATE or GENERATE_CERTIFICATE; likewise badges (section) and feathers (resource).
 */
export function awardCounts(links: readonly Pick<LinkForDisplay, 'type' | 'status'>[]): AwardCounts {
  const counts: AwardCounts = { certificates: 0, badges: 0, feathers: 0 };
  for (const link of links) {
    if (!hasEarnedAward(link)) continue;
    const kind = awardKindOf(link.type);
    if (kind === 'certificate') counts.certificates++;
    else if (kind === 'badge') counts.badges++;
    else if (kind === 'feather') counts.feathers++;
  }
  return counts;
}
