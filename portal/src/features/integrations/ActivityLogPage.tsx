/**
 * /portal/integrations/activity-log (issue 28 item 4): the tenant's audit log, newest first — when, who (a
 * person, an API key, …), what, and from where — filtered by kind of change, kind of actor and days,
 * read on with Load more, and downloaded as CSV with the same filters.
 */
import { auditLog, exportAuditLog } from '@shared/contract/integrations';
import { formatDateTime } from '@shared/rules/format-date';
import {
  ACTOR_KINDS,
  ACTOR_LABELS,
  type ActorKind,
  AUDIT_ACTION_GROUPS,
  type AuditEntry,
} from '@shared/schemas/integrations';
import { client } from '@widgets/core/api';
import { downloadFile } from '@widgets/core/download';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { type FormEvent, useState } from 'react';
import { INTEGRATIONS_COPY as COPY } from './copy';

interface Filter {
  action?: string;
  actorKind?: ActorKind;
  from?: string;
  to?: string;
}

/** A day picked in the form (local time) as the filter's bound: its start, or the next day's for `to`. */
const dayBound = (day: string, next = false) => {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (next) d.setDate(d.getDate() + 1);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
};

const columns: Column<AuditEntry>[] = [
  { header: 'Time', cell: (e) => <time dateTime={e.occurredAt}>{formatDateTime(e.occurredAt)}</time> },
  {
    header: 'Who',
    cell: (e) => (
      <>
        {e.actor.label}
        <br />
        <span className="muted">{ACTOR_LABELS[e.actor.kind]}</span>
      </>
    ),
  },
  { header: 'Action', cell: (e) => <code>{e.action}</code> },
  { header: 'What happened', cell: (e) => e.summary },
  {
    header: 'From',
    cell: (e) =>
      e.ip ? (
        <span title={e.userAgent ?? undefined}>
          {e.ip}
          {e.userAgent ? <span className="visually-hidden">, {e.userAgent}</span> : null}
        </span>
      ) : (
        '—'
      ),
  },
];

export default function ActivityLogPage() {
  const [filter, setFilter] = useState<Filter>({});
  const [more, setMore] = useState<{ entries: AuditEntry[]; cursor: string | null } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const first = useCall(
    (signal) => {
      setMore(null);
      return client.call(auditLog, { query: { ...filter, limit: 50 }, signal }).then((r) => r.data);
    },
    [filter],
  );
  const entries = [...(first.data?.entries ?? []), ...(more?.entries ?? [])];
  const cursor = more ? more.cursor : (first.data?.nextCursor ?? null);

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    setFilter({
      action: text('action') || undefined,
      actorKind: (text('actorKind') || undefined) as ActorKind | undefined,
      from: dayBound(text('from')),
      to: dayBound(text('to'), true),
    });
  };

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = (await client.call(auditLog, { query: { ...filter, cursor, limit: 50 } })).data;
      setMore({ entries: [...(more?.entries ?? []), ...page.entries], cursor: page.nextCursor });
    } catch (err) {
      toast(messageOf(err, COPY.loadMoreFailed), { kind: 'error' });
    } finally {
      setLoadingMore(false);
    }
  };

  const download = async () => {
    setDownloading(true);
    try {
      const name = await downloadFile(
        client,
        exportAuditLog,
        { query: { ...filter, format: 'csv' } },
        'activity-log.csv',
      );
      toast(`Downloaded ${name}.`, { kind: 'success', ms: 4000 });
    } catch (err) {
      toast(messageOf(err, 'The file could not be downloaded. Please try again later.'), { kind: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="activity-log-title">
      <div className="page-head">
        <h2 id="activity-log-title">Activity log</h2>
        <button
          type="button"
          className="btn btn-secondary download-csv"
          disabled={downloading}
          aria-busy={downloading}
          onClick={download}
        >
          {downloading ? <Spinner /> : null} Download CSV
          <span className="visually-hidden"> of the activity log</span>
        </button>
      </div>
      <p className="muted">{COPY.logIntro}</p>
      <form className="audit-filters" onSubmit={apply} aria-label="Filter the activity log">
        <Field label="Change">
          <select name="action" defaultValue="">
            <option value="">All changes</option>
            {AUDIT_ACTION_GROUPS.map((g) => (
              <option key={g.group} value={g.group}>
                {g.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Made by">
          <select name="actorKind" defaultValue="">
            <option value="">Anyone</option>
            {ACTOR_KINDS.map((k) => (
              <option key={k} value={k}>
                {ACTOR_LABELS[k]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="From">
          <input type="date" name="from" />
        </Field>
        <Field label="To">
          <input type="date" name="to" />
        </Field>
        <button type="submit" className="btn btn-secondary">
          Apply
        </button>
      </form>
      {first.error ? <LoadFailed error={first.error} /> : null}
      {first.loading && !first.data ? <Loader /> : null}
      {first.data ? (
        <DataTable
          caption="Activity log"
          columns={columns}
          rows={entries}
          rowKey={(e) => e._id}
          empty={COPY.noEntries}
        >
          {cursor ? (
            <div className="audit-more">
              <button type="button" className="btn btn-secondary" disabled={loadingMore} onClick={loadMore}>
                {loadingMore ? <Spinner /> : null} Load more
              </button>
            </div>
          ) : null}
        </DataTable>
      ) : null}
    </section>
  );
}
