/**
 * /login/sso: where a sign-in through the organisation's identity provider comes back (decision 043). With
 * `#handoff=` (a one-time code, in the fragment so it never reaches a server's logs) the code is exchanged
 * for Waymark's session and the person goes on as after any sign-in; with `?error=` the page says why the
 * sign-in did not complete — no free seat, a sign-in that expired, an address the organisation does not own.
 */
import { ssoFinish } from '@shared/contract/integrations';
import { destinationAfterSignIn } from '@shared/rules/navigation';
import { client } from '@widgets/core/api';
import { extensionReady } from '@widgets/core/extension';
import { setSession } from '@widgets/core/session';
import { messageOf } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { currentUser } from '../../lib/auth';
import { AuthShell } from './AuthShell';
import { SSO_COPY } from './sso-copy';

export default function SsoLandingPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  const error = params.get('error');
  const organisation = params.get('organisation') ?? 'your organisation';
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
      .catch((err) => setFailure(messageOf(err, SSO_COPY.failed)));
  }, [error, handoff, navigate]);

  const message = error
    ? (SSO_COPY.reasons(organisation)[error] ?? SSO_COPY.failed)
    : !handoff
      ? SSO_COPY.failed
      : failure;
  return (
    <AuthShell title="Sign in with your organisation" footer={<Link to="/login">Back to sign in</Link>}>
      {message ? (
        <p className="alert alert-error" role="alert">
          {message}
        </p>
      ) : (
        <Loader text={SSO_COPY.signingIn} />
      )}
    </AuthShell>
  );
}
