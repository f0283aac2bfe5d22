/**
 * /verify and /verify/{awardId}: anyone checks a credential — Waymark's or another issuer's whose did:web or
 * did:key resolves — by pasting its JSON, dropping (or choosing) its JSON file or baked PNG, or opening an
 * award's own address. The server checks it (POST /credentials/verify) and the page shows the verdict —
 * valid, revoked, tampered, unknown issuer — and every check with what it found.
 */
import '../../layout/public.css';
import './awards.css';
import { ApiError } from '@shared/client/client';
import { getCredential, verifyCredential } from '@shared/contract/credentials';
import {
  credentialFromFile,
  credentialFromText,
  type ReadCredential,
  unreadReport,
} from '@shared/credentials/text';
import type { MessageKey } from '@shared/i18n/keys';
import { formatDate } from '@shared/rules/format-date';
import { validitySaid, validityState } from '@shared/rules/validity';
import type { Verdict, VerificationReport } from '@shared/schemas/credential';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { Spinner } from '@widgets/ui/Loader';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { PortalWidgets } from '../../components/PortalWidgets';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';
import { checkText, summaryText } from './verifyWords';

export const VERDICT_TITLES: Record<Verdict, MessageKey> = {
  valid: 'verify.verdict.valid',
  revoked: 'verify.verdict.revoked',
  tampered: 'verify.verdict.tampered',
  'unknown-issuer': 'verify.verdict.unknownIssuer',
  expired: 'verify.verdict.expired',
  'not-yet-valid': 'verify.verdict.notYetValid',
  malformed: 'verify.verdict.malformed',
};

const OUTCOME_WORDS: Record<'passed' | 'failed' | 'warning' | 'skipped', MessageKey> = {
  passed: 'verify.outcome.passed',
  failed: 'verify.outcome.failed',
  warning: 'verify.outcome.warning',
  skipped: 'verify.outcome.skipped',
};

const CHECK_LABELS: Record<VerificationReport['checks'][number]['id'], MessageKey> = {
  format: 'verify.label.format',
  'open-badge': 'verify.label.openBadge',
  issuer: 'verify.label.issuer',
  signature: 'verify.label.signature',
  dates: 'verify.label.dates',
  status: 'verify.label.status',
};

/** The placeholder of the paste box: code, the same in every language. */
const CREDENTIAL_SHAPE =
  '{"@context": ["https://www.w3.org/ns/credentials/v2", …], "type": ["VerifiableCredential", "OpenBadgeCredential"], …}';

type State =
  | { step: 'idle' }
  | { step: 'checking' }
  | { step: 'done'; report: VerificationReport; source: string }
  | { step: 'error'; message: string };

export default function VerifyPage() {
  const { awardId } = useParams();
  return (
    <PublicPage>
      <PortalWidgets>
        <VerifyScreen key={awardId ?? ''} awardId={awardId ?? null} />
      </PortalWidgets>
    </PublicPage>
  );
}

/** Checking a credential: the server's report, or why there is none; from a paste, a file or an award. */
function useVerify(awardId: string | null) {
  const { t } = useI18n();
  const [state, setState] = useState<State>({ step: awardId ? 'checking' : 'idle' });
  const resultRef = useRef<HTMLElement>(null);
  const focusResult = () => requestAnimationFrame(() => resultRef.current?.focus());

  async function check(credential: unknown, source: string) {
    setState({ step: 'checking' });
    try {
      const res = await client.call(verifyCredential, {
        body: { credential: credential as Record<string, unknown> },
      });
      setState({ step: 'done', report: res.data, source });
    } catch (err) {
      setState({
        step: 'error',
        message: err instanceof ApiError ? err.message : t('verify.checkFailed'),
      });
    }
    focusResult();
  }

  /** What was read is no credential: the report says why, without asking the server. */
  function unread(read: ReadCredential, source: string): read is Extract<ReadCredential, { ok: true }> {
    if (read.ok) return true;
    setState({ step: 'done', source, report: unreadReport(read.said) });
    focusResult();
    return false;
  }

  // /verify/{awardId}: the award's own credential from this server
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per award id (the page is keyed by it)
  useEffect(() => {
    if (!awardId) return;
    let live = true;
    client
      .call(getCredential, { params: { id: awardId } })
      .then((credential) => {
        if (live) void check(credential, t('verify.source.award'));
      })
      .catch((err) => {
        if (!live) return;
        setState({
          step: 'error',
          message:
            // a sandbox's award: no credential, and the server says why (decision 041)
            err instanceof ApiError && err.errorCode === 'SANDBOX_AWARD'
              ? err.message
              : err instanceof ApiError && (err.status === 404 || err.status === 400)
                ? t('verify.noAward')
                : t('verify.awardLoadFailed'),
        });
      });
    return () => {
      live = false;
    };
  }, [awardId]);

  return {
    state,
    resultRef,
    checkText: (text: string) => {
      const read = credentialFromText(text);
      if (unread(read, t('verify.source.pasted'))) void check(read.credential, t('verify.source.pasted'));
    },
    checkFile: async (file: File | undefined) => {
      if (!file) return;
      const read = await credentialFromFile(new Uint8Array(await file.arrayBuffer()));
      if (unread(read, file.name)) await check(read.credential, file.name);
    },
  };
}

/** The paste box, the drop zone (a file input inside for the keyboard) and the button. */
function VerifyForm({
  checking,
  onText,
  onFile,
}: {
  checking: boolean;
  onText: (text: string) => void;
  onFile: (file: File | undefined) => void;
}) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [dragging, setDragging] = useState(false);
  const fileId = useId();
  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    onFile(e.dataTransfer.files[0]);
  }
  return (
    <form
      className="card verify-form"
      onSubmit={(e) => {
        e.preventDefault();
        onText(text);
      }}
    >
      <div className="field">
        <label htmlFor="verify-json">{t('verify.paste')}</label>
        <textarea
          id="verify-json"
          rows={8}
          spellCheck={false}
          dir="ltr"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={CREDENTIAL_SHAPE}
        />
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is the mouse's way; the file input inside serves the keyboard */}
      <div
        className={`verify-drop${dragging ? ' is-dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="verify-drop"
      >
        <label htmlFor={fileId}>
          <Rich k="verify.drop" components={{ 0: <strong /> }} />
        </label>
        <input
          id={fileId}
          type="file"
          accept=".json,.jsonld,application/json,application/ld+json,image/png"
          onChange={(e) => {
            onFile(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
      <button type="submit" className="btn" disabled={checking}>
        {checking ? (
          <>
            <Spinner /> {t('verify.verifying')}
          </>
        ) : (
          t('verify.verify')
        )}
      </button>
    </form>
  );
}

function VerifyScreen({ awardId }: { awardId: string | null }) {
  const { t } = useI18n();
  const { state, resultRef, checkText, checkFile } = useVerify(awardId);
  useDocumentTitle(
    state.step === 'done'
      ? t('verify.titleWithVerdict', { verdict: t(VERDICT_TITLES[state.report.verdict]) })
      : t('verify.title'),
  );
  return (
    <div className="page-narrow verify-page">
      <p className="eyebrow">Open Badges 3.0</p>
      <h1>{t('verify.title')}</h1>
      <p className="lead">{t('verify.lead')}</p>
      <VerifyForm checking={state.step === 'checking'} onText={checkText} onFile={(f) => void checkFile(f)} />
      <section
        ref={resultRef}
        tabIndex={-1}
        className="verify-result"
        aria-live="polite"
        aria-label={t('verify.result')}
      >
        {state.step === 'checking' ? <p role="status">{t('verify.checking')}</p> : null}
        {state.step === 'error' ? (
          <p className="alert alert-error" role="alert">
            {state.message}
          </p>
        ) : null}
        {state.step === 'done' ? <Report report={state.report} source={state.source} /> : null}
      </section>
      <section className="verify-about" aria-labelledby="verify-about-title">
        <h2 id="verify-about-title">{t('verify.aboutTitle')}</h2>
        <p>{t('verify.about')}</p>
      </section>
    </div>
  );
}

/**
 * Who issued it, by its DID: 'this Waymark' only when the server confirmed the DID is its own and every
 * proof holds; a name the issuer gives itself is shown as its own claim, never as ours.
 */
function IssuerWords({ issuer }: { issuer: VerificationReport['issuer'] }) {
  const { t } = useI18n();
  if (!issuer.id) return <>{t('verify.issuer.none')}</>;
  const did = (
    <code className="verify-did" dir="ltr">
      {issuer.id}
    </code>
  );
  if (issuer.isThisServer) return <Rich k="verify.issuer.thisServer" components={{ 0: did }} />;
  const key: MessageKey = issuer.confirmed
    ? issuer.name
      ? 'verify.issuer.otherNamed'
      : 'verify.issuer.other'
    : issuer.name
      ? 'verify.issuer.unconfirmedNamed'
      : 'verify.issuer.unconfirmed';
  return <Rich k={key} values={{ name: issuer.name ?? '' }} components={{ 0: did, 1: <strong /> }} />;
}

function Report({ report, source }: { report: VerificationReport; source: string }) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { credential, issuer } = report;
  /** 'Valid until …', 'Expired on …' or 'Valid with no end date' in the reader's language. */
  const validityIn = (until: string | null) => {
    const said = validitySaid(until, Date.now(), 'UTC', locale);
    return t(said.code, said.params);
  };
  return (
    <article className={`card verify-report verdict-${report.verdict}`}>
      <h2 className="verify-verdict">
        <span className="verify-verdict-mark" aria-hidden="true">
          {report.verdict === 'valid' ? '✓' : report.verdict === 'revoked' ? '⊘' : '✗'}
        </span>
        {t(VERDICT_TITLES[report.verdict])}
      </h2>
      <p className="lead">{summaryText(i18n, report)}</p>
      {credential ? (
        <dl className="award-facts">
          {credential.name ? (
            <div>
              <dt>{t('verify.credential')}</dt>
              <dd>{credential.name}</dd>
            </div>
          ) : null}
          {credential.recipient ? (
            <div>
              <dt>{t('verify.awardedTo')}</dt>
              <dd>{credential.recipient}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('verify.issuedBy')}</dt>
            <dd>
              <IssuerWords issuer={issuer} />
            </dd>
          </div>
          {credential.validFrom ? (
            <div>
              <dt>{t('verify.issuedOn')}</dt>
              <dd>
                <time dateTime={credential.validFrom}>{formatDate(credential.validFrom, 'UTC', locale)}</time>
              </dd>
            </div>
          ) : null}
          <div>
            <dt>
              {validityState(credential.validUntil) === 'expired'
                ? t('verify.verdict.expired')
                : t('verify.verdict.valid')}
            </dt>
            <dd>
              {credential.validUntil ? (
                <time dateTime={credential.validUntil}>{validityIn(credential.validUntil)}</time>
              ) : (
                validityIn(null)
              )}
            </dd>
          </div>
        </dl>
      ) : null}
      <h3>{t('verify.checksTitle')}</h3>
      <ul className="verify-checks">
        {report.checks.map((c) => (
          <li key={c.id} className={`verify-check is-${c.outcome}`}>
            <strong>
              {t('verify.checkOutcome', {
                label: t(CHECK_LABELS[c.id]),
                outcome: t(OUTCOME_WORDS[c.outcome]),
              })}
            </strong>
            <span>{checkText(i18n, c)}</span>
          </li>
        ))}
      </ul>
      <p className="muted">
        <Rich
          k="verify.readFrom"
          values={{ source, time: `${report.checkedAt.replace('T', ' ').slice(0, 19)} UTC` }}
          components={{ 0: <time dateTime={report.checkedAt} dir="ltr" /> }}
        />
      </p>
    </article>
  );
}
