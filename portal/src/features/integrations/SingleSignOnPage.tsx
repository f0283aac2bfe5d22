/**
 * /portal/integrations/single-sign-on (issue 28 item 1; decision 043): the organisation's OpenID Connect
 * provider — the redirect URI to register with it, its issuer, client id and secret (sealed, never shown
 * again), on/off and "require single sign-on" — and the e-mail domains it owns, each verified by a DNS TXT
 * record or a code mailed to the domain's administrator.
 */
import {
  addSsoDomain,
  mailSsoDomainCode,
  removeSsoDomain,
  saveSso,
  ssoSettings,
  verifySsoDomain,
} from '@shared/contract/integrations';
import type { SsoConnection, SsoDomain } from '@shared/schemas/integrations';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { SSO_SCIM_COPY as COPY } from './copy';

const MAILBOXES = ['admin', 'administrator', 'hostmaster', 'postmaster', 'webmaster'] as const;

export default function SingleSignOnPage() {
  const settings = useCall((signal) => client.call(ssoSettings, { signal }).then((r) => r.data), []);
  return (
    <section aria-labelledby="sso-title">
      <h2 id="sso-title">Single sign-on</h2>
      <p className="muted">{COPY.ssoIntro}</p>
      {settings.error ? <LoadFailed error={settings.error} /> : null}
      {settings.loading && !settings.data ? <Loader /> : null}
      {settings.data ? (
        <>
          <dl className="integration-facts">
            <dt>{COPY.redirectUri}</dt>
            <dd>
              <code>{settings.data.callbackUrl}</code>
            </dd>
          </dl>
          <ProviderForm connection={settings.data.connection} onSaved={settings.reload} />
          <Domains domains={settings.data.domains} onChange={settings.reload} />
        </>
      ) : null}
    </section>
  );
}

type Connection = SsoConnection;

function ProviderForm({ connection, onSaved }: { connection: Connection | null; onSaved: () => void }) {
  const [values, setValues] = useState({
    displayName: connection?.displayName ?? '',
    issuer: connection?.issuer ?? '',
    clientId: connection?.clientId ?? '',
    clientSecret: '',
    enabled: connection?.enabled ?? true,
    requireSso: connection?.requireSso ?? false,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value }));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const { clientSecret, ...rest } = values;
      await client.call(saveSso, { body: { ...rest, ...(clientSecret ? { clientSecret } : {}) } });
      toast(COPY.saved, { kind: 'success', ms: 3000 });
      setValues((v) => ({ ...v, clientSecret: '' }));
      onSaved();
    } catch (err) {
      const field = (err as { field?: string }).field ?? 'issuer';
      setErrors({ [field]: messageOf(err, COPY.saveFailed) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="sso-provider-title" className="integration-form">
      <h3 id="sso-provider-title">Your identity provider (OpenID Connect)</h3>
      <Field label="Organisation name (shown on the sign-in page)" error={errors.displayName} required>
        <input type="text" maxLength={100} value={values.displayName} onChange={set('displayName')} />
      </Field>
      <Field
        label="Issuer"
        error={errors.issuer}
        hint="e.g. https://acme.okta.com or https://login.microsoftonline.com/{tenant id}/v2.0"
        required
      >
        <input type="url" maxLength={500} value={values.issuer} onChange={set('issuer')} />
      </Field>
      <Field label="Client ID" error={errors.clientId} required>
        <input
          type="text"
          maxLength={300}
          autoComplete="off"
          value={values.clientId}
          onChange={set('clientId')}
        />
      </Field>
      <Field
        label="Client secret"
        error={errors.clientSecret}
        hint={connection?.hasClientSecret ? COPY.secretKept : undefined}
        required={!connection?.hasClientSecret}
      >
        <input
          type="password"
          maxLength={500}
          autoComplete="off"
          value={values.clientSecret}
          onChange={set('clientSecret')}
        />
      </Field>
      <label className="check">
        <input type="checkbox" checked={values.enabled} onChange={set('enabled')} /> Single sign-on is on
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={values.requireSso}
          onChange={set('requireSso')}
          aria-describedby="sso-require-hint"
        />{' '}
        Require single sign-on for the verified domains
      </label>
      <p id="sso-require-hint" className="muted">
        {COPY.requireHint}
      </p>
      <button type="submit" className="btn" disabled={busy}>
        {busy ? <Spinner /> : null} Save
      </button>
    </form>
  );
}

function Domains({ domains, onChange }: { domains: SsoDomain[]; onChange: () => void }) {
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
      setError(messageOf(err, 'The domain could not be added.'));
    }
  };
  return (
    <section aria-labelledby="sso-domains-title">
      <h3 id="sso-domains-title">Your e-mail domains</h3>
      {domains.length === 0 ? <p className="muted">{COPY.noDomains}</p> : null}
      <ul className="domain-list">
        {domains.map((d) => (
          <DomainItem key={d._id} domain={d} onChange={onChange} />
        ))}
      </ul>
      <form onSubmit={add} noValidate className="inline-form">
        <Field label="Add a domain" error={error ?? undefined} hint={COPY.domainHint}>
          <input type="text" maxLength={253} value={domain} onChange={(e) => setDomain(e.target.value)} />
        </Field>
        <button type="submit" className="btn btn-secondary" disabled={!domain.trim()}>
          Add domain
        </button>
      </form>
    </section>
  );
}

function DomainItem({ domain: d, onChange }: { domain: SsoDomain; onChange: () => void }) {
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
      toast(COPY.verified(d.domain), { kind: 'success', ms: 3000 });
      onChange();
    }, 'The domain could not be verified.');
  return (
    <li>
      <strong>{d.domain}</strong> —{' '}
      {d.status === 'VERIFIED'
        ? `verified (${d.verifiedBy === 'DNS' ? 'DNS' : 'e-mail'})`
        : 'not verified yet'}{' '}
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() =>
          run(async () => {
            await client.call(removeSsoDomain, { params: { id: d._id } });
            onChange();
          }, 'The domain could not be removed.')
        }
      >
        Remove<span className="visually-hidden"> {d.domain}</span>
      </button>
      {d.status === 'PENDING' ? (
        <div className="domain-proof">
          <p>{COPY.txtHelp(d.txtName, d.txtValue)}</p>
          <button type="button" className="btn btn-secondary" onClick={() => verify({})}>
            Check DNS<span className="visually-hidden"> for {d.domain}</span>
          </button>
          <p>{COPY.mailHelp}</p>
          <div className="inline-form">
            <label>
              Mailbox{' '}
              <select
                value={mailbox}
                onChange={(e) => setMailbox(e.target.value as (typeof MAILBOXES)[number])}
              >
                {MAILBOXES.map((m) => (
                  <option key={m} value={m}>
                    {m}@{d.domain}
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
                }, 'The code could not be sent.')
              }
            >
              Send code
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
              <Field label={`Code sent to ${sentTo}`}>
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
                Verify
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
