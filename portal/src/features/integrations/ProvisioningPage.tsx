/**
 * /portal/integrations/provisioning (issue 28 item 2; decision 043): what an identity provider needs to
 * provision the tenant's learners over SCIM — the base URL and a token (shown once) — and the tenant's tokens,
 * each rotatable (a new one replaces it at once) and revocable.
 */
import { createScimToken, revokeScimToken, scimSettings } from '@shared/contract/integrations';
import { formatDateTime } from '@shared/rules/format-date';
import type { ScimToken } from '@shared/schemas/integrations';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useId, useState } from 'react';
import { ConfirmDialog } from './ConfirmDialog';
import { SSO_SCIM_COPY as COPY } from './copy';
import { SecretShownOnce } from './SecretShownOnce';

const STATUS = { ACTIVE: 'Active', REVOKED: 'Revoked' } as const;

export default function ProvisioningPage() {
  const settings = useCall((signal) => client.call(scimSettings, { signal }).then((r) => r.data), []);
  const [creating, setCreating] = useState<{ replaces?: ScimToken } | null>(null);
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<ScimToken | null>(null);

  const columns: Column<ScimToken>[] = [
    { header: 'Name', cell: (t) => <strong>{t.name}</strong> },
    { header: 'Token', cell: (t) => <code>{t.prefix}</code> },
    { header: 'Created', cell: (t) => formatDateTime(t.createdAt) },
    { header: 'Last used', cell: (t) => (t.lastUsedAt ? formatDateTime(t.lastUsedAt) : 'Never') },
    { header: 'Status', cell: (t) => STATUS[t.status] },
    {
      header: 'Action',
      cell: (t) =>
        t.status === 'ACTIVE' ? (
          <span className="row-actions">
            <button type="button" className="btn btn-secondary" onClick={() => setCreating({ replaces: t })}>
              Rotate<span className="visually-hidden"> {t.name}</span>
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => setRevoking(t)}>
              Revoke<span className="visually-hidden"> {t.name}</span>
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
        <h2 id="scim-title">Provisioning (SCIM)</h2>
        <button type="button" className="btn" onClick={() => setCreating({})}>
          Create SCIM token
        </button>
      </div>
      <p className="muted">{COPY.scimIntro}</p>
      {settings.error ? <LoadFailed error={settings.error} /> : null}
      {settings.loading && !settings.data ? <Loader /> : null}
      {settings.data ? (
        <>
          <dl className="integration-facts">
            <dt>{COPY.baseUrl}</dt>
            <dd>
              <code>{settings.data.baseUrl}</code>
            </dd>
          </dl>
          <DataTable
            caption="SCIM tokens"
            columns={columns}
            rows={settings.data.tokens}
            rowKey={(t) => t._id}
            empty={COPY.noTokens}
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
        title={`SCIM token “${made?.name ?? ''}” created`}
        label="The SCIM token"
        secret={made?.token ?? null}
        intro={COPY.tokenShownOnce}
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
      setError('Required');
      return;
    }
    setBusy(true);
    try {
      const res = await client.call(createScimToken, {
        body: { name, ...(replaces ? { replaces: replaces._id } : {}) },
      });
      onCreated(res.data.name, res.data.token);
    } catch (err) {
      setError(messageOf(err, COPY.tokenFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={request !== null}
      title={replaces ? `Rotate “${replaces.name}”` : 'Create SCIM token'}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn" disabled={busy}>
            {busy ? <Spinner /> : null} {replaces ? 'Rotate' : 'Create'}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        {replaces ? <p>{COPY.rotateWarning}</p> : null}
        <Field label="Name" error={error ?? undefined} hint={COPY.tokenHint} required>
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
  return (
    <ConfirmDialog
      open={token !== null}
      title={`Revoke “${token?.name ?? ''}”?`}
      action="Revoke"
      run={() => client.call(revokeScimToken, { params: { id: token!._id } })}
      done={`The SCIM token “${token?.name ?? ''}” was revoked.`}
      failed="The token could not be revoked. Please try again."
      onClose={onClose}
      onDone={onRevoked}
    >
      <p>{COPY.revokeWarning}</p>
    </ConfirmDialog>
  );
}
