/**
 * The award's Open Badges 3.0 credential on its page: whether it stands or was revoked, Verify, the
 * credential as JSON (what OB 3.0 wallets import), the image with the credential baked in (a PNG with an
 * `openbadgecredential` iTXt chunk), and — for the mentor whose test it was, or platform staff — Revoke,
 * with a reason.
 */
import { ApiError } from '@shared/client/client';
import { credentialStatus, getCredential, revokeCredential } from '@shared/contract/credentials';
import { bakeCredential } from '@shared/credentials/png';
import type { MessageKey } from '@shared/i18n/keys';
import { formatDate } from '@shared/rules/format-date';
import type { AwardKind } from '@shared/schemas/award';
import type { CredentialStatusInfo } from '@shared/schemas/credential';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { type CallState, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormDialogActions } from '../../components/FormDialogActions';
import { saveBlob } from './generate';

export const CREDENTIAL_TEXT = {
  bakeFailed: 'credential.bakeFailed',
  revoked: 'credential.revokedToast',
  statusFailed: 'credential.statusFailed',
} as const satisfies Record<string, MessageKey>;

/**
 * The credential's standing (GET /credentials/{id}/status). The award page asks for it before it starts
 * drawing the award's image: drawing holds the browser's main thread for seconds (tens of seconds on a
 * loaded machine), and an answer that comes meanwhile is not shown until it ends.
 */
export function useCredentialStatus(awardId: string | null): CallState<CredentialStatusInfo> {
  // a sandbox's award (null) has no credential to ask about (decision 041)
  return useCall(
    (signal) =>
      awardId === null
        ? Promise.reject(new Error('no credential'))
        : client.call(credentialStatus, { params: { id: awardId }, signal }).then((r) => r.data),
    [awardId],
  );
}

export function CredentialPanel({
  awardId,
  kind,
  status,
  renderPng,
}: {
  awardId: string;
  kind: AwardKind;
  /** The credential's standing, from useCredentialStatus. */
  status: CallState<CredentialStatusInfo>;
  /** The award's design as a PNG (null when it cannot be drawn here, e.g. a narrow window). */
  renderPng: (() => Promise<Blob>) | null;
}) {
  const { t } = useI18n();
  const [baking, setBaking] = useState(false);
  const [revoking, setRevoking] = useState(false);
  // the links need only the award id: the panel shows at once, its standing when the status call answers
  const info = status.data?.awardId === awardId ? status.data : null;
  const json = `waymark-${kind}-${awardId}.json`;
  const credentialUrl = info?.credentialUrl ?? `/api/credentials/${encodeURIComponent(awardId)}`;

  async function downloadBaked() {
    if (!renderPng) {
      toast(t('awardPage.desktopLater'), { kind: 'info' });
      return;
    }
    setBaking(true);
    try {
      const [png, credential] = await Promise.all([
        renderPng(),
        client.call(getCredential, { params: { id: awardId } }),
      ]);
      const baked = bakeCredential(new Uint8Array(await png.arrayBuffer()), JSON.stringify(credential));
      saveBlob(new Blob([baked.slice()], { type: 'image/png' }), `waymark-${kind}-${awardId}.png`);
    } catch (err) {
      console.error('baked image', err);
      toast(t(CREDENTIAL_TEXT.bakeFailed), { kind: 'error' });
    } finally {
      setBaking(false);
    }
  }

  return (
    <section className="award-credential" aria-labelledby="award-credential-title">
      <h3 id="award-credential-title">{t('credential.title')}</h3>
      {info ? (
        <CredentialState info={info} />
      ) : status.error && !status.loading ? (
        <p className="muted" role="status">
          {t(CREDENTIAL_TEXT.statusFailed)}{' '}
          <button type="button" className="btn btn-link" onClick={status.reload}>
            {t('common.tryAgain')}
          </button>
        </p>
      ) : null}
      <div className="award-actions">
        <Link className="btn btn-secondary" to={`/verify/${awardId}`}>
          {t('credential.verify')}
        </Link>
        <a className="btn btn-secondary" href={credentialUrl} download={json} type="application/vc+ld+json">
          {t('credential.downloadJson')}
        </a>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void downloadBaked()}
          disabled={baking}
        >
          {baking ? (
            <>
              <Spinner /> {t('awardPage.preparing')}
            </>
          ) : (
            t('credential.downloadPng')
          )}
        </button>
        {info?.canRevoke ? (
          <button type="button" className="btn btn-danger" onClick={() => setRevoking(true)}>
            {t('credential.revokeAward')}
          </button>
        ) : null}
      </div>
      <RevokeDialog
        open={revoking}
        awardId={awardId}
        onClose={() => setRevoking(false)}
        onRevoked={() => {
          setRevoking(false);
          toast(t(CREDENTIAL_TEXT.revoked), { kind: 'success' });
          status.reload();
        }}
      />
    </section>
  );
}

function CredentialState({ info }: { info: CredentialStatusInfo }) {
  const { t, locale } = useI18n();
  if (info.status === 'revoked') {
    return (
      <p className="alert alert-error" role="status">
        <Rich
          k={info.revokedAt ? 'credential.revokedOn' : 'credential.revoked'}
          values={{ date: info.revokedAt ? formatDate(info.revokedAt, 'UTC', locale) : '' }}
          components={{ 0: <strong />, 1: <time dateTime={info.revokedAt ?? undefined} /> }}
        />
        {info.reason ? ` ${t('credential.reason', { reason: info.reason })}` : ''}
      </p>
    );
  }
  return (
    <p className="muted">
      <Rich k="credential.signedBy" values={{ issuer: info.issuer }} components={{ 0: <code dir="ltr" /> }} />
    </p>
  );
}

function RevokeDialog({
  open,
  awardId,
  onClose,
  onRevoked,
}: {
  open: boolean;
  awardId: string;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit() {
    setBusy(true);
    setError(null);
    try {
      await client.call(revokeCredential, { params: { id: awardId }, body: { reason } });
      setReason('');
      onRevoked();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('credential.revokeFailed'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={open}
      title={t('credential.revokeQuestion')}
      onClose={onClose}
      actions={
        <FormDialogActions
          formId="revoke-form"
          busy={busy}
          onCancel={onClose}
          submit={t('credential.revoke')}
          danger
        />
      }
    >
      <form
        id="revoke-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p>{t('credential.revokeText')}</p>
        <div className="field">
          <label htmlFor="revoke-reason">{t('credential.reasonLabel')}</label>
          <textarea
            id="revoke-reason"
            rows={3}
            required
            minLength={5}
            maxLength={500}
            value={reason}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'revoke-error' : undefined}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        {error ? (
          <p id="revoke-error" className="alert alert-error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
