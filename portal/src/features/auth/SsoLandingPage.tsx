/**
 * /login/sso: where a sign-in through the organisation's identity provider comes back (decision 043). With
 * `#handoff=` (a one-time code, in the fragment so it never reaches a server's logs) the code is exchanged
 * for Waymark's session and the person goes on as after any sign-in; with `?error=` the page says why the
 * sign-in did not complete — no free seat, a sign-in that expired, an address the organisation does not own.
 */
import { ssoFinish } from '@shared/contract/integrations';
import { messageKey } from '@shared/i18n/keys';
import { destinationAfterSignIn } from '@shared/rules/navigation';
import { client } from '@widgets/core/api';
import { extensionReady } from '@widgets/core/extension';
import { useI18n } from '@widgets/core/i18n';
import { setSession } from '@widgets/core/session';
import { messageOf } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { currentUser } from '../../lib/auth';
import { AuthShell } from './AuthShell';

/** Why a sign-in did not end in a session (SsoFailure on the server), as the page says it. */
const REASONS: Record<string, ReturnType<typeof messageKey>> = {
  NO_SEAT: messageKey('auth.sso.noSeat'),
  EXPIRED: messageKey('auth.sso.expired'),
  DENIED: messageKey('auth.sso.denied'),
  WRONG_DOMAIN: messageKey('auth.sso.wrongDomain'),
  NOT_A_LEARNER: messageKey('auth.sso.notALearner'),
  FAILED: messageKey('auth.sso.failedAt'),
};

export default function SsoLandingPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  const error = params.get('error');
  const organisation = params.get('organisation') ?? t('auth.sso.yourOrganisation');
  const handoff = new URLSearchParams(window.location.hash.slice(1)).get('handoff');

  useEffect(() => {
    if (error || !handoff || started.current) return;
    started.current = true;
    // the code is used once: take it out of the address bar and the history first
    window.history.replaceState(null, '', window.location.pathname);
    client
      .call(ssoFinish, { body: { handoff } })
      .then(async (res) => {
        const { user, token, refreshToken } = res.data;
        setSession({ token, refreshToken, user });
        currentUser.value = user;
        const ext = user.role === 'USER' ? await extensionReady() : { isPresent: false, isLogedIn: false };
        navigate(destinationAfterSignIn(user, ext), { replace: true });
      })
      .catch((err) => setFailure(messageOf(err, t('auth.sso.failed'))));
  }, [error, handoff, navigate, t]);

  const message = error
    ? REASONS[error]
      ? t(REASONS[error], { organisation })
      : t('auth.sso.failed')
    : !handoff
      ? t('auth.sso.failed')
      : failure;
  return (
    <AuthShell title={t('auth.sso.title')} footer={<Link to="/login">{t('auth.sso.back')}</Link>}>
      {message ? (
        <p className="alert alert-error" role="alert">
          {message}
        </p>
      ) : (
        <Loader text={t('auth.sso.signingIn')} />
      )}
    </AuthShell>
  );
}
