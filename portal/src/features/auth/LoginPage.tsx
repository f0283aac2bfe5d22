import { zodResolver } from '@hookform/resolvers/zod';
import { LoginForm } from '@shared/schemas/auth-forms';
import { useFormWords } from '@widgets/core/form-words';
import { Rich, useI18n } from '@widgets/core/i18n';
import { Field } from '@widgets/ui/Field';
import { Spinner } from '@widgets/ui/Loader';
import { signInWithEmailAndPassword } from 'firebase/auth';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { AuthDialogs } from '../../components/sign-in/AuthDialogs';
import { ProviderButtons } from '../../components/sign-in/ProviderButtons';
import { useSignInFlow } from '../../components/sign-in/useSignInFlow';
import { firebaseAuth } from '../../lib/firebase';
import { AuthShell } from './AuthShell';
import { OrganisationSignIn } from './OrganisationSignIn';
import { useEmailCheck } from './useEmailCheck';

export default function LoginPage() {
  const flow = useSignInFlow();
  const { t } = useI18n();
  const formWords = useFormWords();
  const [params] = useSearchParams();
  const verified = params.get('verified') === '1';
  const form = useForm<LoginForm>({
    resolver: zodResolver(LoginForm, formWords),
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
  });
  const checkEmail = useEmailCheck(form, 'login');
  const { register, handleSubmit, formState } = form;
  const emailField = register('email');

  const onSubmit = handleSubmit(({ email, password }) =>
    flow.attempt(async () => {
      const cred = await signInWithEmailAndPassword(firebaseAuth(), email.trim(), password);
      await flow.complete(cred.user, 'login');
    }, t('auth.signInFailed')),
  );

  return (
    <AuthShell
      title={t('auth.login')}
      footer={<Rich k="auth.newToWaymark" components={{ 0: <Link to="/who-i-am" /> }} />}
    >
      {verified ? (
        <p className="alert alert-success" role="status">
          {t('auth.verified')}
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <Field label={t('column.email')} error={formState.errors.email?.message}>
          <input
            type="email"
            autoComplete="email"
            {...emailField}
            onBlur={(e) => {
              void emailField.onBlur(e);
              void checkEmail(e.target.value);
            }}
          />
        </Field>
        <Field label={t('auth.password')} error={formState.errors.password?.message}>
          <input type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        <button type="submit" className="btn btn-block" disabled={flow.busy}>
          {flow.busy ? <Spinner /> : null} {t('auth.login')}
        </button>
      </form>
      <div className="divider" aria-hidden="true">
        <span>{t('auth.or')}</span>
      </div>
      <ProviderButtons
        verb="Sign in"
        disabled={flow.busy}
        onPick={(p) => void flow.withProvider(p, 'login')}
      />
      <OrganisationSignIn initialEmail={() => form.getValues('email')} disabled={flow.busy} />
      <AuthDialogs flow={flow} />
    </AuthShell>
  );
}
