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
import { XAPI_COPY as COPY } from './copy';
import { StatusFilter } from './StatusFilter';

type Output = z.output<typeof ConnectXapiInput>;
const STATUS = { PENDING: 'Waiting', SENDING: 'Sending', SENT: 'Sent', FAILED: 'Failed' } as const;

export default function XapiPage() {
  const connection = useCall((signal) => client.call(xapiConnection, { signal }).then((r) => r.data), []);
  const [queueVersion, setQueueVersion] = useState(0);
  const reload = () => {
    connection.reload();
    setQueueVersion((v) => v + 1);
  };
  return (
    <section aria-labelledby="xapi-title">
      <div className="page-head">
        <h2 id="xapi-title">Learning record store</h2>
      </div>
      <p className="muted">{COPY.intro}</p>
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
  const [testing, setTesting] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const test = async () => {
    setTesting(true);
    try {
      const res = await client.call(testXapi, {});
      setResult(`${res.data.message} (${res.data.status ?? 'no answer'}, ${res.data.ms} ms)`);
    } catch (err) {
      setResult(messageOf(err, COPY.failed));
    } finally {
      setTesting(false);
    }
  };
  const { counts } = connection;
  return (
    <div className="xapi-status">
      <dl className="xapi-facts">
        <dt>Endpoint</dt>
        <dd>
          <code>{connection.endpoint}</code>
        </dd>
        <dt>Status</dt>
        <dd>
          {!connection.enabled
            ? 'Paused'
            : connection.failingSince
              ? `Failing since ${formatDateTime(connection.failingSince)}`
              : 'Sending'}
        </dd>
        <dt>Last accepted</dt>
        <dd>{connection.lastSentAt ? formatDateTime(connection.lastSentAt) : 'Never'}</dd>
        <dt>Events</dt>
        <dd>
          {counts.pending} waiting, {counts.sent} sent, {counts.failed} failed
        </dd>
      </dl>
      <div className="row-actions">
        <button type="button" className="btn btn-secondary" disabled={testing} onClick={test}>
          {testing ? <Spinner /> : null} Send test statement
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => setDisconnecting(true)}>
          Disconnect
        </button>
      </div>
      <p role="status" className="muted">
        {result ?? ''}
      </p>
      <Dialog
        open={disconnecting}
        title="Disconnect the learning record store?"
        role="alertdialog"
        onClose={() => setDisconnecting(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setDisconnecting(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={async () => {
                try {
                  await client.call(disconnectXapi, {});
                  toast(COPY.disconnected, { kind: 'success', ms: 4000 });
                  setDisconnecting(false);
                  onChanged();
                } catch (err) {
                  toast(messageOf(err, COPY.failed), { kind: 'error' });
                }
              }}
            >
              Disconnect
            </button>
          </>
        }
      >
        <p>{COPY.disconnectWarning}</p>
      </Dialog>
    </div>
  );
}

function ConnectionForm({ connection, onSaved }: { connection: XapiConnection | null; onSaved: () => void }) {
  const formId = useId();
  const initial = (): ConnectInput => ({
    endpoint: connection?.endpoint ?? '',
    username: connection?.username ?? '',
    secret: undefined,
    actorFormat: connection?.actorFormat ?? 'account',
    statements: connection?.statements ?? [...XAPI_STATEMENT_KINDS],
    enabled: connection?.enabled ?? true,
  });
  const form = useForm<ConnectInput, unknown, Output>({
    resolver: zodResolver(ConnectXapiInput),
    defaultValues: initial(),
  });
  const { register, handleSubmit, formState, reset, setError } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form follows the saved connection
  useEffect(() => reset(initial()), [connection, reset]);
  const submit = handleSubmit(async (body) => {
    try {
      await client.call(connectXapi, { body: { ...body, secret: body.secret || undefined } });
      toast(connection ? COPY.saved : COPY.connected, { kind: 'success', ms: 4000 });
      onSaved();
    } catch (err) {
      const field = (err as { field?: string }).field;
      const name = field === 'secret' || field === 'username' ? field : 'endpoint';
      setError(name, { type: 'server', message: messageOf(err, COPY.failed) });
    }
  });
  return (
    <form
      id={formId}
      onSubmit={submit}
      noValidate
      className="xapi-form"
      aria-label={connection ? 'Settings' : 'Connect'}
    >
      <h3>{connection ? 'Settings' : 'Connect your learning record store'}</h3>
      <Field
        label="xAPI endpoint"
        error={formState.errors.endpoint?.message}
        hint={COPY.endpointHint}
        required
      >
        <input
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://lrs.example.com/xapi/"
          {...register('endpoint')}
        />
      </Field>
      <Field label="Key" error={formState.errors.username?.message} required>
        <input type="text" autoComplete="off" {...register('username')} />
      </Field>
      <Field
        label="Secret"
        error={formState.errors.secret?.message}
        hint={connection ? COPY.secretKeep : COPY.secretHint}
        required={!connection}
      >
        <input
          type="password"
          autoComplete="new-password"
          {...register('secret', { setValueAs: (v: string) => (v === '' ? undefined : v) })}
        />
      </Field>
      <fieldset className="scope-list">
        <legend>Learners are named by</legend>
        <label>
          <input type="radio" value="account" {...register('actorFormat')} /> <span>{COPY.actorAccount}</span>
        </label>
        <label>
          <input type="radio" value="mbox" {...register('actorFormat')} /> <span>{COPY.actorMbox}</span>
        </label>
      </fieldset>
      <fieldset className="scope-list">
        <legend>What is sent</legend>
        {XAPI_STATEMENT_KINDS.map((kind) => (
          <label key={kind}>
            <input type="checkbox" value={kind} {...register('statements')} />{' '}
            <span>{XAPI_KIND_TEXT[kind]}</span>
          </label>
        ))}
      </fieldset>
      <label className="checkbox-line">
        <input type="checkbox" {...register('enabled')} /> Send statements (clear to pause)
      </label>
      <div>
        <button type="submit" className="btn" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? <Spinner /> : null} {connection ? 'Save' : 'Connect'}
        </button>
      </div>
    </form>
  );
}

function Queue({ version }: { version: number }) {
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
      toast(COPY.resent(res.data.resent), { kind: 'success', ms: 4000 });
      page.reload();
    } catch (err) {
      toast(messageOf(err, COPY.failed), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const columns: Column<XapiQueueEntry>[] = [
    { header: 'Event', cell: (e) => <code>{e.eventType}</code> },
    { header: 'Statements', cell: (e) => String(e.statementIds.length || '—') },
    { header: 'Status', cell: (e) => STATUS[e.status] },
    { header: 'Time', cell: (e) => formatDateTime(e.lastAttemptAt ?? e.createdAt) },
    { header: 'Attempts', cell: (e) => String(e.attempts) },
    { header: 'LRS answer', cell: (e) => (e.responseStatus === null ? '—' : String(e.responseStatus)) },
    { header: 'Error', cell: (e) => e.error ?? '—' },
  ];
  return (
    <section aria-labelledby="xapi-sent-title">
      <h3 id="xapi-sent-title">Sent to the learning record store</h3>
      <div className="audit-filters">
        <StatusFilter statuses={STATUS} value={status} onChange={setStatus} onRefresh={page.reload} />
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={resend}>
          {busy ? <Spinner /> : null} Resend failed
        </button>
      </div>
      {page.error ? <LoadFailed error={page.error} /> : null}
      {page.loading && !page.data ? <Loader /> : null}
      {page.data ? (
        <DataTable
          caption="Statements sent"
          columns={columns}
          rows={page.data.entries}
          rowKey={(e) => e._id}
          empty={COPY.noEntries}
        />
      ) : null}
    </section>
  );
}
