/**
 * /portal/integrations/activity-log (issue 28 item 4): the tenant's audit log, newest first — when, who (a
 * person, an API key, …), what, and from where — filtered by kind of change, kind of actor and days,
 * read on with Load more, and downloaded as CSV with the same filters.
 */
import { auditLog, exportAuditLog } from '@shared/contract/integrations';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { auditWords } from '@shared/rules/audit-words';
import { formatDateTime } from '@shared/rules/format-date';
import {
  ACTOR_KINDS,
  type ActorKind,
  AUDIT_ACTION_GROUPS,
  type AuditEntry,
} from '@shared/schemas/integrations';
import { client } from '@widgets/core/api';
import { downloadFile } from '@widgets/core/download';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { type FormEvent, useState } from 'react';

interface Filter {
  action?: string;
  actorKind?: ActorKind;
  from?: string;
  to?: string;
}

const ACTOR: Record<ActorKind, MessageKey> = {
  person: 'activityLog.actor.person',
  apiKey: 'activityLog.actor.apiKey',
  scimToken: 'activityLog.actor.scimToken',
  ltiPlatform: 'activityLog.actor.ltiPlatform',
  system: 'activityLog.actor.system',
};

/** A day picked in the form (local time) as the filter's bound: its start, or the next day's for `to`. */
const dayBound = (day: string, next = false) => {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (next) d.setDate(d.getDate() + 1);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
};

const columnsIn = ({ t, locale, list }: Translator): Column<AuditEntry>[] => [
  {
    header: t('integrations.time'),
    cell: (e) => <time dateTime={e.occurredAt}>{formatDateTime(e.occurredAt, undefined, locale)}</time>,
  },
  {
    header: t('activityLog.who'),
    cell: (e) => (
      <>
        {e.actor.label}
        <br />
        <span className="muted">{t(ACTOR[e.actor.kind])}</span>
      </>
    ),
  },
  { header: t('integrations.action'), cell: (e) => <code>{e.action}</code> },
  { header: t('activityLog.what'), cell: (e) => auditWords(e, { t, locale, list }) },
  {
    header: t('activityLog.from'),
    cell: (e) =>
      e.ip ? (
        <span title={e.userAgent ?? undefined} dir="ltr">
          {e.ip}
          {e.userAgent ? <span className="visually-hidden">, {e.userAgent}</span> : null}
        </span>
      ) : (
        '—'
      ),
  },
];

export default function ActivityLogPage() {
  const tr = useI18n();
  const { t } = tr;
  const [filter, setFilter] = useState<Filter>({});
  const [more, setMore] = useState<{ entries: AuditEntry[]; cursor: string | null } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const first = useCall(
    (signal) => {
      setMore(null);
      return client.call(auditLog, { query: { ...filter, limit: 50 }, signal }).then((r) => r.data);
    },
    [filter],
  );
  const entries = [...(first.data?.entries ?? []), ...(more?.entries ?? [])];
  const cursor = more ? more.cursor : (first.data?.nextCursor ?? null);

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = (await client.call(auditLog, { query: { ...filter, cursor, limit: 50 } })).data;
      setMore({ entries: [...(more?.entries ?? []), ...page.entries], cursor: page.nextCursor });
    } catch (err) {
      toast(messageOf(err, t('activityLog.loadMoreFailed')), { kind: 'error' });
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section aria-labelledby="activity-log-title">
      <div className="page-head">
        <h2 id="activity-log-title">{t('integrations.nav.activityLog')}</h2>
        <DownloadLog filter={filter} />
      </div>
      <p className="muted">{t('activityLog.intro')}</p>
      <AuditFilters onApply={setFilter} />
      {first.error ? <LoadFailed error={first.error} /> : null}
      {first.loading && !first.data ? <Loader /> : null}
      {first.data ? (
        <DataTable
          caption={t('integrations.nav.activityLog')}
          columns={columnsIn(tr)}
          rows={entries}
          rowKey={(e) => e._id}
          empty={t('activityLog.none')}
        >
          {cursor ? (
            <div className="audit-more">
              <button type="button" className="btn btn-secondary" disabled={loadingMore} onClick={loadMore}>
                {loadingMore ? <Spinner /> : null} {t('activityLog.loadMore')}
              </button>
            </div>
          ) : null}
        </DataTable>
      ) : null}
    </section>
  );
}

/** Download CSV: the log with the filters applied. */
function DownloadLog({ filter }: { filter: Filter }) {
  const { t } = useI18n();
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      const name = await downloadFile(
        client,
        exportAuditLog,
        { query: { ...filter, format: 'csv' } },
        'activity-log.csv',
      );
      toast(t('integrations.downloaded', { name }), { kind: 'success', ms: 4000 });
    } catch (err) {
      toast(messageOf(err, t('integrations.downloadFailed')), { kind: 'error' });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <button
      type="button"
      className="btn btn-secondary download-csv"
      disabled={downloading}
      aria-busy={downloading}
      onClick={download}
    >
      {downloading ? <Spinner /> : null}{' '}
      <Rich k="activityLog.downloadCsv" components={{ 0: <span className="visually-hidden" /> }} />
    </button>
  );
}

/** The filters: kind of change, who made it, from and to which day. */
function AuditFilters({ onApply }: { onApply: (filter: Filter) => void }) {
  const { t } = useI18n();
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    onApply({
      action: text('action') || undefined,
      actorKind: (text('actorKind') || undefined) as ActorKind | undefined,
      from: dayBound(text('from')),
      to: dayBound(text('to'), true),
    });
  };
  return (
    <form className="audit-filters" onSubmit={apply} aria-label={t('activityLog.filter')}>
      <Field label={t('activityLog.change')}>
        <select name="action" defaultValue="">
          <option value="">{t('activityLog.allChanges')}</option>
          {AUDIT_ACTION_GROUPS.map((g) => (
            <option key={g.group} value={g.group}>
              {t(g.label)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('activityLog.madeBy')}>
        <select name="actorKind" defaultValue="">
          <option value="">{t('activityLog.anyone')}</option>
          {ACTOR_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(ACTOR[k])}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('activityLog.from')}>
        <input type="date" name="from" />
      </Field>
      <Field label={t('activityLog.to')}>
        <input type="date" name="to" />
      </Field>
      <button type="submit" className="btn btn-secondary">
        {t('activityLog.apply')}
      </button>
    </form>
  );
}
