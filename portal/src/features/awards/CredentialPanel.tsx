/**
 * The award's Open Badges 3.0 credential on its page: whether it stands or was revoked, Verify, the
 * credential as JSON (what OB 3.0 wallets import), the image with the credential baked in (a PNG with an
 * `openbadgecredential` iTXt chunk), and — for the mentor whose test it was, or platform staff — Revoke,
 * with a reason.
 */
import { ApiError } from '@shared/client/client';
import { credentialStatus, getCredential, revokeCredential } from '@shared/contract/credentials';
import { bakeCredential } from '@shared/credentials/png';
import { formatDate } from '@shared/rules/format-date';
import type { AwardKind } from '@shared/schemas/award';
import type { CredentialStatusInfo } from '@shared/schemas/credential';
import { client } from '@widgets/core/api';
import { type CallState, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormDialogActions } from '../../components/FormDialogActions';
import { saveBlob } from './generate';

export const CREDENTIAL_TEXT = {
  bakeFailed: "Couldn't get the image with its credential ready. Please try later",
  revoked: 'The award is revoked. Its credential now verifies as revoked.',
  statusFailed: "Couldn't check whether this credential still stands just now.",
} as const;

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
  const [baking, setBaking] = useState(false);
  const [revoking, setRevoking] = useState(false);
  // the links need only the award id: the panel shows at once, its standing when the status call answers
  const info = status.data?.awardId === awardId ? status.data : null;
  const json = `waymark-${kind}-${awardId}.json`;
  const credentialUrl = info?.credentialUrl ?? `/api/credentials/${encodeURIComponent(awardId)}`;

  async function downloadBaked() {
    if (!renderPng) {
      toast('Please try later in desktop or laptop to download the image.', { kind: 'info' });
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
      toast(CREDENTIAL_TEXT.bakeFailed, { kind: 'error' });
    } finally {
      setBaking(false);
    }
  }

  return (
    <section className="award-credential" aria-labelledby="award-credential-title">
      <h3 id="award-credential-title">Verifiable credential</h3>
      {info ? (
        <CredentialState info={info} />
      ) : status.error && !status.loading ? (
        <p className="muted" role="status">
          {CREDENTIAL_TEXT.statusFailed}{' '}
          <button type="button" className="btn btn-link" onClick={status.reload}>
            Try again
          </button>
        </p>
      ) : null}
      <div className="award-actions">
        <Link className="btn btn-secondary" to={`/verify/${awardId}`}>
          Verify
        </Link>
        <a className="btn btn-secondary" href={credentialUrl} download={json} type="application/vc+ld+json">
          Download credential (JSON)
        </a>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void downloadBaked()}
          disabled={baking}
        >
          {baking ? (
            <>
              <Spinner /> Preparing the image…
            </>
          ) : (
            'Download image with credential (PNG)'
          )}
        </button>
        {info?.canRevoke ? (
          <button type="button" className="btn btn-danger" onClick={() => setRevoking(true)}>
            Revoke award
          </button>
        ) : null}
      </div>
      <RevokeDialog
        open={revoking}
        awardId={awardId}
        onClose={() => setRevoking(false)}
        onRevoked={() => {
          setRevoking(false);
          toast(CREDENTIAL_TEXT.revoked, { kind: 'success' });
          status.reload();
        }}
      />
    </section>
  );
}

function CredentialState({ info }: { info: CredentialStatusInfo }) {
  if (info.status === 'revoked') {
    return (
      <p className="alert alert-error" role="status">
        <strong>Revoked</strong>
        {info.revokedAt ? (
          <>
            {' '}
            on <time dateTime={info.revokedAt}>{formatDate(info.revokedAt, 'UTC')}</time>
          </>
        ) : null}
        : this award no longer stands.{info.reason ? ` Reason: ${info.reason}` : ''}
      </p>
    );
  }
  return (
    <p className="muted">
      An Open Badges 3.0 credential signed by <code>{info.issuer}</code>: anyone can check it, here or with
      any Open Badges verifier, and keep it in a wallet.
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
      setError(
        err instanceof ApiError ? err.message : 'The award could not be revoked just now. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={open}
      title="Revoke this award?"
      onClose={onClose}
      actions={
        <FormDialogActions formId="revoke-form" busy={busy} onCancel={onClose} submit="Revoke" danger />
      }
    >
      <form
        id="revoke-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p>
          Its credential will verify as revoked for everyone, within a minute. The learner keeps the
          credential but it no longer stands. This cannot be undone.
        </p>
        <div className="field">
          <label htmlFor="revoke-reason">Reason (recorded; shown to the learner)</label>
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
