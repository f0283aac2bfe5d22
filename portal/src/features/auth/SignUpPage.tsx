import { zodResolver } from '@hookform/resolvers/zod';
import { invitationCheck } from '@shared/contract/invitations';
import { SignUpForm } from '@shared/schemas/auth-forms';
import type { Role } from '@shared/schemas/common';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { Rich, useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import {
  createUserWithEmailAndPassword,
  isSignInWithEmailLink,
  sendEmailVerification,
  signInWithEmailLink,
  updatePassword,
} from 'firebase/auth';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthDialogs } from '../../components/sign-in/AuthDialogs';
import { ProviderButtons } from '../../components/sign-in/ProviderButtons';
import { VERIFIED_CONTINUE_PATH } from '../../components/sign-in/paths';
import { useSignInFlow } from '../../components/sign-in/useSignInFlow';
import { firebaseAuth } from '../../lib/firebase';
import { currentTranslator } from '../../lib/i18n';
import { AuthShell } from './AuthShell';
import { useEmailCheck } from './useEmailCheck';

/**
 * The invitation link as Firebase should read it. Our return URL carries the inviting mentor as `tenantId`
 * (mentor §4), but Firebase reads a `tenantId` parameter as its own multi-tenancy tenant and refuses the
 * link (auth/tenant-id-mismatch), so it is left out of what the SDK sees.
 */
function linkForFirebase(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('tenantId');
  return url.toString();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /learner and /tenant: sign up with a role. An invitation's e-mail link lands here too. */
export function LearnerSignUpPage() {
  return <SignUpPage accountRole="USER" />;
}

export function TenantSignUpPage() {
  return <SignUpPage accountRole="TENANT" />;
}

function SignUpPage({ accountRole: role }: { accountRole: Role }) {
  const flow = useSignInFlow();
  const { t } = useI18n();
  const formWords = useFormWords();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tenantIdParam = params.get('tenantId');
  const tenantId = tenantIdParam && UUID.test(tenantIdParam) ? tenantIdParam : undefined;
  const invite = useMemo(() => isSignInWithEmailLink(firebaseAuth(), window.location.href), []);
  const invitedEmail = params.get('email') ?? '';
  const form = useForm<SignUpForm>({
    resolver: zodResolver(SignUpForm, formWords),
    mode: 'onTouched',
    defaultValues: { email: invite ? invitedEmail : '', password: '', confirmPassword: '' },
  });
  const checkEmail = useEmailCheck(form, 'signup');
  const { register, handleSubmit, formState } = form;
  const emailField = register('email');

  // an invitation link is checked on load, with Firebase (a sign-in link) and with Waymark (still pending)
  const invitation = useCall(
    (signal) =>
      invite && tenantId && invitedEmail
        ? client
            .call(invitationCheck, { query: { tenantId, email: invitedEmail }, signal })
            .then((r) => r.data)
        : Promise.resolve(null),
    [invite, tenantId, invitedEmail],
  );
  const invitationBroken =
    (params.get('mode') === 'signIn' && !invite) ||
    (invite && (!invitedEmail || !tenantId)) ||
    invitation.error !== null ||
    invitation.data?.valid === false;

  useEffect(() => {
    if (!invitationBroken) return;
    toast(currentTranslator().t('auth.invitationInvalid'), { kind: 'error' });
    navigate('/', { replace: true });
  }, [invitationBroken, navigate]);

  const onSubmit = handleSubmit(({ email, password }) =>
    flow.attempt(async () => {
      if (invite) {
        const cred = await signInWithEmailLink(
          firebaseAuth(),
          email.trim(),
          linkForFirebase(window.location.href),
        );
        await updatePassword(cred.user, password);
        await flow.complete(cred.user, 'signup', { role, tenantId });
        return;
      }
      const cred = await createUserWithEmailAndPassword(firebaseAuth(), email.trim(), password);
      await sendEmailVerification(cred.user, { url: `${window.location.origin}${VERIFIED_CONTINUE_PATH}` });
      await flow.complete(cred.user, 'signup', { role, tenantId });
    }, t('auth.signUpFailed')),
  );

  return (
    <AuthShell
      title={role === 'USER' ? t('auth.signUpLearner') : t('auth.signUpMentor')}
      footer={<Rich k="auth.haveAccount" components={{ 0: <Link to="/login" /> }} />}
    >
      {invite && !invitation.data ? <Loader text={t('auth.checkingInvitation')} /> : null}
      {invite && invitation.data?.valid ? (
        <p className="alert alert-info">
          {invitation.data.tenantName
            ? t('auth.invitedBy', { name: invitation.data.tenantName })
            : t('auth.invited')}
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <Field label={t('column.email')} error={formState.errors.email?.message}>
          <input
            type="email"
            autoComplete="email"
            readOnly={invite}
            {...emailField}
            onBlur={(e) => {
              void emailField.onBlur(e);
              if (!invite) void checkEmail(e.target.value);
            }}
          />
        </Field>
        <Field
          label={t('auth.password')}
          error={formState.errors.password?.message}
          hint={t('auth.passwordHint')}
        >
          <input type="password" autoComplete="new-password" {...register('password')} />
        </Field>
        <Field label={t('auth.confirmPassword')} error={formState.errors.confirmPassword?.message}>
          <input type="password" autoComplete="new-password" {...register('confirmPassword')} />
        </Field>
        <button type="submit" className="btn btn-block" disabled={flow.busy}>
          {flow.busy ? <Spinner /> : null} {t('auth.signUp')}
        </button>
      </form>
      {invite ? null : (
        <>
          <div className="divider" aria-hidden="true">
            <span>{t('auth.or')}</span>
          </div>
          <ProviderButtons
            verb="Sign up"
            disabled={flow.busy}
            onPick={(p) => void flow.withProvider(p, 'signup', { role, tenantId })}
          />
        </>
      )}
      <AuthDialogs flow={flow} />
    </AuthShell>
  );
}
