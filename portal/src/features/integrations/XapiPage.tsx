/**
 * /portal/integrations/learning-record-store (issue 29 item 3): the tenant's LRS — its xAPI endpoint, key
 * and secret (never shown again), how learners are named, what is sent — with Connect / Save, Send test
 * statement (what the LRS answered), Disconnect (asked first), and what was sent: each event's entry,
 * status, attempts, the LRS's answer, with Resend failed.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  connectXapi,
  disconnectXapi,
  resendXapiStatements,
  testXapi,
  xapiConnection,
  xapiStatementQueue,
} from '@shared/contract/xapi';
import type { MessageKey } from '@shared/i18n/keys';
import { formatDateTime } from '@shared/rules/format-date';
import {
  type ConnectXapiInput as ConnectInput,
  ConnectXapiInput,
  XAPI_KIND_TEXT,
  XAPI_STATEMENT_KINDS,
  type XapiConnection,
  type XapiQueueEntry,
} from '@shared/schemas/xapi';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { useI18n } from '@widgets/core/i18n';
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
import { errorText } from './errorWords';
import { StatusFilter } from './StatusFilter';

type Output = z.output<typeof ConnectXapiInput>;
const STATUS: Record<XapiQueueEntry['status'], MessageKey> = {
  PENDING: 'xapi.status.PENDING',
  SENDING: 'xapi.status.SENDING',
  SENT: 'xapi.status.SENT',
  FAILED: 'xapi.status.FAILED',
};

export default function XapiPage() {
  const { t } = useI18n();
  const connection = useCall((signal) => client.call(xapiConnection, { signal }).then((r) => r.data), []);
  const [queueVersion, setQueueVersion] = useState(0);
  const reload = () => {
    connection.reload();
    setQueueVersion((v) => v + 1);
  };
  return (
    <section aria-labelledby="xapi-title">
      <div className="page-head">
        <h2 id="xapi-title">{t('integrations.nav.lrs')}</h2>
      </div>
      <p className="muted">{t('xapi.intro')}</p>
      {connection.error ? <LoadFailed error={connection.error} /> : null}
      {connection.loading && connection.data === undefined ? <Loader /> : null}
      {connection.data !== undefined && !connection.error ? (
        <>
          {connection.data ? <Status connection={connection.data} onChanged={reload} /> : null}
          <ConnectionForm connection={connection.data} onSaved={reload} />
          {connection.data ? <Queue version={queueVersion} /> : null}
        </>
      ) : null}
    </section>
  );
}

function Status({ connection, onChanged }: { connection: XapiConnection; onChanged: () => void }) {
  const { t, locale, number } = useI18n();
  const [testing, setTesting] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const test = async () => {
    setTesting(true);
    try {
      const res = await client.call(testXapi, {});
      setResult(
        t('xapi.testResult', {
          message: t(res.data.code, res.data.params),
          status: res.data.status ?? t('xapi.noAnswer'),
          ms: number(res.data.ms),
        }),
      );
    } catch (err) {
      setResult(messageOf(err, t('integrations.failed')));
    } finally {
      setTesting(false);
    }
  };
  const { counts } = connection;
  return (
    <div className="xapi-status">
      <dl className="xapi-facts">
        <dt>{t('xapi.endpoint')}</dt>
        <dd>
          <code dir="ltr">{connection.endpoint}</code>
        </dd>
        <dt>{t('integrations.status')}</dt>
        <dd>
          {t('xapi.state', {
            state: !connection.enabled ? 'paused' : connection.failingSince ? 'failing' : 'sending',
            since: connection.failingSince ? formatDateTime(connection.failingSince, undefined, locale) : '',
          })}
        </dd>
        <dt>{t('xapi.lastAccepted')}</dt>
        <dd>
          {connection.lastSentAt
            ? formatDateTime(connection.lastSentAt, undefined, locale)
            : t('integrations.never')}
        </dd>
        <dt>{t('xapi.events')}</dt>
        <dd>
          {t('xapi.counts', {
            pending: number(counts.pending),
            sent: number(counts.sent),
            failed: number(counts.failed),
          })}
        </dd>
      </dl>
      <div className="row-actions">
        <button type="button" className="btn btn-secondary" disabled={testing} onClick={test}>
          {testing ? <Spinner /> : null} {t('xapi.sendTest')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => setDisconnecting(true)}>
          {t('xapi.disconnect')}
        </button>
      </div>
      <p role="status" className="muted">
        {result ?? ''}
      </p>
      <Dialog
        open={disconnecting}
        title={t('xapi.disconnectTitle')}
        role="alertdialog"
        onClose={() => setDisconnecting(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setDisconnecting(false)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={async () => {
                try {
                  await client.call(disconnectXapi, {});
                  toast(t('xapi.disconnected'), { kind: 'success', ms: 4000 });
                  setDisconnecting(false);
                  onChanged();
                } catch (err) {
                  toast(messageOf(err, t('integrations.failed')), { kind: 'error' });
                }
              }}
            >
              {t('xapi.disconnect')}
            </button>
          </>
        }
      >
        <p>{t('xapi.disconnectWarning')}</p>
      </Dialog>
    </div>
  );
}

function ConnectionForm({ connection, onSaved }: { connection: XapiConnection | null; onSaved: () => void }) {
  const { t } = useI18n();
  const formId = useId();
  const initial = (): ConnectInput => ({
    endpoint: connection?.endpoint ?? '',
    username: connection?.username ?? '',
    secret: undefined,
    actorFormat: connection?.actorFormat ?? 'account',
    statements: connection?.statements ?? [...XAPI_STATEMENT_KINDS],
    enabled: connection?.enabled ?? true,
  });
  const formWords = useFormWords();
  const form = useForm<ConnectInput, unknown, Output>({
    resolver: zodResolver(ConnectXapiInput, formWords),
    defaultValues: initial(),
  });
  const { register, handleSubmit, formState, reset, setError } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form follows the saved connection
  useEffect(() => reset(initial()), [connection, reset]);
  const submit = handleSubmit(async (body) => {
    try {
      await client.call(connectXapi, { body: { ...body, secret: body.secret || undefined } });
      toast(t(connection ? 'xapi.saved' : 'xapi.connected'), { kind: 'success', ms: 4000 });
      onSaved();
    } catch (err) {
      const field = (err as { field?: string }).field;
      const name = field === 'secret' || field === 'username' ? field : 'endpoint';
      setError(name, { type: 'server', message: messageOf(err, t('integrations.failed')) });
    }
  });
  return (
    <form
      id={formId}
      onSubmit={submit}
      noValidate
      className="xapi-form"
      aria-label={t(connection ? 'xapi.settings' : 'xapi.connect')}
    >
      <h3>{t(connection ? 'xapi.settings' : 'xapi.connectTitle')}</h3>
      <Field
        label={t('xapi.xapiEndpoint')}
        error={formState.errors.endpoint?.message}
        hint={t('xapi.endpointHint')}
        required
      >
        <input
          dir="ltr"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://lrs.example.com/xapi/"
          {...register('endpoint')}
        />
      </Field>
      <Field label={t('xapi.key')} error={formState.errors.username?.message} required>
        <input type="text" autoComplete="off" {...register('username')} />
      </Field>
      <Field
        label={t('xapi.secret')}
        error={formState.errors.secret?.message}
        hint={t(connection ? 'xapi.secretKeep' : 'xapi.secretHint')}
        required={!connection}
      >
        <input
          type="password"
          autoComplete="new-password"
          {...register('secret', { setValueAs: (v: string) => (v === '' ? undefined : v) })}
        />
      </Field>
      <fieldset className="scope-list">
        <legend>{t('xapi.namedBy')}</legend>
        <label>
          <input type="radio" value="account" {...register('actorFormat')} />{' '}
          <span>{t('xapi.actorAccount')}</span>
        </label>
        <label>
          <input type="radio" value="mbox" {...register('actorFormat')} /> <span>{t('xapi.actorMbox')}</span>
        </label>
      </fieldset>
      <fieldset className="scope-list">
        <legend>{t('xapi.whatIsSent')}</legend>
        {XAPI_STATEMENT_KINDS.map((kind) => (
          <label key={kind}>
            <input type="checkbox" value={kind} {...register('statements')} />{' '}
            <span>{t(XAPI_KIND_TEXT[kind])}</span>
          </label>
        ))}
      </fieldset>
      <label className="checkbox-line">
        <input type="checkbox" {...register('enabled')} /> {t('xapi.enabled')}
      </label>
      <div>
        <button type="submit" className="btn" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? <Spinner /> : null} {t(connection ? 'xapi.save' : 'xapi.connect')}
        </button>
      </div>
    </form>
  );
}

function Queue({ version }: { version: number }) {
  const { t, locale, number } = useI18n();
  const [status, setStatus] = useState<'' | XapiQueueEntry['status']>('');
  const [busy, setBusy] = useState(false);
  const page = useCall(
    (signal) =>
      client
        .call(xapiStatementQueue, { query: { limit: 50, ...(status ? { status } : {}) }, signal })
        .then((r) => r.data),
    [status, version],
  );
  const resend = async () => {
    setBusy(true);
    try {
      const res = await client.call(resendXapiStatements, {});
      toast(t('xapi.resent', { count: res.data.resent }), { kind: 'success', ms: 4000 });
      page.reload();
    } catch (err) {
      toast(messageOf(err, t('integrations.failed')), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const columns: Column<XapiQueueEntry>[] = [
    { header: t('integrations.event'), cell: (e) => <code>{e.eventType}</code> },
    {
      header: t('xapi.statements'),
      cell: (e) => (e.statementIds.length ? number(e.statementIds.length) : '—'),
    },
    { header: t('integrations.status'), cell: (e) => t(STATUS[e.status]) },
    {
      header: t('integrations.time'),
      cell: (e) => formatDateTime(e.lastAttemptAt ?? e.createdAt, undefined, locale),
    },
    { header: t('integrations.attempts'), cell: (e) => number(e.attempts) },
    {
      header: t('xapi.lrsAnswer'),
      cell: (e) => (e.responseStatus === null ? '—' : String(e.responseStatus)),
    },
    { header: t('xapi.error'), cell: (e) => errorText({ t, locale }, e) ?? '—' },
  ];
  return (
    <section aria-labelledby="xapi-sent-title">
      <h3 id="xapi-sent-title">{t('xapi.sentTitle')}</h3>
      <div className="audit-filters">
        <StatusFilter statuses={STATUS} value={status} onChange={setStatus} onRefresh={page.reload} />
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={resend}>
          {busy ? <Spinner /> : null} {t('xapi.resend')}
        </button>
      </div>
      {page.error ? <LoadFailed error={page.error} /> : null}
      {page.loading && !page.data ? <Loader /> : null}
      {page.data ? (
        <DataTable
          caption={t('xapi.sentCaption')}
          columns={columns}
          rows={page.data.entries}
          rowKey={(e) => e._id}
          empty={t('xapi.none')}
        />
      ) : null}
    </section>
  );
}
