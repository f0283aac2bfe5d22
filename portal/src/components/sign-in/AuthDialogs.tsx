import { authMessages } from '@shared/schemas/auth-forms';
import { Rich, useI18n } from '@widgets/core/i18n';
import { Dialog } from '@widgets/ui/Dialog';
import { Link } from 'react-router';
import { EmulatorProviderDialog } from './EmulatorProviderDialog';
import type { SignInFlow } from './useSignInFlow';

/** 'Attention!' for an unverified e-mail, and the notice after signing up. */
export function AuthDialogs({ flow }: { flow: SignInFlow }) {
  const { t } = useI18n();
  return (
    <>
      <EmulatorProviderDialog
        provider={flow.emulatedProvider}
        onPick={(account) => void flow.pickEmulatedAccount(account)}
        onCancel={flow.cancelEmulated}
      />
      <Dialog
        open={Boolean(flow.unverified)}
        title={t('auth.attentionTitle')}
        role="alertdialog"
        onClose={() => void flow.closeAttention()}
        actions={
          flow.resent ? null : (
            <>
              <button type="button" className="btn btn-secondary" onClick={() => void flow.closeAttention()}>
                {t('auth.noThanks')}
              </button>
              <button type="button" className="btn" onClick={() => void flow.resendVerification()}>
                {t('auth.resend')}
              </button>
            </>
          )
        }
      >
        {flow.resent ? (
          <p role="status">
            <Rich
              k="auth.resent"
              values={{ email: flow.unverified?.email ?? '' }}
              components={{ 0: <strong dir="ltr" /> }}
            />
          </p>
        ) : (
          <p>{t(authMessages.attention)}</p>
        )}
      </Dialog>
      <Dialog
        open={flow.signUpNotice}
        title={t('auth.verifyTitle')}
        onClose={() => undefined}
        modalOnly
        actions={
          <Link className="btn" to="/login">
            {t('auth.goToLogin')}
          </Link>
        }
      >
        <p>{t(authMessages.signUpNotice)}</p>
      </Dialog>
    </>
  );
}
