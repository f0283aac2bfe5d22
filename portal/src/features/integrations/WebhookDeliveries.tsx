/**
 * One webhook endpoint's deliveries (issue 29 item 2), newest first: event, status, time, answer code,
 * latency, the first 2 KB of the answer — each redeliverable while the endpoint is active, with Redeliver
 * failed of a period.
 */
import { redeliverFailedWebhooks, redeliverWebhook, webhookDeliveries } from '@shared/contract/webhooks';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { formatDateTime } from '@shared/rules/format-date';
import type { WebhookDelivery, WebhookEndpoint } from '@shared/schemas/webhooks';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { errorText } from './errorWords';
import { StatusFilter } from './StatusFilter';

const DELIVERY_STATUS: Record<WebhookDelivery['status'], MessageKey> = {
  PENDING: 'webhooks.delivery.PENDING',
  SENDING: 'webhooks.delivery.SENDING',
  DELIVERED: 'webhooks.delivery.DELIVERED',
  FAILED: 'webhooks.delivery.FAILED',
};
/** The periods whose failed deliveries can be sent again, in hours, with their name in the message. */
const PERIODS = [
  { hours: 1, period: 'hour' },
  { hours: 24, period: 'day' },
  { hours: 24 * 7, period: 'week' },
  { hours: 24 * 30, period: 'month' },
] as const;
/** Words hidden but read by screen readers, inside a message's `<0>…</0>`. */
export const hidden = { 0: <span className="visually-hidden" /> };

/** Runs a call, says how it went in a toast; true when it worked. */
export async function act(run: () => Promise<unknown>, done: string, failed: string): Promise<boolean> {
  try {
    await run();
    toast(done, { kind: 'success', ms: 4000 });
    return true;
  } catch (err) {
    toast(messageOf(err, failed), { kind: 'error' });
    return false;
  }
}

/** The deliveries' table: event, status, time, attempts, the answer, and Redeliver while the endpoint is active. */
function deliveryColumns(
  { t, locale, number }: Translator,
  redeliver: ((d: WebhookDelivery) => void) | null,
): Column<WebhookDelivery>[] {
  const time = (iso: string) => formatDateTime(iso, undefined, locale);
  return [
    { header: t('integrations.event'), cell: (d) => <code>{d.eventType}</code> },
    {
      header: t('integrations.status'),
      cell: (d) =>
        t('webhooks.deliveryStatus', {
          status: t(DELIVERY_STATUS[d.status]),
          next: d.status === 'PENDING' && d.nextAttemptAt ? time(d.nextAttemptAt) : 'none',
        }),
    },
    { header: t('integrations.time'), cell: (d) => time(d.lastAttemptAt ?? d.createdAt) },
    { header: t('integrations.attempts'), cell: (d) => number(d.attempts) },
    {
      header: t('webhooks.response'),
      cell: (d) => (d.responseStatus === null ? '—' : String(d.responseStatus)),
    },
    {
      header: t('webhooks.latency'),
      cell: (d) => (d.responseMs === null ? '—' : t('webhooks.ms', { ms: number(d.responseMs) })),
    },
    {
      header: t('webhooks.details'),
      cell: (d) =>
        d.error || d.responseBody ? (
          <details>
            <summary>
              <Rich k="webhooks.show" values={{ event: d.eventType }} components={hidden} />
            </summary>
            {d.error ? <p>{errorText({ t, locale }, d)}</p> : null}
            {d.responseBody ? (
              <pre className="webhook-answer" dir="ltr">
                {d.responseBody}
              </pre>
            ) : null}
          </details>
        ) : (
          '—'
        ),
    },
    {
      header: t('integrations.action'),
      cell: (d) =>
        redeliver && d.status !== 'SENDING' ? (
          <button type="button" className="btn btn-secondary" onClick={() => redeliver(d)}>
            <Rich
              k="webhooks.redeliver"
              values={{ event: d.eventType, time: time(d.createdAt) }}
              components={hidden}
            />
          </button>
        ) : (
          '—'
        ),
    },
  ];
}

/** One endpoint's deliveries, newest first, a page at a time. */
export function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const tr = useI18n();
  const { t } = tr;
  const [status, setStatus] = useState<'' | WebhookDelivery['status']>('');
  const page = useCall(
    (signal) =>
      client
        .call(webhookDeliveries, {
          params: { id: endpoint._id },
          query: { limit: 50, ...(status ? { status } : {}) },
          signal,
        })
        .then((r) => r.data),
    [endpoint._id, status],
  );
  const active = endpoint.status === 'ACTIVE';
  const redeliver = (d: WebhookDelivery) =>
    act(
      () => client.call(redeliverWebhook, { params: { id: endpoint._id, deliveryId: d._id } }),
      t('webhooks.redelivered'),
      t('integrations.failed'),
    ).then(page.reload);
  return (
    <section aria-labelledby="deliveries-title" className="webhook-deliveries">
      <h3 id="deliveries-title">
        <Rich
          k="webhooks.deliveriesTo"
          values={{ url: endpoint.url }}
          components={{ 0: <code dir="ltr" /> }}
        />
      </h3>
      <div className="audit-filters">
        <StatusFilter
          statuses={DELIVERY_STATUS}
          value={status}
          onChange={setStatus}
          onRefresh={page.reload}
        />
        {active ? <RedeliverFailed endpoint={endpoint} onDone={page.reload} /> : null}
      </div>
      {page.error ? <LoadFailed error={page.error} /> : null}
      {page.loading && !page.data ? <Loader /> : null}
      {page.data ? (
        <DataTable
          caption={t('webhooks.deliveriesCaption', { url: endpoint.url })}
          columns={deliveryColumns(tr, active ? redeliver : null)}
          rows={page.data.deliveries}
          rowKey={(d) => d._id}
          empty={t('webhooks.noDeliveries')}
        />
      ) : null}
    </section>
  );
}

/** Redeliver failed: every failed delivery of a chosen period sent again. */
function RedeliverFailed({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  const { t } = useI18n();
  const [period, setPeriod] = useState<number>(24);
  const [busy, setBusy] = useState(false);
  const redeliverFailed = async () => {
    setBusy(true);
    const to = new Date();
    const from = new Date(to.getTime() - period * 3600_000);
    try {
      const res = await client.call(redeliverFailedWebhooks, {
        params: { id: endpoint._id },
        body: { from: from.toISOString(), to: new Date(to.getTime() + 1000).toISOString() },
      });
      toast(t('webhooks.redeliveredFailed', { count: res.data.redelivered }), { kind: 'success', ms: 4000 });
      onDone();
    } catch (err) {
      toast(messageOf(err, t('integrations.failed')), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Field label={t('webhooks.failedOf')}>
        <select value={period} onChange={(e) => setPeriod(Number(e.target.value))}>
          {PERIODS.map((p) => (
            <option key={p.hours} value={p.hours}>
              {t('webhooks.period', { period: p.period })}
            </option>
          ))}
        </select>
      </Field>
      <button type="button" className="btn btn-secondary" disabled={busy} onClick={redeliverFailed}>
        {busy ? <Spinner /> : null} {t('webhooks.redeliverFailed')}
      </button>
    </>
  );
}
