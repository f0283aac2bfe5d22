/**
 * How long a certificate stands (issue 30, decision 037), on its award page: 'Valid until …' or 'Expired on
 * …' in plain words, the renewal that replaced it, the history of the certificate (every award of the same
 * test by the same learner), and — to its learner, from 30 days before its end — the renewal test: the
 * assessment's renewal test, or the subject test taken again. The reminder e-mail links here with `?renew`.
 */
import { renewAward } from '@shared/contract/analysis';
import { createTestLink } from '@shared/contract/assessments';
import type { Translator } from '@shared/i18n/translator';
import { formatDate } from '@shared/rules/format-date';
import { validityState } from '@shared/rules/validity';
import type { CertificateInfo } from '@shared/schemas/award';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

type Validity = NonNullable<CertificateInfo['validity']>;

/** The award page of another award of the same test (a certificate: its history is of certificates). */
const pageOf = (awardId: string) => `/certificate/${encodeURIComponent(awardId)}`;

/** 'Valid until 3 Mar 2027' / 'Expired on …' (or, `inline`, 'valid until …' inside a sentence) in the reader's language. */
function validityIn(validUntil: string, { t, locale }: Translator, inline = false): string {
  const values = {
    state: validityState(validUntil) === 'expired' ? 'expired' : 'valid',
    day: formatDate(validUntil, 'UTC', locale),
  };
  return t(inline ? 'validity.inline' : 'validity.words', values);
}

export function ValidityFact({ validity }: { validity: Validity | undefined }) {
  const tr = useI18n();
  if (!validity?.validUntil) return null;
  return (
    <div>
      <dt>{tr.t('validity.factTerm', { state: validity.state === 'expired' ? 'expired' : 'valid' })}</dt>
      <dd>
        <time dateTime={validity.validUntil}>{validityIn(validity.validUntil, tr)}</time>
      </dd>
    </div>
  );
}

export function ValidityPanel({ info, isLearner }: { info: CertificateInfo; isLearner: boolean }) {
  const tr = useI18n();
  const { t, locale } = tr;
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
      toast(messageOf(err, t('validity.renewFailed')), { kind: 'error' });
      setBusy(false);
    }
  }

  return (
    <section className="card award-validity" aria-labelledby="award-validity-title">
      <h2 id="award-validity-title">{t('validity.title')}</h2>
      {validity.validUntil ? (
        <p className={validity.state === 'expired' ? 'alert alert-warning' : undefined}>
          <Rich
            k="validity.thisIs"
            values={{ words: validityIn(validity.validUntil, tr, true) }}
            components={{ 0: <strong /> }}
          />
        </p>
      ) : (
        <p>{t('validity.noEnd')}</p>
      )}
      {validity.renewedBy ? (
        <p>
          <Rich k="validity.renewed" components={{ 0: <Link to={pageOf(validity.renewedBy)} /> }} />
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
          <h3 id="award-renewal-title">{t('validity.renewTitle')}</h3>
          <p>{t('validity.renewHow', { kind: renewal.kind })}</p>
          <button type="button" className="btn" onClick={() => void renew()} disabled={busy}>
            {busy ? <Spinner /> : null} {t('validity.takeRenewal')}
          </button>
        </section>
      ) : null}
      {validity.history.length > 1 ? (
        <>
          <h3>{t('validity.history')}</h3>
          <ol className="award-history">
            {validity.history.map((h) => (
              <li key={h.awardId}>
                {h.awardId === info.linkId ? (
                  <strong>{t('validity.thisOne')}</strong>
                ) : (
                  <Link to={pageOf(h.awardId)}>{t('validity.certificate')}</Link>
                )}
                <Rich
                  k="validity.earned"
                  values={{
                    day: formatDate(h.earnedAt, 'UTC', locale),
                    until: h.validUntil ? validityIn(h.validUntil, tr, true) : t('validity.noEndInline'),
                  }}
                  components={{ 0: <time dateTime={h.earnedAt} /> }}
                />
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}
