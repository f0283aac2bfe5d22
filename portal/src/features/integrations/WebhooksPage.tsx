/**
 * /portal/integrations/webhooks (issue 29 item 2): the tenant's webhook endpoints — address, events, status
 * (and why one is disabled), last delivery — with Add endpoint (address, events, order; the signing secret
 * shown once), Send test event, Pause / Enable, Rotate secret (shown once; the old one signs for 24 h) and
 * Delete (asked first); and one endpoint's deliveries — event, status, time, answer code, latency, the first
 * 2 KB of the answer — each redeliverable, with Redeliver failed of a period.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { EVENT_CATALOGUE, EVENT_TYPES } from '@shared/contract/events';
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
import { formatDateTime } from '@shared/rules/format-date';
import {
  type CreateWebhookInput as CreateInput,
  CreateWebhookInput,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@shared/schemas/webhooks';
import { client } from '@widgets/core/api';
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
import { WEBHOOKS_COPY as COPY } from './copy';
import { SecretShownOnce } from './SecretShownOnce';
import { StatusFilter } from './StatusFilter';

type Output = z.output<typeof CreateWebhookInput>;
type Shown = { title: string; text: string; label: string; secret: string };

const DELIVERY_STATUS = {
  PENDING: 'Waiting',
  SENDING: 'Sending',
  DELIVERED: 'Delivered',
  FAILED: 'Failed',
} as const;
/** The periods whose failed deliveries can be sent again, in hours. */
const PERIODS = [
  { hours: 1, label: 'the last hour' },
  { hours: 24, label: 'the last 24 hours' },
  { hours: 24 * 7, label: 'the last 7 days' },
  { hours: 24 * 30, label: 'the last 30 days' },
] as const;

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

export default function WebhooksPage() {
  const endpoints = useCall((signal) => client.call(webhookList, { signal }).then((r) => r.data), []);
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const selected = endpoints.data?.find((e) => e._id === open) ?? null;

  const toggle = (e: WebhookEndpoint) =>
    act(
      () => client.call(updateWebhook, { params: { id: e._id }, body: { enabled: e.status !== 'ACTIVE' } }),
      e.status === 'ACTIVE' ? COPY.paused(e.url) : COPY.enabled(e.url),
      COPY.failed,
    ).then(endpoints.reload);
  const test = (e: WebhookEndpoint) =>
    act(() => client.call(testWebhook, { params: { id: e._id } }), COPY.testSent, COPY.failed).then(() =>
      setOpen(e._id),
    );
  const rotate = async (e: WebhookEndpoint) => {
    try {
      const res = await client.call(rotateWebhookSecret, { params: { id: e._id } });
      setShown({
        title: `New signing secret of ${e.url}`,
        text: COPY.rotated,
        label: 'The signing secret',
        secret: res.data.secret,
      });
      endpoints.reload();
    } catch (err) {
      toast(messageOf(err, COPY.failed), { kind: 'error' });
    }
  };

  const columns: Column<WebhookEndpoint>[] = [
    {
      header: 'Endpoint',
      cell: (e) => (
        <>
          <code className="webhook-url">{e.url}</code>
          {e.description ? <div className="muted">{e.description}</div> : null}
        </>
      ),
    },
    {
      header: 'Events',
      cell: (e) => (
        <ul className="key-scopes">
          {e.events.map((t) => (
            <li key={t}>
              <code>{t}</code>
            </li>
          ))}
        </ul>
      ),
    },
    {
      header: 'Status',
      cell: (e) =>
        e.status === 'ACTIVE' ? (
          e.failingSince ? (
            `Failing since ${formatDateTime(e.failingSince)}`
          ) : (
            'Active'
          )
        ) : (
          <>Paused{e.disabledReason ? <div className="muted">{e.disabledReason}</div> : null}</>
        ),
    },
    {
      header: 'Last delivery',
      cell: (e) => (e.lastDeliveredAt ? formatDateTime(e.lastDeliveredAt) : 'None yet'),
    },
    {
      header: 'Actions',
      cell: (e) => (
        <div className="row-actions">
          <button
            type="button"
            className="btn btn-secondary"
            aria-pressed={open === e._id}
            onClick={() => setOpen(open === e._id ? null : e._id)}
          >
            Deliveries<span className="visually-hidden"> of {e.url}</span>
          </button>
          {e.status === 'ACTIVE' ? (
            <button type="button" className="btn btn-secondary" onClick={() => test(e)}>
              Send test event<span className="visually-hidden"> to {e.url}</span>
            </button>
          ) : null}
          <button type="button" className="btn btn-secondary" onClick={() => toggle(e)}>
            {e.status === 'ACTIVE' ? 'Pause' : 'Enable'}
            <span className="visually-hidden"> {e.url}</span>
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => rotate(e)}>
            Rotate secret<span className="visually-hidden"> of {e.url}</span>
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => setRemoving(e)}>
            Delete<span className="visually-hidden"> {e.url}</span>
          </button>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="webhooks-title">
      <div className="page-head">
        <h2 id="webhooks-title">Webhooks</h2>
        <button type="button" className="btn" onClick={() => setAdding(true)}>
          Add endpoint
        </button>
      </div>
      <p className="muted">{COPY.intro}</p>
      {endpoints.error ? <LoadFailed error={endpoints.error} /> : null}
      {endpoints.loading && !endpoints.data ? <Loader /> : null}
      {endpoints.data ? (
        <DataTable
          caption="Webhook endpoints"
          columns={columns}
          rows={endpoints.data}
          rowKey={(e) => e._id}
          empty={COPY.none}
        />
      ) : null}
      {selected ? <Deliveries key={selected._id} endpoint={selected} /> : null}
      <AddEndpointDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(url, secret) => {
          setAdding(false);
          setShown({
            title: `Endpoint ${url} added`,
            text: COPY.shownOnce,
            label: 'The signing secret',
            secret,
          });
          endpoints.reload();
        }}
      />
      <SecretShownOnce
        title={shown?.title ?? ''}
        label="The signing secret"
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
      setError('url', { type: 'server', message: messageOf(err, COPY.addFailed) });
    }
  });
  const eventsError = formState.errors.events?.message ?? formState.errors.events?.root?.message;
  return (
    <Dialog
      open={open}
      title="Add endpoint"
      onClose={onClose}
      actions={
        <FormDialogActions
          formId={formId}
          busy={formState.isSubmitting}
          onCancel={onClose}
          submit="Add endpoint"
        />
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <Field label="Endpoint URL" error={formState.errors.url?.message} hint={COPY.urlHint} required>
          <input
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/webhooks/waymark"
            {...register('url')}
          />
        </Field>
        <Field label="Description" error={formState.errors.description?.message}>
          <input type="text" maxLength={200} autoComplete="off" {...register('description')} />
        </Field>
        <fieldset className="scope-list" aria-describedby={eventsError ? `${formId}-events` : undefined}>
          <legend>
            Events<span aria-hidden="true"> *</span>
          </legend>
          {EVENT_TYPES.map((type) => (
            <label key={type}>
              <input type="checkbox" value={type} {...register('events')} />
              <span>
                <code>{type}</code> — {EVENT_CATALOGUE[type].summary.split(/(?<=\.)\s/)[0]}
              </span>
            </label>
          ))}
          {eventsError ? (
            <p id={`${formId}-events`} className="field-error" role="alert">
              {eventsError}
            </p>
          ) : null}
        </fieldset>
        <label className="checkbox-line">
          <input type="checkbox" {...register('ordered')} /> {COPY.ordered}
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
  return (
    <ConfirmDialog
      open={endpoint !== null}
      title={`Delete ${endpoint?.url ?? ''}?`}
      action="Delete"
      run={() => client.call(removeWebhook, { params: { id: endpoint!._id } })}
      done={COPY.removed(endpoint?.url ?? '')}
      failed={COPY.failed}
      onClose={onClose}
      onDone={onRemoved}
    >
      <p>{COPY.removeWarning}</p>
    </ConfirmDialog>
  );
}

/** One endpoint's deliveries, newest first, a page at a time. */
function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [status, setStatus] = useState<'' | WebhookDelivery['status']>('');
  const [period, setPeriod] = useState<number>(24);
  const [busy, setBusy] = useState(false);
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
      COPY.redelivered,
      COPY.failed,
    ).then(page.reload);
  const redeliverFailed = async () => {
    setBusy(true);
    const to = new Date();
    const from = new Date(to.getTime() - period * 3600_000);
    try {
      const res = await client.call(redeliverFailedWebhooks, {
        params: { id: endpoint._id },
        body: { from: from.toISOString(), to: new Date(to.getTime() + 1000).toISOString() },
      });
      toast(COPY.redeliveredFailed(res.data.redelivered), { kind: 'success', ms: 4000 });
      page.reload();
    } catch (err) {
      toast(messageOf(err, COPY.failed), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const columns: Column<WebhookDelivery>[] = [
    { header: 'Event', cell: (d) => <code>{d.eventType}</code> },
    {
      header: 'Status',
      cell: (d) =>
        DELIVERY_STATUS[d.status] +
        (d.status === 'PENDING' && d.nextAttemptAt ? ` (next try ${formatDateTime(d.nextAttemptAt)})` : ''),
    },
    { header: 'Time', cell: (d) => formatDateTime(d.lastAttemptAt ?? d.createdAt) },
    { header: 'Attempts', cell: (d) => String(d.attempts) },
    { header: 'Response', cell: (d) => (d.responseStatus === null ? '—' : String(d.responseStatus)) },
    { header: 'Latency', cell: (d) => (d.responseMs === null ? '—' : `${d.responseMs} ms`) },
    {
      header: 'Details',
      cell: (d) =>
        d.error || d.responseBody ? (
          <details>
            <summary>
              Show<span className="visually-hidden"> the answer to {d.eventType}</span>
            </summary>
            {d.error ? <p>{d.error}</p> : null}
            {d.responseBody ? <pre className="webhook-answer">{d.responseBody}</pre> : null}
          </details>
        ) : (
          '—'
        ),
    },
    {
      header: 'Action',
      cell: (d) =>
        active && d.status !== 'SENDING' ? (
          <button type="button" className="btn btn-secondary" onClick={() => redeliver(d)}>
            Redeliver
            <span className="visually-hidden">
              {' '}
              {d.eventType} of {formatDateTime(d.createdAt)}
            </span>
          </button>
        ) : (
          '—'
        ),
    },
  ];
  return (
    <section aria-labelledby="deliveries-title" className="webhook-deliveries">
      <h3 id="deliveries-title">
        Deliveries to <code>{endpoint.url}</code>
      </h3>
      <div className="audit-filters">
        <StatusFilter
          statuses={DELIVERY_STATUS}
          value={status}
          onChange={setStatus}
          onRefresh={page.reload}
        />
        {active ? (
          <>
            <Field label="Failed deliveries of">
              <select value={period} onChange={(e) => setPeriod(Number(e.target.value))}>
                {PERIODS.map((p) => (
                  <option key={p.hours} value={p.hours}>
                    {p.label}
                  </option>
                ))}
              </select>
            </Field>
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={redeliverFailed}>
              {busy ? <Spinner /> : null} Redeliver failed
            </button>
          </>
        ) : null}
      </div>
      {page.error ? <LoadFailed error={page.error} /> : null}
      {page.loading && !page.data ? <Loader /> : null}
      {page.data ? (
        <DataTable
          caption={`Deliveries to ${endpoint.url}`}
          columns={columns}
          rows={page.data.deliveries}
          rowKey={(d) => d._id}
          empty={COPY.noDeliveries}
        />
      ) : null}
    </section>
  );
}
