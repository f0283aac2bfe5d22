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
import { awardLinkedInUrl, CERTIFICATE_MIN_WIDTH } from '@shared/rules/award';
import { SANDBOX_TEXT } from '@shared/rules/sandbox';
import type { AwardKind, CertificateInfo } from '@shared/schemas/award';
import { AwardView, useAward } from '@widgets/award/Award';
import { AWARD_TEXT, type AwardModel } from '@widgets/award/model';
import { client } from '@widgets/core/api';
import { useSignalValue } from '@widgets/core/useSignal';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { PortalWidgets } from '../../components/PortalWidgets';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';
import { currentUser } from '../../lib/auth';
import { CredentialPanel, useCredentialStatus } from './CredentialPanel';
import { generateAwardImage, imageFileName, renderAwardImage, saveBlob } from './generate';
import { PAGE_TEXT } from './texts';
import { ValidityFact, ValidityPanel } from './ValidityPanel';

const SCOPE_LABELS = {
  resource: 'Resource',
  section: 'Section',
  roadmap: 'Roadmap',
  subject: 'Subject',
  assessment: 'Assessment',
} as const;

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
  const award = useAward(linkId, kind);
  useDocumentTitle(
    award.status === 'ready'
      ? `${award.model.learner} · ${award.model.title}`
      : award.status === 'not-found'
        ? AWARD_TEXT.notFoundTitle
        : 'Award',
  );
  useEffect(() => {
    if (award.status === 'error') toast(AWARD_TEXT.loadFailed, { kind: 'error' });
  }, [award.status]);

  if (award.status === 'loading') {
    return (
      <div className="page-wide">
        <Loader text={AWARD_TEXT.loading} />
      </div>
    );
  }
  if (award.status === 'not-found') return <AwardMissing kind={kind} />;
  if (award.status === 'error') {
    return (
      <div className="page-narrow award-missing">
        <h1>{AWARD_TEXT.loadFailed}</h1>
        <p>The award could not be loaded just now. Please check your connection and reload the page.</p>
        <button type="button" className="btn" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
  return <AwardDetails info={award.info} model={award.model} onGenerated={award.replace} />;
}

function AwardMissing({ kind }: { kind: AwardKind }) {
  return (
    <div className="page-narrow award-missing">
      <p className="eyebrow">{kind}</p>
      <h1>{AWARD_TEXT.notFoundTitle}</h1>
      <p className="lead">{AWARD_TEXT.notFound}</p>
      <p>If someone shared this link with you, ask them to copy it again from their award page.</p>
      <p className="row award-missing-links">
        <Link className="btn" to="/landing">
          Explore Waymark
        </Link>
      </p>
    </div>
  );
}

type ImageState =
  /** Nothing to do: the image exists, or this viewer does not generate it. */
  | 'idle'
  | 'generating'
  | 'failed'
  /** A visitor's Download is rendering a copy in this browser. */
  | 'rendering';

function AwardDetails({
  info,
  model,
  onGenerated,
}: {
  info: CertificateInfo;
  model: AwardModel;
  onGenerated: (info: CertificateInfo) => void;
}) {
  const user = useSignalValue(currentUser);
  const isLearner = info.isOwner && user !== null && user !== 'loading' && user.role === 'USER';
  const wide = useMinWidth(CERTIFICATE_MIN_WIDTH);
  const canRender = model.kind !== 'certificate' || wide;
  const artRef = useRef<HTMLDivElement>(null);
  const [image, setImage] = useState<ImageState>('idle');
  const started = useRef(false);
  const stored = info.certificateGenerated && info.s3CertificateUrl ? info.s3CertificateUrl : null;
  const credential = useCredentialStatus(info.sandbox ? null : info.linkId);

  const generate = useCallback(async () => {
    const node = artRef.current;
    if (!node) return;
    setImage('generating');
    try {
      onGenerated(await generateAwardImage(client, node, info, model.kind));
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
  }, [info, model.kind, onGenerated]);

  // the learner who earned it generates the image when the page loads (the certificate only when wide),
  // once the credential's standing is on the screen: drawing holds the main thread, and what the page
  // reads meanwhile would wait for it (on a loaded machine, longer than anyone waits for a panel)
  const credentialSettled = !credential.loading;
  useEffect(() => {
    if (stored || !isLearner || !canRender || !credentialSettled || started.current) return;
    started.current = true;
    void generate();
  }, [stored, isLearner, canRender, credentialSettled, generate]);

  async function downloadCopy() {
    const node = artRef.current;
    if (!node) return;
    setImage('rendering');
    try {
      saveBlob(await renderAwardImage(node, model.kind), imageFileName(model.kind, info.linkId));
    } catch (err) {
      console.error('award image', err);
      toast(PAGE_TEXT.imageFailed, { kind: 'error' });
    } finally {
      setImage('idle');
    }
  }

  const kindWord = model.kindLabel.toLowerCase();
  const partOf = model.partOf.map((p) => p.name).join(', ');
  return (
    <div className={`page-wide award-page award-page-${model.kind}`}>
      <header className="award-hero">
        {info.sandbox ? (
          <p className="award-verified">
            <span className="badge badge-warning">{SANDBOX_TEXT.mark}</span> {SANDBOX_TEXT.award}
          </p>
        ) : (
          <p className="award-verified">
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5l-8-3Zm-1.2 14.2L7 12.4l1.4-1.4 2.4 2.4 4.8-4.8L17 10l-6.2 6.2Z"
              />
            </svg>
            Verified by {model.issuer}
          </p>
        )}
        <h1>
          {model.learner} earned a {model.issuer} {kindWord}
        </h1>
        <p className="lead">
          {model.learner} {model.statement} <strong>{model.achievement}</strong>
          {partOf ? ` (${partOf})` : ''} on <time dateTime={model.issuedAt}>{model.issuedOn}</time>.
        </p>
      </header>

      <div className="award-layout">
        <div className="award-stage">
          <AwardView info={info} model={model} view="live" artRef={artRef} />
        </div>

        <aside className="award-panel card" aria-labelledby="award-details-title">
          <h2 id="award-details-title">{model.kindLabel} details</h2>
          <dl className="award-facts">
            <div>
              <dt>Awarded to</dt>
              <dd>{model.learner}</dd>
            </div>
            <div>
              <dt>{SCOPE_LABELS[model.scope]}</dt>
              <dd>{model.achievement}</dd>
            </div>
            {model.partOf.map((p) => (
              <div key={p.scope}>
                <dt>{SCOPE_LABELS[p.scope]}</dt>
                <dd>{p.name}</dd>
              </div>
            ))}
            <div>
              <dt>Issued on</dt>
              <dd>
                <time dateTime={model.issuedAt}>{model.issuedOn}</time>
              </dd>
            </div>
            <ValidityFact validity={info.validity} />
            <div>
              <dt>Issued by</dt>
              <dd>{model.issuer}</dd>
            </div>
            <div>
              <dt>Credential ID</dt>
              <dd>
                <code>{model.credentialId}</code>
              </dd>
            </div>
          </dl>

          <div className="award-actions">
            <DownloadAction
              stored={stored}
              fileName={imageFileName(model.kind, info.linkId)}
              image={image}
              canRender={canRender}
              isLearner={isLearner}
              onRetry={() => void generate()}
              onRenderCopy={() => void downloadCopy()}
            />
            {isLearner ? (
              <a
                className="btn btn-linkedin"
                href={awardLinkedInUrl(info)}
                target="_blank"
                rel="noopener noreferrer"
              >
                <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
                  <path
                    fill="currentColor"
                    d="M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5ZM3 9.75h4V21H3V9.75Zm6.5 0h3.8v1.54h.06c.53-1 1.83-2.05 3.77-2.05 4.03 0 4.77 2.65 4.77 6.1V21h-4v-5.05c0-1.2-.02-2.76-1.68-2.76-1.69 0-1.94 1.32-1.94 2.67V21h-4V9.75Z"
                  />
                </svg>
                Add to profile<span className="visually-hidden"> on LinkedIn (opens in a new tab)</span>
              </a>
            ) : null}
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => {
                navigator.clipboard
                  ?.writeText(info.certificateUrl)
                  .then(() => toast(PAGE_TEXT.copied, { kind: 'success' }))
                  .catch(() => toast(`Copy this link: ${info.certificateUrl}`));
              }}
            >
              Copy link
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => window.print()}>
              Print
            </button>
          </div>
          {image === 'failed' ? (
            <p className="alert alert-error award-note" role="alert">
              {PAGE_TEXT.imageFailed}
            </p>
          ) : null}
          <ValidityPanel info={info} isLearner={isLearner} />
          {info.sandbox ? (
            <p className="alert alert-warning award-note">{SANDBOX_TEXT.notCredential}</p>
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

      <section className="award-about" aria-labelledby="award-about-title">
        <h2 id="award-about-title">About this {kindWord}</h2>
        <p>
          {model.issuer} is a learning platform of curated roadmaps. Learners earn a feather for passing the
          assessment of a resource, a badge for a section, and a certificate for a whole roadmap, a subject or
          a mentor's assessment; a certificate may be valid for a set time, and is renewed by passing its test
          again. Every assessment is scored on {model.issuer}'s server; an award needs at least 6 of 10 points
          per question on average.
        </p>
        <p>
          This page is {model.issuer}'s own record of the award, so anyone with the link can check it: the
          credential ID <code>{model.credentialId}</code> and this address identify it. The award is also an
          Open Badges 3.0 credential, signed by {model.issuer}:{' '}
          <Link to={`/verify/${model.credentialId}`}>verify it</Link> here or with any Open Badges verifier,
          without asking {model.issuer}.
        </p>
        <p>
          <Link to="/landing">Explore {model.issuer}'s roadmaps and start learning</Link>
        </p>
      </section>
    </div>
  );
}

function DownloadAction({
  stored,
  fileName,
  image,
  canRender,
  isLearner,
  onRetry,
  onRenderCopy,
}: {
  stored: string | null;
  fileName: string;
  image: ImageState;
  canRender: boolean;
  isLearner: boolean;
  onRetry: () => void;
  onRenderCopy: () => void;
}) {
  if (stored) {
    const sameOrigin = new URL(stored, window.location.href).origin === window.location.origin;
    return (
      <a
        className="btn"
        href={stored}
        download={fileName}
        {...(sameOrigin ? {} : { target: '_blank', rel: 'noopener' })}
      >
        Download
      </a>
    );
  }
  if (image === 'generating' || image === 'rendering') {
    return (
      <button type="button" className="btn" disabled>
        <Spinner /> Preparing the image…
      </button>
    );
  }
  if (!canRender) {
    return (
      <span className="award-download-wait">
        <button
          type="button"
          className="btn btn-secondary"
          aria-describedby="award-desktop-note"
          onClick={() => toast(PAGE_TEXT.desktopLater, { kind: 'info' })}
        >
          Download
        </button>
        <span id="award-desktop-note" className="award-note muted">
          {PAGE_TEXT.desktopOnly}
        </span>
      </span>
    );
  }
  return (
    <button type="button" className="btn" onClick={isLearner ? onRetry : onRenderCopy}>
      Download
    </button>
  );
}
