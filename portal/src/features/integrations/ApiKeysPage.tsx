/**
 * /portal/integrations/api-keys (issue 28 item 3): the tenant's API keys — name, the visible part of the
 * key, scopes, expiry, last use and status — with Create API key (a name, its scopes, an expiry; the whole
 * key shown once, to copy) and Revoke (asked first; the key stops at once).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { apiKeyList, createApiKey, revokeApiKey } from '@shared/contract/integrations';
import { formatDateTime } from '@shared/rules/format-date';
import {
  API_SCOPES,
  type ApiKey,
  CreateApiKeyInput,
  type CreateApiKeyInput as CreateInput,
  SCOPE_TEXT,
} from '@shared/schemas/integrations';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ConfirmDialog } from './ConfirmDialog';
import { INTEGRATIONS_COPY as COPY } from './copy';
import { SecretShownOnce } from './SecretShownOnce';

type Output = z.output<typeof CreateApiKeyInput>;

/** The expiries offered, in days (null: never). */
const EXPIRIES = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
  { days: 730, label: '2 years' },
  { days: null, label: 'Never' },
] as const;

const STATUS = { ACTIVE: 'Active', EXPIRED: 'Expired', REVOKED: 'Revoked' } as const;
const when = (iso: string | null, none: string) => (iso ? formatDateTime(iso) : none);

export default function ApiKeysPage() {
  const keys = useCall((signal) => client.call(apiKeyList, { signal }).then((r) => r.data), []);
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const columns: Column<ApiKey>[] = [
    { header: 'Name', cell: (k) => <strong>{k.name}</strong> },
    { header: 'Key', cell: (k) => <code>{k.prefix}</code> },
    {
      header: 'Scopes',
      cell: (k) => (
        <ul className="key-scopes">
          {k.scopes.map((s) => (
            <li key={s}>
              <code title={SCOPE_TEXT[s]}>{s}</code>
            </li>
          ))}
        </ul>
      ),
    },
    { header: 'Created', cell: (k) => formatDateTime(k.createdAt) },
    { header: 'Expires', cell: (k) => when(k.expiresAt, 'Never') },
    { header: 'Last used', cell: (k) => when(k.lastUsedAt, 'Never') },
    { header: 'Status', cell: (k) => STATUS[k.status] },
    {
      header: 'Action',
      cell: (k) =>
        k.status === 'ACTIVE' ? (
          <button type="button" className="btn btn-secondary" onClick={() => setRevoking(k)}>
            Revoke<span className="visually-hidden"> {k.name}</span>
          </button>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <section aria-labelledby="api-keys-title">
      <div className="page-head">
        <h2 id="api-keys-title">API keys</h2>
        <button type="button" className="btn" onClick={() => setCreating(true)}>
          Create API key
        </button>
      </div>
      <p className="muted">{COPY.keysIntro}</p>
      {keys.error ? <LoadFailed error={keys.error} /> : null}
      {keys.loading && !keys.data ? <Loader /> : null}
      {keys.data ? (
        <DataTable
          caption="API keys"
          columns={columns}
          rows={keys.data}
          rowKey={(k) => k._id}
          empty={COPY.noKeys}
        />
      ) : null}
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(name, key) => {
          setCreating(false);
          setMade({ name, key });
          keys.reload();
        }}
      />
      <SecretShownOnce
        title={`API key “${made?.name ?? ''}” created`}
        label="The API key"
        secret={made?.key ?? null}
        onClose={() => setMade(null)}
      />
      <RevokeDialog
        apiKey={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={() => {
          setRevoking(null);
          keys.reload();
        }}
      />
    </section>
  );
}

function CreateKeyDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (name: string, key: string) => void;
}) {
  const formId = useId();
  const form = useForm<CreateInput, unknown, Output>({
    resolver: zodResolver(CreateApiKeyInput),
    defaultValues: { name: '', scopes: [], expiresInDays: 90 },
  });
  const { register, handleSubmit, formState, reset, setError } = form;
  useEffect(() => {
    if (open) reset({ name: '', scopes: [], expiresInDays: 90 });
  }, [open, reset]);
  const submit = handleSubmit(async (body) => {
    try {
      const res = await client.call(createApiKey, { body });
      onCreated(res.data.name, res.data.key);
    } catch (err) {
      setError('name', { type: 'server', message: messageOf(err, COPY.createFailed) });
    }
  });
  const scopesError = formState.errors.scopes?.message ?? formState.errors.scopes?.root?.message;
  return (
    <Dialog
      open={open}
      title="Create API key"
      onClose={onClose}
      actions={
        <FormDialogActions formId={formId} busy={formState.isSubmitting} onCancel={onClose} submit="Create" />
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <Field label="Name" error={formState.errors.name?.message} hint={COPY.nameHint} required>
          <input type="text" maxLength={100} autoComplete="off" {...register('name')} />
        </Field>
        <fieldset className="scope-list" aria-describedby={scopesError ? `${formId}-scopes` : undefined}>
          <legend>
            Scopes<span aria-hidden="true"> *</span>
          </legend>
          {API_SCOPES.map((scope) => (
            <label key={scope}>
              <input type="checkbox" value={scope} {...register('scopes')} />
              <span>
                <code>{scope}</code> — {SCOPE_TEXT[scope]}
              </span>
            </label>
          ))}
          {scopesError ? (
            <p id={`${formId}-scopes`} className="field-error" role="alert">
              {scopesError}
            </p>
          ) : null}
        </fieldset>
        <Field label="Expires after" hint={COPY.expiryHint}>
          <select
            {...register('expiresInDays', {
              setValueAs: (v: string | number | null) => (v === '' || v === null ? null : Number(v)),
            })}
          >
            {EXPIRIES.map((e) => (
              <option key={e.label} value={e.days ?? ''}>
                {e.label}
              </option>
            ))}
          </select>
        </Field>
      </form>
    </Dialog>
  );
}

function RevokeDialog({
  apiKey,
  onClose,
  onRevoked,
}: {
  apiKey: ApiKey | null;
  onClose: () => void;
  onRevoked: () => void;
}) {
  return (
    <ConfirmDialog
      open={apiKey !== null}
      title={`Revoke “${apiKey?.name ?? ''}”?`}
      action="Revoke"
      run={() => client.call(revokeApiKey, { params: { id: apiKey!._id } })}
      done={COPY.revoked(apiKey?.name ?? '')}
      failed={COPY.revokeFailed}
      onClose={onClose}
      onDone={onRevoked}
    >
      <p>{COPY.revokeWarning}</p>
    </ConfirmDialog>
  );
}
