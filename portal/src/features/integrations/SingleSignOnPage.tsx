/**
 * /portal/integrations/single-sign-on (issue 28 item 1; decisions 043, 047): the organisation's identity
 * provider, OpenID Connect or SAML 2.0. OpenID Connect: the redirect URI to register, its issuer, client id
 * and secret (sealed, never shown again). SAML: Waymark's side to give the identity provider (entity id, ACS
 * URL, NameID format, metadata URL) and the provider's metadata, by URL or pasted, with what was read from it.
 * Both: on/off, "require single sign-on", and the e-mail domains the organisation owns (SsoDomains).
 */
import { saveSamlSso, saveSso, ssoSettings } from '@shared/contract/integrations';
import { formatDate } from '@shared/rules/format-date';
import type { SsoConnection, SsoSettings } from '@shared/schemas/integrations';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { Fragment, useState } from 'react';
import { SsoDomains } from './SsoDomains';

type Connection = SsoConnection;
type Protocol = Connection['protocol'];

export default function SingleSignOnPage() {
  const { t } = useI18n();
  const settings = useCall((signal) => client.call(ssoSettings, { signal }).then((r) => r.data), []);
  const [chosen, setChosen] = useState<Protocol | null>(null);
  const protocol = chosen ?? settings.data?.connection?.protocol ?? 'oidc';
  return (
    <section aria-labelledby="sso-title">
      <h2 id="sso-title">{t('integrations.sso.title')}</h2>
      <p className="muted">{t('integrations.sso.intro')}</p>
      {settings.error ? <LoadFailed error={settings.error} /> : null}
      {settings.loading && !settings.data ? <Loader /> : null}
      {settings.data ? (
        <>
          <fieldset className="choice-group">
            <legend>{t('integrations.sso.protocol')}</legend>
            {(['oidc', 'saml'] as const).map((p) => (
              <label key={p} className="check">
                <input
                  type="radio"
                  name="sso-protocol"
                  value={p}
                  checked={protocol === p}
                  onChange={() => setChosen(p)}
                />{' '}
                {t(p === 'oidc' ? 'integrations.sso.protocolOidc' : 'integrations.sso.protocolSaml')}
              </label>
            ))}
          </fieldset>
          {protocol === 'oidc' ? (
            <>
              <dl className="integration-facts">
                <dt>{t('integrations.sso.redirectUri')}</dt>
                <dd>
                  <code dir="ltr">{settings.data.callbackUrl}</code>
                </dd>
              </dl>
              <OidcForm
                connection={settings.data.connection?.protocol === 'oidc' ? settings.data.connection : null}
                onSaved={settings.reload}
              />
            </>
          ) : (
            <SamlSetup settings={settings.data} onSaved={settings.reload} />
          )}
          <SsoDomains domains={settings.data.domains} onChange={settings.reload} />
        </>
      ) : null}
    </section>
  );
}

/** The form state both protocols share, and saving it: the field a refusal names shows its message. */
function useProviderForm<V extends { displayName: string; enabled: boolean; requireSso: boolean }>(
  initial: V,
  save: (values: V) => Promise<unknown>,
  onSaved: () => void,
  fallbackField: string,
) {
  const { t } = useI18n();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof V) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setValues((v) => ({
      ...v,
      [k]:
        e.target instanceof HTMLInputElement && e.target.type === 'checkbox'
          ? e.target.checked
          : e.target.value,
    }));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await save(values);
      toast(t('integrations.sso.saved'), { kind: 'success', ms: 3000 });
      onSaved();
    } catch (err) {
      const field = (err as { field?: string }).field ?? fallbackField;
      setErrors({ [field]: messageOf(err, t('integrations.sso.saveFailed')) });
    } finally {
      setBusy(false);
    }
  };
  return { values, setValues, errors, busy, set, submit };
}

type SharedKey = 'displayName' | 'enabled' | 'requireSso';
interface SharedForm {
  values: { displayName: string; enabled: boolean; requireSso: boolean };
  errors: Record<string, string>;
  busy: boolean;
  set: (k: SharedKey) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  submit: (e: React.FormEvent) => Promise<void>;
}

/** Organisation name first, then the protocol's fields, then on/off, "require" and Save. */
function ProviderFields({
  form,
  titleId,
  title,
  children,
}: {
  form: SharedForm;
  titleId: string;
  title: string;
  children: React.ReactNode;
}) {
  const { t } = useI18n();
  const { values, errors, busy, set, submit } = form;
  return (
    <form onSubmit={submit} noValidate aria-labelledby={titleId} className="integration-form">
      <h3 id={titleId}>{title}</h3>
      <Field label={t('integrations.sso.displayName')} error={errors.displayName} required>
        <input type="text" maxLength={100} value={values.displayName} onChange={set('displayName')} />
      </Field>
      {children}
      <label className="check">
        <input type="checkbox" checked={values.enabled} onChange={set('enabled')} />{' '}
        {t('integrations.sso.enabled')}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={values.requireSso}
          onChange={set('requireSso')}
          aria-describedby={`${titleId}-require-hint`}
        />{' '}
        {t('integrations.sso.require')}
      </label>
      <p id={`${titleId}-require-hint`} className="muted">
        {t('integrations.sso.requireHint')}
      </p>
      <button type="submit" className="btn" disabled={busy}>
        {busy ? <Spinner /> : null} {t('integrations.sso.save')}
      </button>
    </form>
  );
}

function OidcForm({ connection, onSaved }: { connection: Connection | null; onSaved: () => void }) {
  const { t } = useI18n();
  const form = useProviderForm(
    {
      displayName: connection?.displayName ?? '',
      issuer: connection?.issuer ?? '',
      clientId: connection?.clientId ?? '',
      clientSecret: '',
      enabled: connection?.enabled ?? true,
      requireSso: connection?.requireSso ?? false,
    },
    async ({ clientSecret, ...rest }) => {
      await client.call(saveSso, { body: { ...rest, ...(clientSecret ? { clientSecret } : {}) } });
      form.setValues((v) => ({ ...v, clientSecret: '' }));
    },
    onSaved,
    'issuer',
  );
  const { values, errors, set } = form;
  return (
    <ProviderFields form={form} titleId="sso-provider-title" title={t('integrations.sso.oidcTitle')}>
      <Field
        label={t('integrations.sso.issuer')}
        error={errors.issuer}
        hint={t('integrations.sso.issuerHint')}
        required
      >
        <input type="url" dir="ltr" maxLength={500} value={values.issuer} onChange={set('issuer')} />
      </Field>
      <Field label={t('integrations.sso.clientId')} error={errors.clientId} required>
        <input
          type="text"
          dir="ltr"
          maxLength={300}
          autoComplete="off"
          value={values.clientId}
          onChange={set('clientId')}
        />
      </Field>
      <Field
        label={t('integrations.sso.clientSecret')}
        error={errors.clientSecret}
        hint={connection?.hasClientSecret ? t('integrations.sso.secretKept') : undefined}
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
    </ProviderFields>
  );
}

function SamlSetup({ settings, onSaved }: { settings: SsoSettings; onSaved: () => void }) {
  const { t, locale } = useI18n();
  const connection = settings.connection?.protocol === 'saml' ? settings.connection : null;
  const form = useProviderForm(
    {
      displayName: connection?.displayName ?? '',
      metadataUrl: connection?.idpMetadataUrl ?? '',
      metadataXml: '',
      enabled: connection?.enabled ?? true,
      requireSso: connection?.requireSso ?? false,
    },
    async ({ metadataUrl, metadataXml, ...rest }) => {
      await client.call(saveSamlSso, {
        body: {
          ...rest,
          ...(metadataXml.trim() ? { metadataXml } : metadataUrl.trim() ? { metadataUrl } : {}),
        },
      });
      form.setValues((v) => ({ ...v, metadataXml: '' }));
    },
    onSaved,
    'metadataUrl',
  );
  const { values, errors, set } = form;
  const sp = settings.saml;
  return (
    <>
      <section aria-labelledby="sso-sp-title">
        <h3 id="sso-sp-title">{t('integrations.sso.spTitle')}</h3>
        <dl className="integration-facts">
          <dt>{t('integrations.sso.spEntityId')}</dt>
          <dd>
            <code dir="ltr">{sp.entityId}</code>
          </dd>
          <dt>{t('integrations.sso.spAcsUrl')}</dt>
          <dd>
            <code dir="ltr">{sp.acsUrl}</code>
          </dd>
          <dt>{t('integrations.sso.spNameIdFormat')}</dt>
          <dd>
            <code dir="ltr">{sp.nameIdFormat}</code>
          </dd>
          <dt>{t('integrations.sso.spMetadata')}</dt>
          <dd>
            <a href={sp.metadataUrl} dir="ltr">
              {sp.metadataUrl}
            </a>
          </dd>
        </dl>
      </section>
      <ProviderFields form={form} titleId="sso-saml-title" title={t('integrations.sso.samlTitle')}>
        <Field
          label={t('integrations.sso.metadataUrl')}
          error={errors.metadataUrl}
          hint={t('integrations.sso.metadataUrlHint')}
        >
          <input
            type="url"
            dir="ltr"
            maxLength={500}
            value={values.metadataUrl}
            onChange={set('metadataUrl')}
          />
        </Field>
        <Field
          label={t('integrations.sso.metadataXml')}
          error={errors.metadataXml}
          hint={
            connection
              ? `${t('integrations.sso.metadataXmlHint')} ${t('integrations.sso.metadataKept')}`
              : t('integrations.sso.metadataXmlHint')
          }
        >
          <textarea
            dir="ltr"
            rows={5}
            maxLength={200_000}
            value={values.metadataXml}
            onChange={set('metadataXml')}
          />
        </Field>
      </ProviderFields>
      {connection ? (
        <section aria-labelledby="sso-idp-title">
          <h3 id="sso-idp-title">{t('integrations.sso.idpTitle')}</h3>
          <dl className="integration-facts">
            <dt>{t('integrations.sso.idpEntityId')}</dt>
            <dd>
              <code dir="ltr">{connection.idpEntityId}</code>
            </dd>
            <dt>{t('integrations.sso.idpSsoUrl')}</dt>
            <dd>
              <code dir="ltr">{connection.idpSsoUrl}</code>
            </dd>
            {connection.idpCertificates.map((c) => (
              <Fragment key={c.sha256}>
                <dt>{t('integrations.sso.idpCertificate')}</dt>
                <dd>
                  {t('integrations.sso.certificate', {
                    subject: c.subject,
                    date: formatDate(c.notAfter, undefined, locale),
                    sha256: c.sha256,
                  })}
                </dd>
              </Fragment>
            ))}
          </dl>
        </section>
      ) : null}
    </>
  );
}
