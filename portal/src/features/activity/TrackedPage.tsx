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
import { formatDuration, spokenDuration } from '@shared/rules/durations';
import { totalPages } from '@shared/rules/pager';
import { client } from '@widgets/core/api';
import { downloadFile } from '@widgets/core/download';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { Pager } from '@widgets/ui/Pager';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import './tracked.css';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { MONTH_NAMES } from '@shared/rules/format-date';
import { Rich, useI18n } from '@widgets/core/i18n';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { ConfirmDialog } from '../../components/ConfirmDialog';

export const TRACKED_TITLE = 'tracked.title' satisfies MessageKey;
const DAYS_PER_PAGE = 7;

/** 'Tuesday 3 March 2026' of a 'YYYY-MM-DD' UTC day, in the reader's language. */
export function longDay(day: string, locale = 'en'): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (locale === 'en' || locale.startsWith('en-')) {
    const weekday = new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(d);
    return `${weekday} ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  }
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(d);
}
const clock = (isoTime: string) => isoTime.slice(11, 16);
const stretch = (s: TrackedSpan, t: Translator['t']) =>
  s.timesKnown ? t('tracked.stretch', { from: clock(s.start), to: clock(s.end) }) : t('tracked.noTimes');

function Duration({ seconds }: { seconds: number }) {
  const { locale } = useI18n();
  return <span title={spokenDuration(seconds, locale)}>{formatDuration(seconds, locale)}</span>;
}

type Pending = { kind: 'span'; span: TrackedSpan; day: string } | { kind: 'day'; day: TrackedDay };

function SpanRow({ span, day, onDelete }: { span: TrackedSpan; day: string; onDelete: () => void }) {
  const { t, locale } = useI18n();
  return (
    <li className="tracked-span">
      <div className="tracked-span-main">
        <a href={span.resource.url} target="_blank" rel="noopener noreferrer" className="tracked-resource">
          {span.resource.title}
          <span className="visually-hidden"> {t('common.opensInNewTab')}</span>
        </a>
        <span className="tracked-when">{stretch(span, t)}</span>
      </div>
      <div className="tracked-span-meta">
        <span className="tracked-length">
          <Duration seconds={span.seconds} />
        </span>
        <span className={`badge ${span.tabActive ? 'badge-primary' : ''}`}>
          {span.tabActive ? t('tracked.tabInFront') : t('tracked.mediaPlaying')}
        </span>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={onDelete}
          aria-label={t('tracked.deleteSpanLabel', {
            time: formatDuration(span.seconds, locale),
            title: span.resource.title,
            when: stretch(span, t),
            day: longDay(day, locale),
          })}
        >
          {t('tracked.delete')}
        </button>
      </div>
    </li>
  );
}

export default function TrackedPage() {
  const ids = useId();
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<Pending | null>(null);
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
    document.title = `${t(TRACKED_TITLE)} · Waymark`;
  }, [t]);

  return (
    <div className="page tracked-page">
      <h1>{t(TRACKED_TITLE)}</h1>
      <p>
        <Rich
          k="tracked.intro"
          components={{ 0: <Link to="/dashboard" />, 1: <Link to="/privacy_policy" /> }}
        />
      </p>

      <TrackedSummary headingId={`${ids}-all`} totals={list.data} />

      {list.error ? (
        <LoadFailed error={list.error} />
      ) : !list.data ? (
        <Loader />
      ) : list.data.days.length === 0 ? (
        <p className="empty">{t('tracked.nothing')}</p>
      ) : (
        <>
          {list.data.days.map((d) => (
            <TrackedDaySection key={d.day} headingId={`${ids}-${d.day}`} day={d} onDelete={setPending} />
          ))}
          <Pager
            page={Math.min(page, pages)}
            totalPages={pages}
            onChange={setPage}
            label={t('tracked.pages')}
          />
        </>
      )}

      <DeleteTrackedDialog pending={pending} onClose={() => setPending(null)} onDeleted={list.reload} />
    </div>
  );
}

/** Everything recorded: its days and time, and the export of it all as JSON or CSV. */
function TrackedSummary({
  headingId,
  totals,
}: {
  headingId: string;
  totals: { totalDays: number; totalSeconds: number } | null;
}) {
  const { t, locale } = useI18n();
  const [exporting, setExporting] = useState<'json' | 'csv' | null>(null);

  const download = async (format: 'json' | 'csv') => {
    setExporting(format);
    try {
      await downloadFile(client, exportActivity, { query: { format } }, `waymark-activity.${format}`);
    } catch (err) {
      toast(messageOf(err, t('tracked.exportFailed')), { kind: 'error' });
    } finally {
      setExporting(null);
    }
  };

  return (
    <section className="card tracked-summary" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('tracked.all')}</h2>
      {totals ? (
        <p>
          {t('tracked.summary', {
            count: totals.totalDays,
            total: formatDuration(totals.totalSeconds, locale),
          })}
        </p>
      ) : null}
      <div className="row">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void download('json')}
          disabled={exporting !== null}
        >
          {exporting === 'json' ? <Spinner /> : null} {t('tracked.downloadJson')}
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void download('csv')}
          disabled={exporting !== null}
        >
          {exporting === 'csv' ? <Spinner /> : null} {t('common.downloadCsv')}
        </button>
      </div>
    </section>
  );
}

/** One UTC day: its total, its spans, and the buttons that delete the day or one span. */
function TrackedDaySection({
  headingId,
  day: d,
  onDelete,
}: {
  headingId: string;
  day: TrackedDay;
  onDelete: (pending: Pending) => void;
}) {
  const { t, locale } = useI18n();
  return (
    <section className="card tracked-day" aria-labelledby={headingId}>
      <div className="tracked-day-head">
        <h2 id={headingId}>{longDay(d.day, locale)}</h2>
        <span className="tracked-day-total">
          <Duration seconds={d.seconds} />
        </span>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => onDelete({ kind: 'day', day: d })}
        >
          {t('tracked.deleteDay')}
          <span className="visually-hidden">{t('common.about', { name: longDay(d.day, locale) })}</span>
        </button>
      </div>
      <ul className="tracked-spans">
        {d.spans.map((s) => (
          <SpanRow
            key={s._id}
            span={s}
            day={d.day}
            onDelete={() => onDelete({ kind: 'span', span: s, day: d.day })}
          />
        ))}
      </ul>
    </section>
  );
}

/** Asks before deleting a span or a day, then deletes it and says how much time went. */
function DeleteTrackedDialog({
  pending,
  onClose,
  onDeleted,
}: {
  pending: Pending | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t, locale } = useI18n();
  const remove = async () => {
    const res =
      pending!.kind === 'span'
        ? await client.call(deleteTrackedSpan, { params: { id: pending!.span._id } })
        : await client.call(deleteTrackedDay, { params: { day: pending!.day.day } });
    return res.data;
  };

  return (
    <ConfirmDialog
      open={pending !== null}
      title={pending?.kind === 'day' ? t('tracked.deleteDayQuestion') : t('tracked.deleteSpanQuestion')}
      action={t('tracked.delete')}
      run={remove}
      done={(data) =>
        t('tracked.deleted', { time: formatDuration(data.seconds, locale), day: longDay(data.day, locale) })
      }
      doneMs={6000}
      failed={t('tracked.deleteFailed')}
      onClose={onClose}
      onDone={() => {
        onClose();
        onDeleted();
      }}
    >
      {pending ? (
        <p>
          {pending.kind === 'day'
            ? t('tracked.confirmDay', {
                time: formatDuration(pending.day.seconds, locale),
                day: longDay(pending.day.day, locale),
              })
            : t('tracked.confirmSpan', {
                time: formatDuration(pending.span.seconds, locale),
                title: pending.span.resource.title,
                when: stretch(pending.span, t),
                day: longDay(pending.day, locale),
              })}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
