/**
 * The cells of a test link row (learner §4 "Test link", mentor §4), drawn from the shared rules of
 * shared/rules/test-status.ts: the status (a label, 'Take Test' or the custom-test window, an award link),
 * the score, and 'View Answers' for the three statuses that have answers to show.
 */
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import {
  canViewAnswers,
  cellLabel,
  type LinkForDisplay,
  scoreDisplay,
  statusCell,
} from '@shared/rules/test-status';
import type { TestStatus } from '@shared/schemas/assessment';
import { useI18n } from '../core/i18n';
import { anchorLink, type RenderLink } from './links';
import { testPath } from './open-test';
import { RetakeNote } from './retake';

const STATUS_BADGES: Record<TestStatus, string> = {
  TAKE_TEST: 'badge-primary',
  EXPIRED: '',
  NO_ENOUGH_MARKS: 'badge-danger',
  GENERATE_CERTIFICATE: 'badge-warning',
  VIEW_CERTIFICATE: 'badge-success',
};

export interface StatusCellProps {
  link: LinkForDisplay;
  /** What was assessed, for the accessible names of the links. */
  name: string;
  renderLink?: RenderLink;
  /** Where Waymark's pages live ('' in the portal). */
  portalUrl?: string;
  now?: number;
  /**
   * Whether the viewer may open the test (the learner whose link it is). A mentor watching a learner sees
   * 'Take Test' as a status only: the link is the learner's capability, not theirs to use.
   */
  canTakeTest?: boolean;
}

/**
 * The Status column: a label, 'Take Test' (a new tab) or a custom test's window, or the award link; a failed
 * test still in its retake cool-down also says when it can be taken again.
 */
export function StatusCell({
  link,
  name,
  renderLink = anchorLink,
  portalUrl = '',
  now,
  canTakeTest = true,
}: StatusCellProps) {
  const i18n = useI18n();
  const { t } = i18n;
  const cell = statusCell(link, now);
  const label = cellLabel(cell, i18n);
  if (cell.kind === 'take-test') {
    if (!canTakeTest && !cell.disabled) {
      return <span className={`badge ${STATUS_BADGES[link.status]}`}>{label}</span>;
    }
    if (cell.disabled) {
      return (
        <span className="wm-status-window" data-window={cell.windowCode}>
          {label}
        </span>
      );
    }
    return (
      <a
        className="btn btn-small"
        href={testPath(link.linkId, portalUrl)}
        target="_blank"
        rel="noopener noreferrer"
      >
        {label}
        <span className="visually-hidden">
          {t('common.about', { name })} {t('common.opensInNewTab')}
        </span>
      </a>
    );
  }
  if (cell.kind === 'award') {
    return renderLink({
      href: `${portalUrl.replace(/\/$/, '')}${cell.href}`,
      className: 'btn btn-secondary btn-small',
      children: (
        <>
          {label}
          <span className="visually-hidden">{t('common.about', { name })}</span>
        </>
      ),
    });
  }
  if (cell.label === '-') return <span>-</span>;
  const badge = <span className={`badge ${STATUS_BADGES[link.status]}`}>{label}</span>;
  const at = link.retakeAt && Date.parse(link.retakeAt) > (now ?? Date.now()) ? link.retakeAt : null;
  if (!at) return badge;
  return (
    <span className="wm-status-stack">
      {badge}
      <RetakeNote opensAt={at} name={name} />
    </span>
  );
}

/** The Score column: the percentage rounded up, else the raw score, only once completed. */
export function ScoreCell({ link }: { link: Pick<LinkForDisplay, 'isCompleted' | 'percentage' | 'score'> }) {
  const shown = scoreDisplay(link);
  return shown === null ? <span className="muted">-</span> : <strong>{shown}</strong>;
}

/** The 'Completed in' column: the time taken, with at most its two largest units. */
export function DurationCell({ seconds }: { seconds: number | null | undefined }) {
  const { locale } = useI18n();
  if (seconds === null || seconds === undefined) return <span className="muted">-</span>;
  return <span title={spokenDuration(seconds, locale)}>{formatDuration(seconds, locale)}</span>;
}

export interface ViewAnswersCellProps {
  link: Pick<LinkForDisplay, 'status'>;
  name: string;
  href: string;
  renderLink?: RenderLink;
}

/** The Action column: 'View Answers' for VIEW_CERTIFICATE, NO_ENOUGH_MARKS and GENERATE_CERTIFICATE only. */
export function ViewAnswersCell({ link, name, href, renderLink = anchorLink }: ViewAnswersCellProps) {
  const { t } = useI18n();
  if (!canViewAnswers(link.status)) return <span className="muted">-</span>;
  return renderLink({
    href,
    className: 'btn btn-link',
    children: (
      <>
        {t('test.viewAnswers')}
        <span className="visually-hidden">{t('common.about', { name })}</span>
      </>
    ),
  });
}
