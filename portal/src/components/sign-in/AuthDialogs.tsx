import { authMessages } from '@shared/schemas/auth-forms';
import { Dialog } from '@widgets/ui/Dialog';
import { Link } from 'react-router';
import { EmulatorProviderDialog } from './EmulatorProviderDialog';
import type { SignInFlow } from './useSignInFlow';

/** 'Attention!' for an unverified e-mail, and the notice after signing up. */
export function AuthDialogs({ flow }: { flow: SignInFlow }) {
  return (
    <>
      <EmulatorProviderDialog
        provider={flow.emulatedProvider}
        onPick={(account) => void flow.pickEmulatedAccount(account)}
        onCancel={flow.cancelEmulated}
      />
      <Dialog
        open={Boolean(flow.unverified)}
        title="Attention!"
        role="alertdialog"
        onClose={() => void flow.closeAttention()}
        actions={
          flow.resent ? null : (
            <>
              <button type="button" className="btn btn-secondary" onClick={() => void flow.closeAttention()}>
                No, Thanks
              </button>
              <button type="button" className="btn" onClick={() => void flow.resendVerification()}>
                Resend it
              </button>
            </>
          )
        }
      >
        {flow.resent ? (
          <p role="status">
            We have resent the verification link to <strong>{flow.unverified?.email}</strong>. Please check
            your inbox.
          </p>
        ) : (
          <p>{authMessages.attention}</p>
        )}
      </Dialog>
      <Dialog
        open={flow.signUpNotice}
        title="Verify your e-mail address"
        onClose={() => undefined}
        modalOnly
        actions={
          <Link className="btn" to="/login">
            Go to Login
          </Link>
        }
      >
        <p>{authMessages.signUpNotice}</p>
      </Dialog>
    </>
  );
}
