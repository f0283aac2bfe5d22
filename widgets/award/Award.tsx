/**
 * The award viewer (learner §2 Award pages): loads GET /certificate/certificate-info-v2/{id} through the
 * host's client and shows the feather, badge or certificate — its stored image once generated, else the
 * design drawn live. The award pages build on `useAward` and `AwardView`; <wm-award> shows `Award`.
 */
import { ApiError } from '@shared/client/client';
import * as Awards from '@shared/contract/awards';
import * as Credentials from '@shared/contract/credentials';
import { SANDBOX_WORDS } from '@shared/rules/sandbox';
import { validitySaid, validityState } from '@shared/rules/validity';
import type { AwardKind, CertificateInfo } from '@shared/schemas/award';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useEffect, useMemo, useState } from 'react';
import { Rich, useI18n } from '../core/i18n';
import { useCall } from '../core/useCall';
import { failure } from '../embed/failure';
import { Slot, useWidgetHost } from '../embed/host';
import { ART_CLASSES, AwardArt, describeAward } from './AwardArt';
import { AWARD_TEXT, type AwardModel, awardModel, IMAGE_SIZE, kindOfAward } from './model';
import { AwardProps } from './props';

export type AwardState =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'error'; error: Error }
  | {
      status: 'ready';
      info: CertificateInfo;
      model: AwardModel;
      /** Shows newer info (e.g. what PUT /certificate/create-v2/{id} returned). */
      replace(info: CertificateInfo): void;
    };

/** The award of a link: loading, not found (no award, or not of the kind asked for), failed, or ready. */
export function useAward(linkId: string, kind?: AwardKind): AwardState {
  const host = useWidgetHost();
  const i18n = useI18n();
  const [newer, setNewer] = useState<CertificateInfo | null>(null);
  const call = useCall(
    (signal) =>
      host.client.call(Awards.certificateInfo, { params: { id: linkId }, signal }).then((r) => r.data),
    [host.client, linkId],
  );
  // the client keeps the last data while loading another link: that award is not this one
  const info = newer?.linkId === linkId ? newer : call.data?.linkId === linkId ? call.data : null;
  return useMemo<AwardState>(() => {
    if (call.error) {
      return call.error instanceof ApiError && (call.error.status === 404 || call.error.status === 400)
        ? { status: 'not-found' }
        : { status: 'error', error: call.error };
    }
    if (!info) return { status: 'loading' };
    const shown = kindOfAward(info, kind);
    if (!shown) return { status: 'not-found' };
    return { status: 'ready', info, model: awardModel(info, shown, i18n), replace: setNewer };
  }, [call.error, info, kind, i18n]);
}

/** The stored image, when `view` allows it and it exists; else the live design. */
export function AwardView({
  info,
  model,
  view = 'auto',
  artRef,
}: {
  info: CertificateInfo;
  model: AwardModel;
  view?: 'auto' | 'live';
  artRef?: { current: HTMLDivElement | null };
}) {
  const i18n = useI18n();
  if (view === 'auto' && info.certificateGenerated && info.s3CertificateUrl) {
    return (
      <img
        className={`wm-award-image ${ART_CLASSES[model.kind]}`}
        part="image"
        src={info.s3CertificateUrl}
        {...IMAGE_SIZE[model.kind]}
        alt={describeAward(model, i18n)}
      />
    );
  }
  return <AwardArt model={model} artRef={artRef} />;
}

export function AwardNotFound() {
  const { t } = useI18n();
  return (
    <div className="alert alert-warning wm-award-missing" role="status" part="error">
      <Slot name="not-found">
        <strong>{t(AWARD_TEXT.notFoundTitle)}</strong>
        <span>{t(AWARD_TEXT.notFound)}</span>
      </Slot>
    </div>
  );
}

/**
 * The credential's standing — 'Verified' (an Open Badges 3.0 credential that stands) or 'Revoked' — and who
 * issued it, by its DID: the server the award comes from says which DID is its own, never a name.
 */
function VerifiedMark({ linkId }: { linkId: string }) {
  const host = useWidgetHost();
  const { t } = useI18n();
  const call = useCall(
    (signal) =>
      host.client.call(Credentials.credentialStatus, { params: { id: linkId }, signal }).then((r) => r.data),
    [host.client, linkId],
  );
  const info = call.data?.awardId === linkId ? call.data : null;
  if (!info) return null;
  return (
    <>
      <span className={`wm-award-mark wm-award-${info.status}`} part="verified">
        {info.status === 'revoked' ? `⊘ ${t('award.revoked')}` : `✓ ${t('award.verified')}`}
      </span>
      <span className="wm-award-issuer" part="issuer">
        <Rich k="award.issuedBy" values={{ issuer: info.issuer }} components={{ 0: <code dir="ltr" /> }} />
      </span>
    </>
  );
}

/** 'Valid until 3rd Mar 2027' or 'Expired on …' for an award that expires (decision 037); nothing otherwise. */
function Validity({ info }: { info: CertificateInfo }) {
  const { t, locale } = useI18n();
  const until = info.validity?.validUntil ?? null;
  if (!until) return null;
  const expired = validityState(until) === 'expired';
  const said = validitySaid(until, Date.now(), 'UTC', locale);
  return (
    <span className={`wm-award-validity${expired ? ' wm-award-expired' : ''}`} part="validity">
      <time dateTime={until}>{t(said.code, said.params)}</time>
    </span>
  );
}

/** <wm-award>: the award, its credential's standing and a link to verify it. */
export function Award(input: AwardProps) {
  const { linkId, kind, view } = AwardProps.parse(input);
  const host = useWidgetHost();
  const { t } = useI18n();
  const award = useAward(linkId, kind);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once per award shown, failure or not-found
  useEffect(() => {
    if (award.status === 'ready') {
      host.emit('wm-load', {
        linkId,
        kind: award.model.kind,
        name: award.model.achievement,
        learner: award.model.learner,
        imageUrl: award.info.certificateGenerated ? award.info.s3CertificateUrl : null,
      });
      host.emit('wm-ready', { linkId });
    } else if (award.status === 'not-found') {
      host.emit('wm-error', { status: 404, code: 'not-found', message: t(AWARD_TEXT.notFoundTitle) });
    } else if (award.status === 'error') {
      host.emit('wm-error', failure(t(AWARD_TEXT.loadFailed), award.error));
    }
  }, [award.status === 'ready' ? award.info : award.status]);

  if (award.status === 'loading') {
    return (
      <p className="wm-award-loading" role="status">
        {t(AWARD_TEXT.loading)}
      </p>
    );
  }
  if (award.status === 'not-found') return <AwardNotFound />;
  if (award.status === 'error') {
    return <LoadFailed part="error">{t(AWARD_TEXT.loadFailed)}</LoadFailed>;
  }
  return (
    <figure className="wm-award" part="award">
      <AwardView info={award.info} model={award.model} view={view} />
      <figcaption className="wm-award-caption">
        {award.info.sandbox ? (
          // a sandbox's award is no credential: nothing to verify (decision 041)
          <span className="wm-award-mark wm-award-sandbox" part="sandbox">
            {t(SANDBOX_WORDS.award)}
          </span>
        ) : (
          <>
            <VerifiedMark linkId={linkId} />
            <Validity info={award.info} />
            <a
              href={award.model.verifyUrl.replace(/\/(feather|badge|certificate)\//, '/verify/')}
              target="_blank"
              rel="noopener"
              part="verify-link"
            >
              {t('award.verifyOn', { kind: award.model.kind, issuer: award.model.issuer })}
              <span className="visually-hidden"> {t('common.opensInNewTab')}</span>
            </a>
          </>
        )}
      </figcaption>
    </figure>
  );
}
