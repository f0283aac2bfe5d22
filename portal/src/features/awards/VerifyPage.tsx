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
import { credentialFromFile, credentialFromText, unreadReport } from '@shared/credentials/text';
import { formatDate } from '@shared/rules/format-date';
import { validityState, validityWords } from '@shared/rules/validity';
import type { Verdict, VerificationReport } from '@shared/schemas/credential';
import { client } from '@widgets/core/api';
import { Spinner } from '@widgets/ui/Loader';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { PortalWidgets } from '../../components/PortalWidgets';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';

export const VERDICT_TITLES: Record<Verdict, string> = {
  valid: 'Valid',
  revoked: 'Revoked',
  tampered: 'Tampered',
  'unknown-issuer': 'Unknown issuer',
  expired: 'Expired',
  'not-yet-valid': 'Not valid yet',
  malformed: 'Not a verifiable credential',
};

const OUTCOME_WORDS = {
  passed: 'Passed',
  failed: 'Failed',
  warning: 'Warning',
  skipped: 'Not checked',
} as const;

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

function VerifyScreen({ awardId }: { awardId: string | null }) {
  const [text, setText] = useState('');
  const [state, setState] = useState<State>({ step: awardId ? 'checking' : 'idle' });
  const [dragging, setDragging] = useState(false);
  const fileId = useId();
  const resultRef = useRef<HTMLElement>(null);
  useDocumentTitle(
    state.step === 'done'
      ? `${VERDICT_TITLES[state.report.verdict]} · Verify a credential`
      : 'Verify a credential',
  );

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
        message:
          err instanceof ApiError
            ? err.message
            : 'The credential could not be checked just now. Please try again.',
      });
    }
    requestAnimationFrame(() => resultRef.current?.focus());
  }

  // /verify/{awardId}: the award's own credential from this server
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per award id (the page is keyed by it)
  useEffect(() => {
    if (!awardId) return;
    let live = true;
    client
      .call(getCredential, { params: { id: awardId } })
      .then((credential) => {
        if (live) void check(credential, 'this award');
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
                ? 'There is no award with this id. Check the address, or paste the credential below.'
                : 'The award’s credential could not be loaded just now. Please try again.',
        });
      });
    return () => {
      live = false;
    };
  }, [awardId]);

  async function readFile(file: File | undefined) {
    if (!file) return;
    const read = await credentialFromFile(new Uint8Array(await file.arrayBuffer()));
    if (!read.ok) {
      setState({
        step: 'done',
        source: file.name,
        report: unreadReport(read.problem),
      });
      requestAnimationFrame(() => resultRef.current?.focus());
      return;
    }
    await check(read.credential, file.name);
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    void readFile(e.dataTransfer.files[0]);
  }

  return (
    <div className="page-narrow verify-page">
      <p className="eyebrow">Open Badges 3.0</p>
      <h1>Verify a credential</h1>
      <p className="lead">
        Check that a feather, badge or certificate is authentic, unchanged and not revoked — one issued by
        Waymark, or by any issuer whose did:web or did:key can be resolved.
      </p>

      <form
        className="card verify-form"
        onSubmit={(e) => {
          e.preventDefault();
          const read = credentialFromText(text);
          if (!read.ok) {
            setState({ step: 'done', source: 'the pasted text', report: unreadReport(read.problem) });
            requestAnimationFrame(() => resultRef.current?.focus());
            return;
          }
          void check(read.credential, 'the pasted text');
        }}
      >
        <div className="field">
          <label htmlFor="verify-json">Paste the credential (JSON)</label>
          <textarea
            id="verify-json"
            rows={8}
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder='{"@context": ["https://www.w3.org/ns/credentials/v2", …], "type": ["VerifiableCredential", "OpenBadgeCredential"], …}'
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
            <strong>Drop a credential file here</strong> — its JSON, or the award’s baked PNG image — or
            choose one
          </label>
          <input
            id={fileId}
            type="file"
            accept=".json,.jsonld,application/json,application/ld+json,image/png"
            onChange={(e) => {
              void readFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
        <button type="submit" className="btn" disabled={state.step === 'checking'}>
          {state.step === 'checking' ? (
            <>
              <Spinner /> Verifying…
            </>
          ) : (
            'Verify'
          )}
        </button>
      </form>

      <section ref={resultRef} tabIndex={-1} className="verify-result" aria-live="polite" aria-label="Result">
        {state.step === 'checking' ? <p role="status">Checking the credential…</p> : null}
        {state.step === 'error' ? (
          <p className="alert alert-error" role="alert">
            {state.message}
          </p>
        ) : null}
        {state.step === 'done' ? <Report report={state.report} source={state.source} /> : null}
      </section>

      <section className="verify-about" aria-labelledby="verify-about-title">
        <h2 id="verify-about-title">What is checked</h2>
        <p>
          That it is a W3C Verifiable Credential and follows the Open Badges 3.0 data model; that its issuer’s
          DID resolves and lists the signing key; that its Data Integrity proof (eddsa-rdfc-2022, Ed25519)
          matches every statement; that it is within its validity dates; and that the issuer’s status list
          does not mark it revoked. JSON-LD contexts are never fetched from the network.
        </p>
      </section>
    </div>
  );
}

/**
 * Who issued it, by its DID: 'this Waymark' only when the server confirmed the DID is its own and every
 * proof holds; a name the issuer gives itself is shown as its own claim, never as ours.
 */
function IssuerWords({ issuer }: { issuer: VerificationReport['issuer'] }) {
  if (!issuer.id) return <>none named</>;
  const did = <code className="verify-did">{issuer.id}</code>;
  if (issuer.isThisServer) return <>This Waymark ({did})</>;
  const calls = issuer.name ? <>, which calls itself “{issuer.name}”</> : null;
  if (issuer.confirmed) {
    return (
      <>
        {did}
        {calls} — <strong>not issued by this Waymark</strong>
      </>
    );
  }
  return (
    <>
      {did}
      {calls} — <strong>not confirmed</strong>: its proof does not show that it issued this credential
    </>
  );
}

function Report({ report, source }: { report: VerificationReport; source: string }) {
  const { credential, issuer } = report;
  return (
    <article className={`card verify-report verdict-${report.verdict}`}>
      <h2 className="verify-verdict">
        <span className="verify-verdict-mark" aria-hidden="true">
          {report.verdict === 'valid' ? '✓' : report.verdict === 'revoked' ? '⊘' : '✗'}
        </span>
        {VERDICT_TITLES[report.verdict]}
      </h2>
      <p className="lead">{report.summary}</p>
      {credential ? (
        <dl className="award-facts">
          {credential.name ? (
            <div>
              <dt>Credential</dt>
              <dd>{credential.name}</dd>
            </div>
          ) : null}
          {credential.recipient ? (
            <div>
              <dt>Awarded to</dt>
              <dd>{credential.recipient}</dd>
            </div>
          ) : null}
          <div>
            <dt>Issued by</dt>
            <dd>
              <IssuerWords issuer={issuer} />
            </dd>
          </div>
          {credential.validFrom ? (
            <div>
              <dt>Issued on</dt>
              <dd>
                <time dateTime={credential.validFrom}>{formatDate(credential.validFrom, 'UTC')}</time>
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{validityState(credential.validUntil) === 'expired' ? 'Expired' : 'Valid'}</dt>
            <dd>
              {credential.validUntil ? (
                <time dateTime={credential.validUntil}>{validityWords(credential.validUntil)}</time>
              ) : (
                validityWords(null)
              )}
            </dd>
          </div>
        </dl>
      ) : null}
      <h3>What was checked</h3>
      <ul className="verify-checks">
        {report.checks.map((c) => (
          <li key={c.id} className={`verify-check is-${c.outcome}`}>
            <strong>
              {c.label}: {OUTCOME_WORDS[c.outcome]}
            </strong>
            <span>{c.detail}</span>
          </li>
        ))}
      </ul>
      <p className="muted">
        Read from {source}; checked at{' '}
        <time dateTime={report.checkedAt}>{report.checkedAt.replace('T', ' ').slice(0, 19)} UTC</time>.
      </p>
    </article>
  );
}
