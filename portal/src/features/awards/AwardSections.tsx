/** The award page's parts: the heading, the facts, the actions and the note about the issuer. */

import type { MessageKey } from '@shared/i18n/keys';
import { awardLinkedInUrl } from '@shared/rules/award';
import { SANDBOX_WORDS } from '@shared/rules/sandbox';
import type { CertificateInfo } from '@shared/schemas/award';
import type { AwardModel } from '@widgets/award/model';
import { Rich, useI18n } from '@widgets/core/i18n';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { Link } from 'react-router';
import { imageFileName } from './generate';
import { PAGE_TEXT } from './texts';
import { ValidityFact } from './ValidityPanel';

const SCOPE_LABELS = {
  resource: 'column.resource',
  section: 'column.section',
  roadmap: 'column.roadmap',
  subject: 'column.subject',
  assessment: 'dashboard.assessment',
} as const satisfies Record<string, MessageKey>;

export type ImageState =
  /** Nothing to do: the image exists, or this viewer does not generate it. */
  | 'idle'
  | 'generating'
  | 'failed'
  /** A visitor's Download is rendering a copy in this browser. */
  | 'rendering';

/** Who earned what, when, and by whom it is verified (or that it is a sandbox's). */
export function AwardHero({ sandbox, model }: { sandbox: boolean; model: AwardModel }) {
  const { t } = useI18n();
  const partOf = model.partOf.map((p) => p.name).join(', ');
  return (
    <header className="award-hero">
      {sandbox ? (
        <p className="award-verified">
          <span className="badge badge-warning">{t(SANDBOX_WORDS.mark)}</span> {t(SANDBOX_WORDS.award)}
        </p>
      ) : (
        <p className="award-verified">
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5l-8-3Zm-1.2 14.2L7 12.4l1.4-1.4 2.4 2.4 4.8-4.8L17 10l-6.2 6.2Z"
            />
          </svg>
          {t('awardPage.verifiedBy', { issuer: model.issuer })}
        </p>
      )}
      <h1>{t('awardPage.earned', { learner: model.learner, issuer: model.issuer, kind: model.kind })}</h1>
      <p className="lead">
        <Rich
          k="awardPage.lead"
          values={{
            learner: model.learner,
            scope: model.scope,
            achievement: model.achievement,
            partOf: partOf ? ` (${partOf})` : '',
            date: model.issuedOn,
          }}
          components={{ 0: <strong />, 1: <time dateTime={model.issuedAt} /> }}
        />
      </p>
    </header>
  );
}

/** The award's facts: to whom, for what, part of what, when, how long valid, by whom, and its id. */
export function AwardFacts({ info, model }: { info: CertificateInfo; model: AwardModel }) {
  const { t } = useI18n();
  return (
    <dl className="award-facts">
      <div>
        <dt>{t('awardPage.awardedTo')}</dt>
        <dd>{model.learner}</dd>
      </div>
      <div>
        <dt>{t(SCOPE_LABELS[model.scope])}</dt>
        <dd>{model.achievement}</dd>
      </div>
      {model.partOf.map((p) => (
        <div key={p.scope}>
          <dt>{t(SCOPE_LABELS[p.scope])}</dt>
          <dd>{p.name}</dd>
        </div>
      ))}
      <div>
        <dt>{t('awardPage.issuedOn')}</dt>
        <dd>
          <time dateTime={model.issuedAt}>{model.issuedOn}</time>
        </dd>
      </div>
      <ValidityFact validity={info.validity} />
      <div>
        <dt>{t('awardPage.issuedBy')}</dt>
        <dd>{model.issuer}</dd>
      </div>
      <div>
        <dt>{t('award.credentialId')}</dt>
        <dd>
          <code dir="ltr">{model.credentialId}</code>
        </dd>
      </div>
    </dl>
  );
}

/** Download, 'Add to profile' on LinkedIn (the learner only), Copy link and Print. */
export function AwardActions({
  info,
  model,
  stored,
  image,
  canRender,
  isLearner,
  onRetry,
  onRenderCopy,
}: {
  info: CertificateInfo;
  model: AwardModel;
  stored: string | null;
  image: ImageState;
  canRender: boolean;
  isLearner: boolean;
  onRetry: () => void;
  onRenderCopy: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="award-actions">
      <DownloadAction
        stored={stored}
        fileName={imageFileName(model.kind, info.linkId)}
        image={image}
        canRender={canRender}
        isLearner={isLearner}
        onRetry={onRetry}
        onRenderCopy={onRenderCopy}
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
          {t('awardPage.addToProfile')}
          <span className="visually-hidden"> {t('awardPage.onLinkedIn')}</span>
        </a>
      ) : null}
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          navigator.clipboard
            ?.writeText(info.certificateUrl)
            .then(() => toast(t(PAGE_TEXT.copied), { kind: 'success' }))
            .catch(() => toast(t('awardPage.copyThis', { url: info.certificateUrl })));
        }}
      >
        {t('awardPage.copyLink')}
      </button>
      <button type="button" className="btn btn-secondary" onClick={() => window.print()}>
        {t('awardPage.print')}
      </button>
    </div>
  );
}

/** About the award and its issuer, with the link that verifies its record. */
export function AwardAbout({ model }: { model: AwardModel }) {
  const { t } = useI18n();
  return (
    <section className="award-about" aria-labelledby="award-about-title">
      <h2 id="award-about-title">{t('awardPage.about', { kind: model.kind })}</h2>
      <p>{t('awardPage.aboutPlatform', { issuer: model.issuer })}</p>
      <p>
        <Rich
          k="awardPage.aboutRecord"
          values={{ issuer: model.issuer, id: model.credentialId }}
          components={{ 0: <code dir="ltr" />, 1: <Link to={`/verify/${model.credentialId}`} /> }}
        />
      </p>
      <p>
        <Link to="/landing">{t('awardPage.exploreIssuer', { issuer: model.issuer })}</Link>
      </p>
    </section>
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
  const { t } = useI18n();
  if (stored) {
    const sameOrigin = new URL(stored, window.location.href).origin === window.location.origin;
    return (
      <a
        className="btn"
        href={stored}
        download={fileName}
        {...(sameOrigin ? {} : { target: '_blank', rel: 'noopener' })}
      >
        {t('awardPage.download')}
      </a>
    );
  }
  if (image === 'generating' || image === 'rendering') {
    return (
      <button type="button" className="btn" disabled>
        <Spinner /> {t('awardPage.preparing')}
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
          onClick={() => toast(t(PAGE_TEXT.desktopLater), { kind: 'info' })}
        >
          {t('awardPage.download')}
        </button>
        <span id="award-desktop-note" className="award-note muted">
          {t(PAGE_TEXT.desktopOnly)}
        </span>
      </span>
    );
  }
  return (
    <button type="button" className="btn" onClick={isLearner ? onRetry : onRenderCopy}>
      {t('awardPage.download')}
    </button>
  );
}
