/**
 * /feather/{id}, /badge/{id}, /certificate/{id} (learner §2 Award pages, §4 Award generation, §8): a
 * learner's award, public and meaningful to anyone — who earned what, when, verified by Waymark — with
 * Download, Copy link and Print for everyone and 'Add to profile' on LinkedIn for the learner who earned
 * it. When that learner opens an award whose image is not generated yet, the page renders the design to a
 * JPEG and stores it (the certificate only in a window at least 1050 px wide).
 */
import '@widgets/award/award.css';
import '../../layout/public.css';
import './awards.css';
import { ApiError } from '@shared/client/client';
import { certificateInfo } from '@shared/contract/awards';
import { CERTIFICATE_MIN_WIDTH } from '@shared/rules/award';
import { SANDBOX_WORDS } from '@shared/rules/sandbox';
import type { AwardKind, CertificateInfo } from '@shared/schemas/award';
import { AwardView, useAward } from '@widgets/award/Award';
import { AWARD_KIND_KEYS, AWARD_TEXT, type AwardModel } from '@widgets/award/model';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useSignalValue } from '@widgets/core/useSignal';
import { Loader } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { PortalWidgets } from '../../components/PortalWidgets';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';
import { currentUser } from '../../lib/auth';
import { AwardAbout, AwardActions, AwardFacts, AwardHero, type ImageState } from './AwardSections';
import { CredentialPanel, useCredentialStatus } from './CredentialPanel';
import { generateAwardImage, imageFileName, renderAwardImage, saveBlob } from './generate';
import { PAGE_TEXT } from './texts';
import { ValidityPanel } from './ValidityPanel';

/** Whether the window is at least `px` wide, kept up to date. */
export function useMinWidth(px: number): boolean {
  const query = `(min-width: ${px}px)`;
  const [wide, setWide] = useState(() => window.matchMedia?.(query).matches ?? window.innerWidth >= px);
  useEffect(() => {
    const list = window.matchMedia?.(query);
    if (!list) return;
    const update = () => setWide(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return wide;
}

function AwardPage({ kind }: { kind: AwardKind }) {
  const { id = '' } = useParams();
  return (
    <PublicPage>
      <PortalWidgets>
        <AwardScreen key={`${kind}/${id}`} linkId={id} kind={kind} />
      </PortalWidgets>
    </PublicPage>
  );
}

export const FeatherPage = () => <AwardPage kind="feather" />;
export const BadgePage = () => <AwardPage kind="badge" />;
export const CertificatePage = () => <AwardPage kind="certificate" />;

function AwardScreen({ linkId, kind }: { linkId: string; kind: AwardKind }) {
  const { t } = useI18n();
  const award = useAward(linkId, kind);
  useDocumentTitle(
    award.status === 'ready'
      ? `${award.model.learner} · ${award.model.title}`
      : award.status === 'not-found'
        ? t(AWARD_TEXT.notFoundTitle)
        : t('column.award'),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: told once per failure
  useEffect(() => {
    if (award.status === 'error') toast(t(AWARD_TEXT.loadFailed), { kind: 'error' });
  }, [award.status]);

  if (award.status === 'loading') {
    return (
      <div className="page-wide">
        <Loader text={t(AWARD_TEXT.loading)} />
      </div>
    );
  }
  if (award.status === 'not-found') return <AwardMissing kind={kind} />;
  if (award.status === 'error') {
    return (
      <div className="page-narrow award-missing">
        <h1>{t(AWARD_TEXT.loadFailed)}</h1>
        <p>{t('awardPage.loadFailedText')}</p>
        <button type="button" className="btn" onClick={() => window.location.reload()}>
          {t('awardPage.reload')}
        </button>
      </div>
    );
  }
  return <AwardDetails info={award.info} model={award.model} onGenerated={award.replace} />;
}

function AwardMissing({ kind }: { kind: AwardKind }) {
  const { t } = useI18n();
  return (
    <div className="page-narrow award-missing">
      <p className="eyebrow">{t(AWARD_KIND_KEYS[kind])}</p>
      <h1>{t(AWARD_TEXT.notFoundTitle)}</h1>
      <p className="lead">{t(AWARD_TEXT.notFound)}</p>
      <p>{t('awardPage.askAgain')}</p>
      <p className="row award-missing-links">
        <Link className="btn" to="/landing">
          {t('awardPage.explore')}
        </Link>
      </p>
    </div>
  );
}

/**
 * The award's image: `generate` renders it and stores it for its learner (a 409 means another tab did);
 * `downloadCopy` renders a copy for a visitor to save. `image` says which is under way, or that it failed;
 * `artRef` is the drawn award they render.
 */
function useAwardImage(info: CertificateInfo, kind: AwardKind, onGenerated: (info: CertificateInfo) => void) {
  const { t } = useI18n();
  const artRef = useRef<HTMLDivElement>(null);
  const [image, setImage] = useState<ImageState>('idle');

  const generate = useCallback(async () => {
    const node = artRef.current;
    if (!node) return;
    setImage('generating');
    try {
      onGenerated(await generateAwardImage(client, node, info, kind));
      setImage('idle');
    } catch (err) {
      // generated meanwhile (another tab): show what the server has
      if (err instanceof ApiError && err.status === 409) {
        const now = await client.call(certificateInfo, { params: { id: info.linkId } }).catch(() => null);
        if (now?.data.certificateGenerated) {
          onGenerated(now.data);
          setImage('idle');
          return;
        }
      }
      console.error('award image', err);
      setImage('failed');
    }
  }, [info, kind, onGenerated]);

  async function downloadCopy() {
    const node = artRef.current;
    if (!node) return;
    setImage('rendering');
    try {
      saveBlob(await renderAwardImage(node, kind), imageFileName(kind, info.linkId));
    } catch (err) {
      console.error('award image', err);
      toast(t(PAGE_TEXT.imageFailed), { kind: 'error' });
    } finally {
      setImage('idle');
    }
  }

  return { artRef, image, generate, downloadCopy };
}

function AwardDetails({
  info,
  model,
  onGenerated,
}: {
  info: CertificateInfo;
  model: AwardModel;
  onGenerated: (info: CertificateInfo) => void;
}) {
  const { t } = useI18n();
  const user = useSignalValue(currentUser);
  const isLearner = info.isOwner && user !== null && user !== 'loading' && user.role === 'USER';
  const wide = useMinWidth(CERTIFICATE_MIN_WIDTH);
  const canRender = model.kind !== 'certificate' || wide;
  const started = useRef(false);
  const stored = info.certificateGenerated && info.s3CertificateUrl ? info.s3CertificateUrl : null;
  const credential = useCredentialStatus(info.sandbox ? null : info.linkId);

  const { artRef, image, generate, downloadCopy } = useAwardImage(info, model.kind, onGenerated);

  // the learner who earned it generates the image when the page loads (the certificate only when wide),
  // once the credential's standing is on the screen: drawing holds the main thread, and what the page
  // reads meanwhile would wait for it (on a loaded machine, longer than anyone waits for a panel)
  const credentialSettled = !credential.loading;
  useEffect(() => {
    if (stored || !isLearner || !canRender || !credentialSettled || started.current) return;
    started.current = true;
    void generate();
  }, [stored, isLearner, canRender, credentialSettled, generate]);

  return (
    <div className={`page-wide award-page award-page-${model.kind}`}>
      <AwardHero sandbox={info.sandbox} model={model} />

      <div className="award-layout">
        <div className="award-stage">
          <AwardView info={info} model={model} view="live" artRef={artRef} />
        </div>

        <aside className="award-panel card" aria-labelledby="award-details-title">
          <h2 id="award-details-title">{t('awardPage.details', { kind: model.kind })}</h2>
          <AwardFacts info={info} model={model} />

          <AwardActions
            info={info}
            model={model}
            stored={stored}
            image={image}
            canRender={canRender}
            isLearner={isLearner}
            onRetry={() => void generate()}
            onRenderCopy={() => void downloadCopy()}
          />
          {image === 'failed' ? (
            <p className="alert alert-error award-note" role="alert">
              {t(PAGE_TEXT.imageFailed)}
            </p>
          ) : null}
          <ValidityPanel info={info} isLearner={isLearner} />
          {info.sandbox ? (
            <p className="alert alert-warning award-note">{t(SANDBOX_WORDS.notCredential)}</p>
          ) : (
            <CredentialPanel
              awardId={info.linkId}
              kind={model.kind}
              status={credential}
              renderPng={
                canRender
                  ? () => {
                      if (!artRef.current) return Promise.reject(new Error('The award is not on the screen'));
                      return renderAwardImage(artRef.current, model.kind, 'image/png');
                    }
                  : null
              }
            />
          )}
        </aside>
      </div>

      <AwardAbout model={model} />
    </div>
  );
}
