import { checkExtension, extensionStatus } from '@widgets/core/extension';
import { useI18n } from '@widgets/core/i18n';
import { useSignalValue } from '@widgets/core/useSignal';
import { useEffect, useState } from 'react';
import { connectExtension } from '../lib/auth';

/** The extension is asked again when the learner comes back to the tab (it may have been signed out,
 * installed or removed meanwhile), at most this often. */
const RECHECK_MS = 2000;

const ICON = (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
    <path
      fill="currentColor"
      d="M20.5 11H19V7a2 2 0 0 0-2-2h-4V3.5a2.5 2.5 0 0 0-5 0V5H4a2 2 0 0 0-2 2v3.8h1.5a2.7 2.7 0 0 1 0 5.4H2V20a2 2 0 0 0 2 2h3.8v-1.5a2.7 2.7 0 0 1 5.4 0V22H17a2 2 0 0 0 2-2v-4h1.5a2.5 2.5 0 0 0 0-5z"
    />
  </svg>
);

/**
 * Green: present and signed in; orange: present, signed out (a button that signs it in); grey: absent.
 * Kept right after sign-in, sign-out and /check (they update the shared status) and when the learner
 * returns to the tab.
 */
export function ExtensionIcon() {
  const { t } = useI18n();
  const status = useSignalValue(extensionStatus);
  const [connecting, setConnecting] = useState(false);

  useEffect(() => {
    let last = 0;
    const recheck = () => {
      if (document.visibilityState !== 'visible' || Date.now() - last < RECHECK_MS) return;
      last = Date.now();
      void checkExtension();
    };
    window.addEventListener('focus', recheck);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      window.removeEventListener('focus', recheck);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, []);

  const state = !status.isPresent ? 'absent' : status.isLogedIn ? 'signed-in' : 'signed-out';
  const label = t(
    state === 'absent'
      ? status.isChecked
        ? 'extension.notInstalled'
        : 'extension.checking'
      : state === 'signed-in'
        ? 'extension.signedIn'
        : 'extension.signedOut',
  );
  if (state === 'signed-out') {
    return (
      <button
        type="button"
        className={`ext-icon ext-${state}`}
        style={{ border: 'none', cursor: 'pointer', font: 'inherit' }}
        data-state={state}
        title={t('extension.signItIn', { state: label })}
        aria-label={t('extension.signItIn', { state: label })}
        disabled={connecting}
        onClick={async () => {
          setConnecting(true);
          try {
            await connectExtension();
          } finally {
            setConnecting(false);
          }
        }}
      >
        {ICON}
      </button>
    );
  }
  return (
    <span className={`ext-icon ext-${state}`} role="img" aria-label={label} title={label} data-state={state}>
      {ICON}
    </span>
  );
}
