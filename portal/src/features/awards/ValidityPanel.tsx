/**
 * How long a certificate stands (issue 30, decision 037), on its award page: 'Valid until …' or 'Expired on
 * …' in plain words, the renewal that replaced it, the history of the certificate (every award of the same
 * test by the same learner), and — to its learner, from 30 days before its end — the renewal test: the
 * assessment's renewal test, or the subject test taken again. The reminder e-mail links here with `?renew`.
 */
import { renewAward } from '@shared/contract/analysis';
import { createTestLink } from '@shared/contract/assessments';
import { formatDate } from '@shared/rules/format-date';
import { validityWords } from '@shared/rules/validity';
import type { CertificateInfo } from '@shared/schemas/award';
import { client } from '@widgets/core/api';
import { messageOf } from '@widgets/core/useCall';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

type Validity = NonNullable<CertificateInfo['validity']>;

/** The award page of another award of the same test (a certificate: its history is of certificates). */
const pageOf = (awardId: string) => `/certificate/${encodeURIComponent(awardId)}`;

export function ValidityFact({ validity }: { validity: Validity | undefined }) {
  if (!validity?.validUntil) return null;
  return (
    <div>
      <dt>{validity.state === 'expired' ? 'Expired' : 'Valid'}</dt>
      <dd>
        <time dateTime={validity.validUntil}>{validityWords(validity.validUntil)}</time>
      </dd>
    </div>
  );
}

export function ValidityPanel({ info, isLearner }: { info: CertificateInfo; isLearner: boolean }) {
  const validity = info.validity;
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const renewRef = useRef<HTMLElement>(null);
  const askedToRenew = params.has('renew');
  useEffect(() => {
    if (askedToRenew) renewRef.current?.focus();
  }, [askedToRenew]);
  if (!validity || (validity.validUntil === null && validity.history.length < 2)) return null;
  const renewal = isLearner ? validity.renewal : null;

  async function renew() {
    if (!renewal) return;
    setBusy(true);
    try {
      const testLinkId =
        renewal.kind === 'SUBJECT'
          ? (
              await client.call(createTestLink, {
                body: { type: 'SUBJECT', subject: renewal.subjectId, lookingForJob: renewal.lookingForJob },
              })
            ).data.testLinkId
          : (renewal.testLinkId ??
            (await client.call(renewAward, { params: { id: info.linkId } })).data.testLinkId);
      window.location.assign(`/test/${encodeURIComponent(testLinkId)}`);
    } catch (err) {
      toast(messageOf(err, 'The renewal test could not be opened. Please try again later.'), {
        kind: 'error',
      });
      setBusy(false);
    }
  }

  return (
    <section className="card award-validity" aria-labelledby="award-validity-title">
      <h2 id="award-validity-title">Validity</h2>
      {validity.validUntil ? (
        <p className={validity.state === 'expired' ? 'alert alert-warning' : undefined}>
          This certificate is{' '}
          <strong>{validityWords(validity.validUntil).replace(/^V/, 'v').replace(/^E/, 'e')}</strong>.
        </p>
      ) : (
        <p>This certificate does not expire.</p>
      )}
      {validity.renewedBy ? (
        <p>
          It was renewed: <Link to={pageOf(validity.renewedBy)}>see the current certificate</Link>.
        </p>
      ) : null}
      {renewal ? (
        <section
          id="renew"
          ref={renewRef}
          tabIndex={-1}
          className="award-renewal"
          aria-labelledby="award-renewal-title"
        >
          <h3 id="award-renewal-title">Renew it</h3>
          <p>
            {renewal.kind === 'SUBJECT'
              ? 'Take the subject test again.'
              : 'Take the renewal test of this assessment.'}{' '}
            Passing it gives you a new certificate; while this one is valid, the new one runs on from its end.
          </p>
          <button type="button" className="btn" onClick={() => void renew()} disabled={busy}>
            {busy ? <Spinner /> : null} Take the renewal test
          </button>
        </section>
      ) : null}
      {validity.history.length > 1 ? (
        <>
          <h3>History</h3>
          <ol className="award-history">
            {validity.history.map((h) => (
              <li key={h.awardId}>
                {h.awardId === info.linkId ? (
                  <strong>This certificate</strong>
                ) : (
                  <Link to={pageOf(h.awardId)}>Certificate</Link>
                )}
                : earned <time dateTime={h.earnedAt}>{formatDate(h.earnedAt, 'UTC')}</time>,{' '}
                {h.validUntil
                  ? validityWords(h.validUntil).replace(/^V/, 'v').replace(/^E/, 'e')
                  : 'no end date'}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}
