/**
 * /what-was-tracked: what the extension recorded for the learner, and control over it — every span of
 * learning time by UTC day (resource, start, end, length, tab in front or media playing), deleting a span
 * or a whole day (the dashboard's and the mentor's figures follow at once), and the export of everything
 * as JSON or CSV.
 */
import {
  deleteTrackedDay,
  deleteTrackedSpan,
  exportActivity,
  type TrackedDay,
  type TrackedSpan,
  trackedDays,
} from '@shared/contract/activity';
import { formatDuration } from '@shared/rules/durations';
import { totalPages } from '@shared/rules/pager';
import { DurationCell } from '@widgets/assessments/cells';
import { client } from '@widgets/core/api';
import { downloadFile } from '@widgets/core/download';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { Pager } from '@widgets/ui/Pager';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import './tracked.css';
import { MONTH_NAMES } from '@shared/rules/format-date';
import { LoadFailed } from '@widgets/ui/LoadFailed';

export const TRACKED_TITLE = 'What was tracked';
const DAYS_PER_PAGE = 7;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** 'Tuesday 3 March 2026' of a 'YYYY-MM-DD' UTC day. */
export function longDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}
const clock = (isoTime: string) => isoTime.slice(11, 16);
const stretch = (s: TrackedSpan) =>
  s.timesKnown ? `${clock(s.start)}–${clock(s.end)} UTC` : 'Time of day not recorded';

type Pending = { kind: 'span'; span: TrackedSpan; day: string } | { kind: 'day'; day: TrackedDay };

function SpanRow({ span, day, onDelete }: { span: TrackedSpan; day: string; onDelete: () => void }) {
  return (
    <li className="tracked-span">
      <div className="tracked-span-main">
        <a href={span.resource.url} target="_blank" rel="noopener noreferrer" className="tracked-resource">
          {span.resource.title}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        <span className="tracked-when">{stretch(span)}</span>
      </div>
      <div className="tracked-span-meta">
        <span className="tracked-length">
          <DurationCell seconds={span.seconds} />
        </span>
        <span className={`badge ${span.tabActive ? 'badge-primary' : ''}`}>
          {span.tabActive ? 'Tab in front' : 'Media playing'}
        </span>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={onDelete}
          aria-label={`Delete ${formatDuration(span.seconds)} on ${span.resource.title}, ${stretch(span)}, ${longDay(day)}`}
        >
          Delete
        </button>
      </div>
    </li>
  );
}

export default function TrackedPage() {
  const ids = useId();
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [exporting, setExporting] = useState<'json' | 'csv' | null>(null);
  const list = useCall(
    (signal) =>
      client.call(trackedDays, { query: { skip: page, limit: DAYS_PER_PAGE }, signal }).then((r) => r.data),
    [page],
  );
  const pages = totalPages(list.data?.totalDays ?? 0, DAYS_PER_PAGE);
  useEffect(() => {
    // the last day of the last page was deleted: show the page before
    if (list.data && page > pages) setPage(pages);
  }, [list.data, page, pages]);
  useEffect(() => {
    document.title = `${TRACKED_TITLE} · Waymark`;
  }, []);

  const remove = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const res =
        pending.kind === 'span'
          ? await client.call(deleteTrackedSpan, { params: { id: pending.span._id } })
          : await client.call(deleteTrackedDay, { params: { day: pending.day.day } });
      toast(`Deleted ${formatDuration(res.data.seconds)} of ${longDay(res.data.day)}.`, { kind: 'success' });
      setPending(null);
      list.reload();
    } catch (err) {
      toast(messageOf(err, 'It could not be deleted. Please try again.'), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const download = async (format: 'json' | 'csv') => {
    setExporting(format);
    try {
      await downloadFile(client, exportActivity, { query: { format } }, `waymark-activity.${format}`);
    } catch (err) {
      toast(messageOf(err, 'The export could not be downloaded. Please try again.'), { kind: 'error' });
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="page tracked-page">
      <h1>{TRACKED_TITLE}</h1>
      <p>
        The Waymark extension records time only on the resources of your roadmaps. For each stretch it keeps
        the resource, when it began and ended, and whether its tab was in front or it only played media —
        nothing about other pages, and nothing in private windows. Days are UTC days, as on your{' '}
        <Link to="/dashboard">dashboard</Link>. Whatever you delete here leaves your dashboard and your
        mentor's figures at once. More in the <Link to="/privacy_policy">privacy policy</Link>.
      </p>

      <section className="card tracked-summary" aria-labelledby={`${ids}-all`}>
        <h2 id={`${ids}-all`}>All your activity</h2>
        {list.data ? (
          <p>
            {list.data.totalDays} {list.data.totalDays === 1 ? 'day' : 'days'} with learning,{' '}
            <DurationCell seconds={list.data.totalSeconds} /> in all.
          </p>
        ) : null}
        <div className="row">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void download('json')}
            disabled={exporting !== null}
          >
            {exporting === 'json' ? <Spinner /> : null} Download JSON
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void download('csv')}
            disabled={exporting !== null}
          >
            {exporting === 'csv' ? <Spinner /> : null} Download CSV
          </button>
        </div>
      </section>

      {list.error ? (
        <LoadFailed error={list.error} />
      ) : !list.data ? (
        <Loader />
      ) : list.data.days.length === 0 ? (
        <p className="empty">Nothing was tracked yet.</p>
      ) : (
        <>
          {list.data.days.map((d) => (
            <section key={d.day} className="card tracked-day" aria-labelledby={`${ids}-${d.day}`}>
              <div className="tracked-day-head">
                <h2 id={`${ids}-${d.day}`}>{longDay(d.day)}</h2>
                <span className="tracked-day-total">
                  <DurationCell seconds={d.seconds} />
                </span>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  onClick={() => setPending({ kind: 'day', day: d })}
                >
                  Delete this day<span className="visually-hidden">: {longDay(d.day)}</span>
                </button>
              </div>
              <ul className="tracked-spans">
                {d.spans.map((s) => (
                  <SpanRow
                    key={s._id}
                    span={s}
                    day={d.day}
                    onDelete={() => setPending({ kind: 'span', span: s, day: d.day })}
                  />
                ))}
              </ul>
            </section>
          ))}
          <Pager page={Math.min(page, pages)} totalPages={pages} onChange={setPage} label="Days pages" />
        </>
      )}

      <Dialog
        open={pending !== null}
        role="alertdialog"
        title={pending?.kind === 'day' ? 'Delete this day?' : 'Delete this stretch?'}
        onClose={() => setPending(null)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setPending(null)}>
              Cancel
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void remove()} disabled={busy}>
              {busy ? <Spinner /> : null} Delete
            </button>
          </>
        }
      >
        {pending ? (
          <p>
            {pending.kind === 'day'
              ? `All ${formatDuration(pending.day.seconds)} of ${longDay(pending.day.day)}`
              : `${formatDuration(pending.span.seconds)} on “${pending.span.resource.title}”, ${stretch(pending.span)}, ${longDay(pending.day)}`}{' '}
            will leave your dashboard and your mentor's figures now. It cannot be restored, and the extension
            cannot record that time again.
          </p>
        ) : null}
      </Dialog>
    </div>
  );
}
