/**
 * /portal/integrations/provisioning (issue 28 item 2; decision 043): what an identity provider needs to
 * provision the tenant's learners over SCIM — the base URL and a token (shown once) — and the tenant's tokens,
 * each rotatable (a new one replaces it at once) and revocable.
 */
import { createScimToken, revokeScimToken, scimSettings } from '@shared/contract/integrations';
import { messageKey } from '@shared/i18n/keys';
import { formatDateTime } from '@shared/rules/format-date';
import type { ScimToken } from '@shared/schemas/integrations';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SecretShownOnce } from './SecretShownOnce';

const STATUS = {
  ACTIVE: messageKey('integrations.scim.active'),
  REVOKED: messageKey('integrations.scim.revoked'),
} as const;

export default function ProvisioningPage() {
  const { t, locale } = useI18n();
  const settings = useCall((signal) => client.call(scimSettings, { signal }).then((r) => r.data), []);
  const [creating, setCreating] = useState<{ replaces?: ScimToken } | null>(null);
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<ScimToken | null>(null);

  const columns: Column<ScimToken>[] = [
    { header: t('integrations.scim.colName'), cell: (k) => <strong>{k.name}</strong> },
    { header: t('integrations.scim.colToken'), cell: (k) => <code dir="ltr">{k.prefix}</code> },
    {
      header: t('integrations.scim.colCreated'),
      cell: (k) => formatDateTime(k.createdAt, undefined, locale),
    },
    {
      header: t('integrations.scim.colLastUsed'),
      cell: (k) =>
        k.lastUsedAt ? formatDateTime(k.lastUsedAt, undefined, locale) : t('integrations.scim.never'),
    },
    { header: t('integrations.scim.colStatus'), cell: (k) => t(STATUS[k.status]) },
    {
      header: t('integrations.scim.colAction'),
      cell: (k) =>
        k.status === 'ACTIVE' ? (
          <span className="row-actions">
            <button type="button" className="btn btn-secondary" onClick={() => setCreating({ replaces: k })}>
              {t('integrations.scim.rotate')}
              <span className="visually-hidden"> {k.name}</span>
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => setRevoking(k)}>
              {t('integrations.scim.revoke')}
              <span className="visually-hidden"> {k.name}</span>
            </button>
          </span>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <section aria-labelledby="scim-title">
      <div className="page-head">
        <h2 id="scim-title">{t('integrations.scim.title')}</h2>
        <button type="button" className="btn" onClick={() => setCreating({})}>
          {t('integrations.scim.create')}
        </button>
      </div>
      <p className="muted">{t('integrations.scim.intro')}</p>
      {settings.error ? <LoadFailed error={settings.error} /> : null}
      {settings.loading && !settings.data ? <Loader /> : null}
      {settings.data ? (
        <>
          <dl className="integration-facts">
            <dt>{t('integrations.scim.baseUrl')}</dt>
            <dd>
              <code dir="ltr">{settings.data.baseUrl}</code>
            </dd>
          </dl>
          <DataTable
            caption={t('integrations.scim.tokensCaption')}
            columns={columns}
            rows={settings.data.tokens}
            rowKey={(t) => t._id}
            empty={t('integrations.scim.noTokens')}
          />
        </>
      ) : null}
      <CreateTokenDialog
        request={creating}
        onClose={() => setCreating(null)}
        onCreated={(name, token) => {
          setCreating(null);
          setMade({ name, token });
          settings.reload();
        }}
      />
      <SecretShownOnce
        title={t('integrations.scim.createdTitle', { name: made?.name ?? '' })}
        label={t('integrations.scim.secretLabel')}
        secret={made?.token ?? null}
        intro={t('integrations.scim.shownOnce')}
        onClose={() => setMade(null)}
      />
      <RevokeTokenDialog
        token={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={() => {
          setRevoking(null);
          settings.reload();
        }}
      />
    </section>
  );
}

function CreateTokenDialog({
  request,
  onClose,
  onCreated,
}: {
  request: { replaces?: ScimToken } | null;
  onClose: () => void;
  onCreated: (name: string, token: string) => void;
}) {
  const { t } = useI18n();
  const formId = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const replaces = request?.replaces;
  const [shownFor, setShownFor] = useState<typeof request>(null);
  if (request !== shownFor) {
    setShownFor(request);
    setName(replaces?.name ?? '');
    setError(null);
  }
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(t('integrations.scim.required'));
      return;
    }
    setBusy(true);
    try {
      const res = await client.call(createScimToken, {
        body: { name, ...(replaces ? { replaces: replaces._id } : {}) },
      });
      onCreated(res.data.name, res.data.token);
    } catch (err) {
      setError(messageOf(err, t('integrations.scim.tokenFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={request !== null}
      title={
        replaces ? t('integrations.scim.rotateTitle', { name: replaces.name }) : t('integrations.scim.create')
      }
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('integrations.scim.cancel')}
          </button>
          <button type="submit" form={formId} className="btn" disabled={busy}>
            {busy ? <Spinner /> : null}{' '}
            {replaces ? t('integrations.scim.rotate') : t('integrations.scim.createButton')}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        {replaces ? <p>{t('integrations.scim.rotateWarning')}</p> : null}
        <Field
          label={t('integrations.scim.name')}
          error={error ?? undefined}
          hint={t('integrations.scim.tokenHint')}
          required
        >
          <input
            type="text"
            maxLength={100}
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
      </form>
    </Dialog>
  );
}

function RevokeTokenDialog({
  token,
  onClose,
  onRevoked,
}: {
  token: ScimToken | null;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const { t } = useI18n();
  const name = token?.name ?? '';
  return (
    <ConfirmDialog
      open={token !== null}
      title={t('integrations.scim.revokeTitle', { name })}
      action={t('integrations.scim.revoke')}
      run={() => client.call(revokeScimToken, { params: { id: token!._id } })}
      done={t('integrations.scim.revokeDone', { name })}
      failed={t('integrations.scim.revokeFailed')}
      onClose={onClose}
      onDone={onRevoked}
    >
      <p>{t('integrations.scim.revokeWarning')}</p>
    </ConfirmDialog>
  );
}
