import { useI18n } from '@widgets/core/i18n';
import { Dialog } from '@widgets/ui/Dialog';
import { useEffect, useId, useState } from 'react';
import type { Provider } from './useSignInFlow';

const KNOWN_KEY = 'waymark.emulator-accounts';

export interface EmulatedAccount {
  email: string;
  name: string;
}

function known(provider: Provider): EmulatedAccount[] {
  try {
    const all = JSON.parse(localStorage.getItem(KNOWN_KEY) ?? '{}') as Record<string, EmulatedAccount[]>;
    return all[provider] ?? [];
  } catch {
    return [];
  }
}

function remember(provider: Provider, account: EmulatedAccount) {
  try {
    const all = JSON.parse(localStorage.getItem(KNOWN_KEY) ?? '{}') as Record<string, EmulatedAccount[]>;
    all[provider] = [account, ...(all[provider] ?? []).filter((a) => a.email !== account.email)].slice(0, 5);
    localStorage.setItem(KNOWN_KEY, JSON.stringify(all));
  } catch {
    // storage unavailable
  }
}

/**
 * On the Auth emulator there is no real Google or Microsoft: this dialog plays the provider's account
 * chooser, and the emulator accepts the account it names (Firebase's emulated identity-provider sign-in).
 */
export function EmulatorProviderDialog({
  provider,
  onPick,
  onCancel,
}: {
  provider: Provider | null;
  onPick: (account: EmulatedAccount) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [accounts, setAccounts] = useState<EmulatedAccount[]>([]);
  useEffect(() => {
    if (provider) {
      setAccounts(known(provider));
      setEmail('');
      setName('');
      setError('');
    }
  }, [provider]);
  const label = provider === 'microsoft' ? 'Microsoft' : 'Google';
  const pick = (account: EmulatedAccount) => {
    if (provider) remember(provider, account);
    onPick(account);
  };
  return (
    <Dialog
      open={Boolean(provider)}
      title={t('auth.withProvider', { verb: 'in', provider: label })}
      onClose={onCancel}
    >
      <p className="muted">{t('auth.emulator', { provider: label })}</p>
      {accounts.length ? (
        <ul className="account-list">
          {accounts.map((a) => (
            <li key={a.email}>
              <button type="button" className="btn btn-secondary btn-block" onClick={() => pick(a)}>
                {a.name} ({a.email})
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
            setError(t('auth.emailInvalid'));
            return;
          }
          pick({ email: email.trim().toLowerCase(), name: name.trim() || email.trim().split('@')[0]! });
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-email`}>{t('auth.providerEmail', { provider: label })}</label>
          <input
            id={`${id}-email`}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          {error ? (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('auth.displayName')}</label>
          <input id={`${id}-name`} type="text" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="form-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn">
            {t('auth.continueWith', { provider: label })}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
