/**
 * The assessment links table (learner §2 'Your Assessment Links', mentor §2.5 assessment table): columns #,
 * Subject, Score, Created At, Completed in, Status, Action, with every rule of shared/rules/test-status.ts.
 * The learner's 'View Answers' goes to /assesments/{linkId}/view; a mentor passes `viewAnswersHref` for
 * /portal/users/{userId}/testlink/{linkId}.
 */
import { TEST_LINKS_REPORT } from '@shared/reports/columns';
import { formatDateTime } from '@shared/rules/format-date';
import { totalPages } from '@shared/rules/pager';
import { viewAnswersPath } from '@shared/rules/test-status';
import type { TestLink } from '@shared/schemas/assessment';
import { Pager } from '@widgets/ui/Pager';
import { useEffect, useState } from 'react';
import { DurationCell, ScoreCell, StatusCell, ViewAnswersCell } from './cells';
import { TierBadge } from './FocusRecord';
import { assessedContext, assessedName } from './labels';
import { anchorLink, type RenderLink } from './links';
import './assessments.css';
import { useI18n } from '../core/i18n';

export const LINKS_PAGE_SIZE = 10;

export interface TestLinksTableProps {
  links: readonly TestLink[];
  /** The table's caption, read by screen readers. */
  caption?: string;
  /** Where 'View Answers' goes; the learner's answers view by default. */
  viewAnswersHref?: (link: TestLink) => string;
  renderLink?: RenderLink;
  /** Where Waymark's pages live ('' in the portal). */
  portalUrl?: string;
  /** Rows per page; 0 shows every row. */
  pageSize?: number;
  /** The clock of the custom-test window (tests set it); the current time, re-read every minute, by default. */
  now?: number;
  /** False for a viewer who may not open the learner's tests (a mentor): 'Take Test' is then a status only. */
  canTakeTest?: boolean;
  /** Adds the 'Focus Record' column: the tier of each started test (the mentor's assessment table). */
  showFocusRecord?: boolean;
}

/** The current time, moved on every minute, so a custom test's window opens and closes on screen. */
function useMinuteClock(fixed?: number) {
  const [now, setNow] = useState(() => fixed ?? Date.now());
  useEffect(() => {
    if (fixed !== undefined) {
      setNow(fixed);
      return;
    }
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, [fixed]);
  return now;
}

export function TestLinksTable({
  links,
  caption,
  viewAnswersHref = (link) => viewAnswersPath(link.linkId),
  renderLink = anchorLink,
  portalUrl = '',
  pageSize = LINKS_PAGE_SIZE,
  now: fixedNow,
  canTakeTest = true,
  showFocusRecord = false,
}: TestLinksTableProps) {
  const { t, locale } = useI18n();
  caption ??= t('links.caption');
  const now = useMinuteClock(fixedNow);
  const [page, setPage] = useState(1);
  const pages = pageSize > 0 ? totalPages(links.length, pageSize) : 1;
  const current = Math.min(page, pages);
  const offset = pageSize > 0 ? (current - 1) * pageSize : 0;
  const shown = pageSize > 0 ? links.slice(offset, offset + pageSize) : links;
  return (
    <div className="wm-links">
      <div className="table-wrap">
        <table className="table wm-links-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t('column.subject')}</th>
              <th scope="col">{t('column.score')}</th>
              <th scope="col">{t('column.createdAt')}</th>
              <th scope="col">{t(TEST_LINKS_REPORT.completedIn.key)}</th>
              <th scope="col">{t('column.status')}</th>
              {showFocusRecord ? <th scope="col">{t(TEST_LINKS_REPORT.focus.key)}</th> : null}
              <th scope="col">{t('column.action')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((link, i) => {
              const name = assessedName(link, t);
              return (
                <tr key={link.linkId}>
                  <td data-label="#">{offset + i + 1}</td>
                  <th scope="row" className="wm-links-name" data-label={t('column.subject')}>
                    <span>{name}</span>
                    <span className="muted wm-links-context">{assessedContext(link, t)}</span>
                  </th>
                  <td data-label={t('column.score')}>
                    <ScoreCell link={link} />
                  </td>
                  <td className="wm-nowrap" data-label={t('column.createdAt')}>
                    {formatDateTime(link.createdAt, undefined, locale)}
                  </td>
                  <td className="wm-nowrap" data-label={t(TEST_LINKS_REPORT.completedIn.key)}>
                    <DurationCell seconds={link.isCompleted ? link.completedIn : null} />
                  </td>
                  <td data-label={t('column.status')}>
                    <StatusCell
                      link={link}
                      name={name}
                      renderLink={renderLink}
                      portalUrl={portalUrl}
                      now={now}
                      canTakeTest={canTakeTest}
                    />
                  </td>
                  {showFocusRecord ? (
                    <td data-label={t(TEST_LINKS_REPORT.focus.key)}>
                      <TierBadge summary={link.integrity} />
                    </td>
                  ) : null}
                  <td data-label={t('column.action')}>
                    <ViewAnswersCell
                      link={link}
                      name={name}
                      href={viewAnswersHref(link)}
                      renderLink={renderLink}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager page={current} totalPages={pages} onChange={setPage} label={t('links.pages', { caption })} />
    </div>
  );
}
