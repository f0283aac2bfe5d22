/**
 * /portal/integrations/webhooks (issue 29 item 2): the tenant's webhook endpoints — address, events, status
 * (and why one is disabled), last delivery — with Add endpoint (address, events, order; the signing secret
 * shown once), Send test event, Pause / Enable, Rotate secret (shown once; the old one signs for 24 h) and
 * Delete (asked first); and one endpoint's deliveries — event, status, time, answer code, latency, the first
 * 2 KB of the answer — each redeliverable, with Redeliver failed of a period.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { EVENT_TYPES, type EventType } from '@shared/contract/events';
import {
  createWebhook,
  redeliverFailedWebhooks,
  redeliverWebhook,
  removeWebhook,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  webhookDeliveries,
  webhookList,
} from '@shared/contract/webhooks';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { formatDateTime } from '@shared/rules/format-date';
import {
  type CreateWebhookInput as CreateInput,
  CreateWebhookInput,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@shared/schemas/webhooks';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ConfirmDialog } from './ConfirmDialog';
import { SecretShownOnce } from './SecretShownOnce';
import { StatusFilter } from './StatusFilter';

type Output = z.output<typeof CreateWebhookInput>;
type Shown = { title: string; text: string; secret: string };

const DELIVERY_STATUS: Record<WebhookDelivery['status'], MessageKey> = {
  PENDING: 'webhooks.delivery.PENDING',
  SENDING: 'webhooks.delivery.SENDING',
  DELIVERED: 'webhooks.delivery.DELIVERED',
  FAILED: 'webhooks.delivery.FAILED',
};
/** What each event means, in a sentence (the API document's summary, translated). */
const EVENT_SUMMARY: Record<EventType, MessageKey> = {
  'award.issued': 'webhooks.event.awardIssued',
  'award.revoked': 'webhooks.event.awardRevoked',
  'assessment.evaluated': 'webhooks.event.assessmentEvaluated',
  'roadmap.assigned': 'webhooks.event.roadmapAssigned',
  'roadmap.completed': 'webhooks.event.roadmapCompleted',
  'seat.added': 'webhooks.event.seatAdded',
  'seat.removed': 'webhooks.event.seatRemoved',
  'learning.day.closed': 'webhooks.event.learningDayClosed',
};
/** The periods whose failed deliveries can be sent again, in hours, with their name in the message. */
const PERIODS = [
  { hours: 1, period: 'hour' },
  { hours: 24, period: 'day' },
  { hours: 24 * 7, period: 'week' },
  { hours: 24 * 30, period: 'month' },
] as const;
/** Words hidden but read by screen readers, inside a message's `<0>…</0>`. */
const hidden = { 0: <span className="visually-hidden" /> };

/** Runs a call, says how it went in a toast; true when it worked. */
async function act(run: () => Promise<unknown>, done: string, failed: string): Promise<boolean> {
  try {
    await run();
    toast(done, { kind: 'success', ms: 4000 });
    return true;
  } catch (err) {
    toast(messageOf(err, failed), { kind: 'error' });
    return false;
  }
}

interface EndpointActions {
  open: string | null;
  setOpen: (id: string | null) => void;
  test: (e: WebhookEndpoint) => void;
  toggle: (e: WebhookEndpoint) => void;
  rotate: (e: WebhookEndpoint) => void;
  remove: (e: WebhookEndpoint) => void;
}

/** The endpoints' table: address, events, status, last delivery, and each one's actions. */
function endpointColumns({ t, locale }: Translator, a: EndpointActions): Column<WebhookEndpoint>[] {
  return [
    {
      header: t('webhooks.endpoint'),
      cell: (e) => (
        <>
          <code className="webhook-url" dir="ltr">
            {e.url}
          </code>
          {e.description ? <div className="muted">{e.description}</div> : null}
        </>
      ),
    },
    {
      header: t('webhooks.events'),
      cell: (e) => (
        <ul className="key-scopes">
          {e.events.map((type) => (
            <li key={type}>
              <code>{type}</code>
            </li>
          ))}
        </ul>
      ),
    },
    {
      header: t('integrations.status'),
      cell: (e) =>
        e.status === 'ACTIVE' ? (
          e.failingSince ? (
            t('webhooks.failingSince', { time: formatDateTime(e.failingSince, undefined, locale) })
          ) : (
            t('webhooks.active')
          )
        ) : (
          <>
            {t('webhooks.pausedState')}
            {e.disabledReason ? <div className="muted">{e.disabledReason}</div> : null}
          </>
        ),
    },
    {
      header: t('webhooks.lastDelivery'),
      cell: (e) =>
        e.lastDeliveredAt ? formatDateTime(e.lastDeliveredAt, undefined, locale) : t('webhooks.noneYet'),
    },
    {
      header: t('integrations.actions'),
      cell: (e) => (
        <div className="row-actions">
          <button
            type="button"
            className="btn btn-secondary"
            aria-pressed={a.open === e._id}
            onClick={() => a.setOpen(a.open === e._id ? null : e._id)}
          >
            <Rich k="webhooks.deliveriesOf" values={{ url: e.url }} components={hidden} />
          </button>
          {e.status === 'ACTIVE' ? (
            <button type="button" className="btn btn-secondary" onClick={() => a.test(e)}>
              <Rich k="webhooks.sendTest" values={{ url: e.url }} components={hidden} />
            </button>
          ) : null}
          <button type="button" className="btn btn-secondary" onClick={() => a.toggle(e)}>
            <Rich
              k={e.status === 'ACTIVE' ? 'webhooks.pause' : 'webhooks.enable'}
              values={{ url: e.url }}
              components={hidden}
            />
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => a.rotate(e)}>
            <Rich k="webhooks.rotate" values={{ url: e.url }} components={hidden} />
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => a.remove(e)}>
            <Rich k="webhooks.delete" values={{ url: e.url }} components={hidden} />
          </button>
        </div>
      ),
    },
  ];
}

export default function WebhooksPage() {
  const tr = useI18n();
  const { t } = tr;
  const endpoints = useCall((signal) => client.call(webhookList, { signal }).then((r) => r.data), []);
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const selected = endpoints.data?.find((e) => e._id === open) ?? null;

  const toggle = (e: WebhookEndpoint) =>
    act(
      () => client.call(updateWebhook, { params: { id: e._id }, body: { enabled: e.status !== 'ACTIVE' } }),
      t(e.status === 'ACTIVE' ? 'webhooks.paused' : 'webhooks.enabled', { url: e.url }),
      t('integrations.failed'),
    ).then(endpoints.reload);
  const test = (e: WebhookEndpoint) =>
    act(
      () => client.call(testWebhook, { params: { id: e._id } }),
      t('webhooks.testSent'),
      t('integrations.failed'),
    ).then(() => setOpen(e._id));
  const rotate = async (e: WebhookEndpoint) => {
    try {
      const res = await client.call(rotateWebhookSecret, { params: { id: e._id } });
      setShown({
        title: t('webhooks.newSecretTitle', { url: e.url }),
        text: t('webhooks.rotated'),
        secret: res.data.secret,
      });
      endpoints.reload();
    } catch (err) {
      toast(messageOf(err, t('integrations.failed')), { kind: 'error' });
    }
  };
  const columns = endpointColumns(tr, { open, setOpen, test, toggle, rotate, remove: setRemoving });

  return (
    <section aria-labelledby="webhooks-title">
      <div className="page-head">
        <h2 id="webhooks-title">{t('integrations.nav.webhooks')}</h2>
        <button type="button" className="btn" onClick={() => setAdding(true)}>
          {t('webhooks.add')}
        </button>
      </div>
      <p className="muted">{t('webhooks.intro')}</p>
      {endpoints.error ? <LoadFailed error={endpoints.error} /> : null}
      {endpoints.loading && !endpoints.data ? <Loader /> : null}
      {endpoints.data ? (
        <DataTable
          caption={t('webhooks.endpointsCaption')}
          columns={columns}
          rows={endpoints.data}
          rowKey={(e) => e._id}
          empty={t('webhooks.none')}
        />
      ) : null}
      {selected ? <Deliveries key={selected._id} endpoint={selected} /> : null}
      <AddEndpointDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(url, secret) => {
          setAdding(false);
          setShown({ title: t('webhooks.addedTitle', { url }), text: t('webhooks.shownOnce'), secret });
          endpoints.reload();
        }}
      />
      <SecretShownOnce
        title={shown?.title ?? ''}
        label={t('webhooks.secret')}
        intro={shown?.text}
        secret={shown?.secret ?? null}
        onClose={() => setShown(null)}
      />
      <RemoveDialog
        endpoint={removing}
        onClose={() => setRemoving(null)}
        onRemoved={() => {
          if (removing?._id === open) setOpen(null);
          setRemoving(null);
          endpoints.reload();
        }}
      />
    </section>
  );
}

const BLANK: CreateInput = { url: '', description: '', events: [], ordered: false };

function AddEndpointDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (url: string, secret: string) => void;
}) {
  const { t } = useI18n();
  const formId = useId();
  const form = useForm<CreateInput, unknown, Output>({
    resolver: zodResolver(CreateWebhookInput),
    defaultValues: BLANK,
  });
  const { register, handleSubmit, formState, reset, setError } = form;
  useEffect(() => {
    if (open) reset(BLANK);
  }, [open, reset]);
  const submit = handleSubmit(async (body) => {
    try {
      const res = await client.call(createWebhook, { body });
      onAdded(res.data.url, res.data.secret);
    } catch (err) {
      setError('url', { type: 'server', message: messageOf(err, t('webhooks.addFailed')) });
    }
  });
  const eventsError = formState.errors.events?.message ?? formState.errors.events?.root?.message;
  return (
    <Dialog
      open={open}
      title={t('webhooks.add')}
      onClose={onClose}
      actions={
        <FormDialogActions
          formId={formId}
          busy={formState.isSubmitting}
          onCancel={onClose}
          submit={t('webhooks.add')}
        />
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <Field
          label={t('webhooks.url')}
          error={formState.errors.url?.message}
          hint={t('webhooks.urlHint')}
          required
        >
          <input
            type="url"
            inputMode="url"
            autoComplete="off"
            dir="ltr"
            placeholder="https://example.com/webhooks/waymark"
            {...register('url')}
          />
        </Field>
        <Field label={t('webhooks.description')} error={formState.errors.description?.message}>
          <input type="text" maxLength={200} autoComplete="off" {...register('description')} />
        </Field>
        <fieldset className="scope-list" aria-describedby={eventsError ? `${formId}-events` : undefined}>
          <legend>
            {t('webhooks.events')}
            <span aria-hidden="true"> *</span>
          </legend>
          {EVENT_TYPES.map((type) => (
            <label key={type}>
              <input type="checkbox" value={type} {...register('events')} />
              <span>
                <code>{type}</code> — {t(EVENT_SUMMARY[type])}
              </span>
            </label>
          ))}
          {eventsError ? (
            <p id={`${formId}-events`} className="field-error" role="alert">
              {t(eventsError as MessageKey)}
            </p>
          ) : null}
        </fieldset>
        <label className="checkbox-line">
          <input type="checkbox" {...register('ordered')} /> {t('webhooks.ordered')}
        </label>
      </form>
    </Dialog>
  );
}

function RemoveDialog({
  endpoint,
  onClose,
  onRemoved,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const { t } = useI18n();
  const url = endpoint?.url ?? '';
  return (
    <ConfirmDialog
      open={endpoint !== null}
      title={t('webhooks.deleteTitle', { url })}
      action={t('webhooks.deleteAction')}
      run={() => client.call(removeWebhook, { params: { id: endpoint!._id } })}
      done={t('webhooks.removed', { url })}
      failed={t('integrations.failed')}
      onClose={onClose}
      onDone={onRemoved}
    >
      <p>{t('webhooks.removeWarning')}</p>
    </ConfirmDialog>
  );
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
            {d.error ? <p>{d.error}</p> : null}
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
function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
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
