/**
 * The e-mail domains an organisation claims for single sign-on (decision 043): each proved by a DNS TXT
 * record or by a code mailed to the domain's administrator; removable.
 */
import {
  addSsoDomain,
  mailSsoDomainCode,
  removeSsoDomain,
  verifySsoDomain,
} from '@shared/contract/integrations';
import type { SsoDomain } from '@shared/schemas/integrations';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Field } from '@widgets/ui/Field';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';

const MAILBOXES = ['admin', 'administrator', 'hostmaster', 'postmaster', 'webmaster'] as const;

export function SsoDomains({ domains, onChange }: { domains: SsoDomain[]; onChange: () => void }) {
  const { t } = useI18n();
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await client.call(addSsoDomain, { body: { domain } });
      setDomain('');
      onChange();
    } catch (err) {
      setError(messageOf(err, t('integrations.sso.addFailed')));
    }
  };
  return (
    <section aria-labelledby="sso-domains-title">
      <h3 id="sso-domains-title">{t('integrations.sso.domainsTitle')}</h3>
      {domains.length === 0 ? <p className="muted">{t('integrations.sso.noDomains')}</p> : null}
      <ul className="domain-list">
        {domains.map((d) => (
          <DomainItem key={d._id} domain={d} onChange={onChange} />
        ))}
      </ul>
      <form onSubmit={add} noValidate className="inline-form">
        <Field
          label={t('integrations.sso.addDomain')}
          error={error ?? undefined}
          hint={t('integrations.sso.domainHint')}
        >
          <input
            type="text"
            dir="ltr"
            maxLength={253}
            value={domain}
            onChange={(e) => setDomain(e.target.value)}
          />
        </Field>
        <button type="submit" className="btn btn-secondary" disabled={!domain.trim()}>
          {t('integrations.sso.addDomainButton')}
        </button>
      </form>
    </section>
  );
}

function DomainItem({ domain: d, onChange }: { domain: SsoDomain; onChange: () => void }) {
  const { t } = useI18n();
  const [mailbox, setMailbox] = useState<(typeof MAILBOXES)[number]>('admin');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(d.mailedTo);
  const [error, setError] = useState<string | null>(null);
  const run = async (fn: () => Promise<unknown>, fallback: string) => {
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(messageOf(err, fallback));
    }
  };
  const verify = (body: { code?: string }) =>
    run(async () => {
      await client.call(verifySsoDomain, { params: { id: d._id }, body });
      toast(t('integrations.sso.verified', { domain: d.domain }), { kind: 'success', ms: 3000 });
      onChange();
    }, t('integrations.sso.verifyFailed'));
  const forDomain = (
    <span className="visually-hidden"> {t('integrations.sso.forDomain', { domain: d.domain })}</span>
  );
  return (
    <li>
      <strong dir="ltr">{d.domain}</strong> —{' '}
      {d.status === 'VERIFIED'
        ? t(d.verifiedBy === 'DNS' ? 'integrations.sso.verifiedDns' : 'integrations.sso.verifiedEmail')
        : t('integrations.sso.notVerified')}{' '}
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() =>
          run(async () => {
            await client.call(removeSsoDomain, { params: { id: d._id } });
            onChange();
          }, t('integrations.sso.removeFailed'))
        }
      >
        {t('integrations.sso.remove')}
        {forDomain}
      </button>
      {d.status === 'PENDING' ? (
        <div className="domain-proof">
          <p>{t('integrations.sso.txtHelp', { name: d.txtName, value: d.txtValue })}</p>
          <button type="button" className="btn btn-secondary" onClick={() => verify({})}>
            {t('integrations.sso.checkDns')}
            {forDomain}
          </button>
          <p>{t('integrations.sso.mailHelp')}</p>
          <div className="inline-form">
            <label>
              {t('integrations.sso.mailbox')}{' '}
              <select
                dir="ltr"
                value={mailbox}
                onChange={(e) => setMailbox(e.target.value as (typeof MAILBOXES)[number])}
              >
                {MAILBOXES.map((m) => (
                  <option key={m} value={m}>
                    {`${m}@${d.domain}`}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() =>
                run(async () => {
                  const res = await client.call(mailSsoDomainCode, {
                    params: { id: d._id },
                    body: { mailbox },
                  });
                  setSentTo(res.data.mailedTo);
                }, t('integrations.sso.sendFailed'))
              }
            >
              {t('integrations.sso.sendCode')}
            </button>
          </div>
          {sentTo ? (
            <form
              className="inline-form"
              onSubmit={(e) => {
                e.preventDefault();
                void verify({ code });
              }}
            >
              <Field label={t('integrations.sso.codeSentTo', { to: sentTo })}>
                <input
                  type="text"
                  inputMode="numeric"
                  maxLength={6}
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                />
              </Field>
              <button type="submit" className="btn" disabled={code.trim().length !== 6}>
                {t('integrations.sso.verify')}
              </button>
            </form>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}
