/**
 * /portal/integrations/webhooks (issue 29 item 2): the tenant's webhook endpoints — address, events, status
 * (and why one is disabled), last delivery — with Add endpoint (address, events, order; the signing secret
 * shown once), Send test event, Pause / Enable, Rotate secret (shown once; the old one signs for 24 h) and
 * Delete (asked first); and one endpoint's deliveries (WebhookDeliveries.tsx).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { EVENT_TYPES, type EventType } from '@shared/contract/events';
import {
  createWebhook,
  removeWebhook,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  webhookList,
} from '@shared/contract/webhooks';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { formatDateTime } from '@shared/rules/format-date';
import {
  type CreateWebhookInput as CreateInput,
  CreateWebhookInput,
  type WebhookEndpoint,
} from '@shared/schemas/webhooks';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDialogActions } from '../../components/FormDialogActions';
import { SecretShownOnce } from './SecretShownOnce';
import { act, Deliveries, hidden } from './WebhookDeliveries';

type Output = z.output<typeof CreateWebhookInput>;
type Shown = { title: string; text: string; secret: string };

/** What each event means, in a sentence (the API document's summary, translated). */
/** Why an endpoint is disabled, in the reader's language when the server gave it by code. */
function whyDisabled(e: WebhookEndpoint, { t, locale }: Pick<Translator, 't' | 'locale'>): string | null {
  const why = e.disabledWhy;
  if (why?.code === 'TENANT') return t('webhooks.disabledWhy.tenant');
  if (why?.code === 'GONE') return t('webhooks.disabledWhy.gone');
  if (why?.code === 'FAILING' && why.since && why.days !== null)
    return t('webhooks.disabledWhy.failing', {
      since: formatDateTime(why.since, undefined, locale),
      days: why.days,
    });
  return e.disabledReason;
}

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
            {e.disabledReason ? <div className="muted">{whyDisabled(e, { t, locale })}</div> : null}
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
  const formWords = useFormWords();
  const form = useForm<CreateInput, unknown, Output>({
    resolver: zodResolver(CreateWebhookInput, formWords),
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
