import { zodResolver } from '@hookform/resolvers/zod';
import { LoginForm } from '@shared/schemas/auth-forms';
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
  const [params] = useSearchParams();
  const verified = params.get('verified') === '1';
  const form = useForm<LoginForm>({
    resolver: zodResolver(LoginForm),
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
    }, 'Sign in failed'),
  );

  return (
    <AuthShell
      title="Login"
      footer={
        <>
          New to Waymark? <Link to="/who-i-am">Register</Link>
        </>
      }
    >
      {verified ? (
        <p className="alert alert-success" role="status">
          Your e-mail address is verified. Login to continue.
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <Field label="Email" error={formState.errors.email?.message}>
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
        <Field label="Password" error={formState.errors.password?.message}>
          <input type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        <button type="submit" className="btn btn-block" disabled={flow.busy}>
          {flow.busy ? <Spinner /> : null} Login
        </button>
      </form>
      <div className="divider" aria-hidden="true">
        <span>or</span>
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
