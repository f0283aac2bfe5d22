/**
 * "Continue with your organisation" on the sign-in page (issue 28 item 1): the work e-mail address names the
 * organisation (its verified domain), and the browser goes to the organisation's identity provider.
 */
import { ssoStart } from '@shared/contract/integrations';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Field } from '@widgets/ui/Field';
import { Spinner } from '@widgets/ui/Loader';
import { useEffect, useId, useRef, useState } from 'react';

export function OrganisationSignIn({
  initialEmail,
  disabled,
}: {
  initialEmail: () => string;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  // the person just asked for the field: it takes the focus
  useEffect(() => {
    if (open) field.current?.focus();
  }, [open]);
  if (!open)
    return (
      <button
        type="button"
        className="btn btn-secondary btn-block"
        disabled={disabled}
        onClick={() => {
          setEmail(initialEmail());
          setOpen(true);
        }}
      >
        {t('auth.sso.button')}
      </button>
    );
  const go = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await client.call(ssoStart, { body: { email, device: 'WEB_APP' } });
      window.location.assign(res.data.redirectUrl);
    } catch (err) {
      setError(messageOf(err, t('auth.sso.failed')));
      setBusy(false);
    }
  };
  return (
    <form onSubmit={go} noValidate aria-labelledby={`${id}-title`} className="sso-form">
      <h2 id={`${id}-title`}>{t('auth.sso.button')}</h2>
      <p className="muted">{t('auth.sso.intro')}</p>
      <Field label={t('auth.sso.emailLabel')} error={error ?? undefined}>
        <input
          type="email"
          autoComplete="email"
          ref={field}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <button type="submit" className="btn btn-block" disabled={busy || !email.trim()}>
        {busy ? <Spinner /> : null} {t('auth.sso.go')}
      </button>
    </form>
  );
}
