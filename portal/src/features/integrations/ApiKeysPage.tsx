/**
 * /portal/integrations/api-keys (issue 28 item 3): the tenant's API keys — name, the visible part of the
 * key, scopes, expiry, last use and status — with Create API key (a name, its scopes, an expiry; the whole
 * key shown once, to copy) and Revoke (asked first; the key stops at once).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { apiKeyList, createApiKey, revokeApiKey } from '@shared/contract/integrations';
import type { MessageKey } from '@shared/i18n/keys';
import { formatDateTime } from '@shared/rules/format-date';
import {
  API_SCOPES,
  type ApiKey,
  type ApiScope,
  CreateApiKeyInput,
  type CreateApiKeyInput as CreateInput,
} from '@shared/schemas/integrations';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDialogActions } from '../../components/FormDialogActions';
import { SecretShownOnce } from './SecretShownOnce';

type Output = z.output<typeof CreateApiKeyInput>;

/** The expiries offered, in days (null: never). */
const EXPIRIES = [30, 90, 365, 730, null] as const;

/** What each scope lets a key do. */
const SCOPE: Record<ApiScope, MessageKey> = {
  'seats:read': 'apiKeys.scope.seatsRead',
  'seats:write': 'apiKeys.scope.seatsWrite',
  'reports:read': 'apiKeys.scope.reportsRead',
  'assessments:write': 'apiKeys.scope.assessmentsWrite',
  'questions:write': 'apiKeys.scope.questionsWrite',
  'integrations:manage': 'apiKeys.scope.integrationsManage',
};

export default function ApiKeysPage() {
  const { t, locale } = useI18n();
  const when = (iso: string | null) =>
    iso ? formatDateTime(iso, undefined, locale) : t('integrations.never');
  const keys = useCall((signal) => client.call(apiKeyList, { signal }).then((r) => r.data), []);
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const columns: Column<ApiKey>[] = [
    { header: t('integrations.name'), cell: (k) => <strong>{k.name}</strong> },
    { header: t('apiKeys.key'), cell: (k) => <code>{k.prefix}</code> },
    {
      header: t('apiKeys.scopes'),
      cell: (k) => (
        <ul className="key-scopes">
          {k.scopes.map((s) => (
            <li key={s}>
              <code title={t(SCOPE[s])}>{s}</code>
            </li>
          ))}
        </ul>
      ),
    },
    { header: t('apiKeys.created'), cell: (k) => formatDateTime(k.createdAt, undefined, locale) },
    { header: t('apiKeys.expires'), cell: (k) => when(k.expiresAt) },
    { header: t('apiKeys.lastUsed'), cell: (k) => when(k.lastUsedAt) },
    { header: t('integrations.status'), cell: (k) => t('apiKeys.status', { status: k.status }) },
    {
      header: t('integrations.action'),
      cell: (k) =>
        k.status === 'ACTIVE' ? (
          <button type="button" className="btn btn-secondary" onClick={() => setRevoking(k)}>
            <Rich
              k="apiKeys.revoke"
              values={{ name: k.name }}
              components={{ 0: <span className="visually-hidden" /> }}
            />
          </button>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <section aria-labelledby="api-keys-title">
      <div className="page-head">
        <h2 id="api-keys-title">{t('integrations.nav.apiKeys')}</h2>
        <button type="button" className="btn" onClick={() => setCreating(true)}>
          {t('apiKeys.create')}
        </button>
      </div>
      <p className="muted">{t('apiKeys.intro')}</p>
      {keys.error ? <LoadFailed error={keys.error} /> : null}
      {keys.loading && !keys.data ? <Loader /> : null}
      {keys.data ? (
        <DataTable
          caption={t('integrations.nav.apiKeys')}
          columns={columns}
          rows={keys.data}
          rowKey={(k) => k._id}
          empty={t('apiKeys.none')}
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
        title={t('apiKeys.madeTitle', { name: made?.name ?? '' })}
        label={t('apiKeys.theKey')}
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
  const { t } = useI18n();
  const formId = useId();
  const formWords = useFormWords();
  const form = useForm<CreateInput, unknown, Output>({
    resolver: zodResolver(CreateApiKeyInput, formWords),
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
      setError('name', { type: 'server', message: messageOf(err, t('apiKeys.createFailed')) });
    }
  });
  const scopesError = formState.errors.scopes?.message ?? formState.errors.scopes?.root?.message;
  return (
    <Dialog
      open={open}
      title={t('apiKeys.create')}
      onClose={onClose}
      actions={
        <FormDialogActions
          formId={formId}
          busy={formState.isSubmitting}
          onCancel={onClose}
          submit={t('apiKeys.createSubmit')}
        />
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <Field
          label={t('integrations.name')}
          error={formState.errors.name?.message}
          hint={t('apiKeys.nameHint')}
          required
        >
          <input type="text" maxLength={100} autoComplete="off" {...register('name')} />
        </Field>
        <fieldset className="scope-list" aria-describedby={scopesError ? `${formId}-scopes` : undefined}>
          <legend>
            {t('apiKeys.scopes')}
            <span aria-hidden="true"> *</span>
          </legend>
          {API_SCOPES.map((scope) => (
            <label key={scope}>
              <input type="checkbox" value={scope} {...register('scopes')} />
              <span>
                <code>{scope}</code> — {t(SCOPE[scope])}
              </span>
            </label>
          ))}
          {scopesError ? (
            <p id={`${formId}-scopes`} className="field-error" role="alert">
              {t(scopesError as MessageKey)}
            </p>
          ) : null}
        </fieldset>
        <Field label={t('apiKeys.expiresAfter')} hint={t('apiKeys.expiryHint')}>
          <select
            {...register('expiresInDays', {
              setValueAs: (v: string | number | null) => (v === '' || v === null ? null : Number(v)),
            })}
          >
            {EXPIRIES.map((days) => (
              <option key={days ?? 'never'} value={days ?? ''}>
                {days === null
                  ? t('integrations.never')
                  : days % 365 === 0
                    ? t('apiKeys.years', { years: days / 365 })
                    : t('apiKeys.days', { days })}
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
  const { t } = useI18n();
  const name = apiKey?.name ?? '';
  return (
    <ConfirmDialog
      open={apiKey !== null}
      title={t('apiKeys.revokeTitle', { name })}
      action={t('apiKeys.revokeAction')}
      run={() => client.call(revokeApiKey, { params: { id: apiKey!._id } })}
      done={t('apiKeys.revoked', { name })}
      failed={t('apiKeys.revokeFailed')}
      onClose={onClose}
      onDone={onRevoked}
    >
      <p>{t('apiKeys.revokeWarning')}</p>
    </ConfirmDialog>
  );
}
