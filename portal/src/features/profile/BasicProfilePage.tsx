import { zodResolver } from '@hookform/resolvers/zod';
import { basicProfile } from '@shared/contract/profile';
import { destinationAfterProfile } from '@shared/rules/navigation';
import { BasicProfileInput, profileFormFor } from '@shared/schemas/profile-forms';
import { IAM_LABELS, IAM_VALUES, type User } from '@shared/schemas/user';
import { client } from '@widgets/core/api';
import { extensionReady } from '@widgets/core/extension';
import { updateUser } from '@widgets/core/session';
import { useSignalValue } from '@widgets/core/useSignal';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { currentUser } from '../../lib/auth';
import { PhoneField } from './PhoneField';
import { showProfileError } from './profileErrors';
import { useCountries } from './useCountries';

type Input = z.input<typeof BasicProfileInput>;
type Output = z.output<typeof BasicProfileInput>;

/** The basic profile after the first sign-in. */
export default function BasicProfilePage() {
  const user = useSignalValue(currentUser);
  if (!user || user === 'loading') return <Loader />;
  return <BasicProfileForm user={user} />;
}

function BasicProfileForm({ user }: { user: User }) {
  const navigate = useNavigate();
  const countries = useCountries();
  const schema = useMemo(() => profileFormFor(BasicProfileInput, user.role), [user.role]);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: {
      name: user.name ?? '',
      phoneCountry: user.phoneCountry ?? 'IN',
      phoneNumber: user.phoneNumber ?? '',
      iam: user.iam ?? undefined,
      linkedIn: user.linkedIn ?? '',
    },
  });
  const { register, handleSubmit, formState, setError } = form;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await client.call(basicProfile, { query: { page: 'basic_profile_page' }, body: values });
      updateUser(res.data);
      currentUser.value = res.data;
      const ext = res.data.role === 'USER' ? await extensionReady() : { isPresent: false, isLogedIn: false };
      navigate(destinationAfterProfile(res.data, ext), { replace: true });
    } catch (err) {
      showProfileError(err, setError);
    }
  });

  return (
    <div className="page-narrow">
      <h1>Tell us about yourself</h1>
      <p className="muted">A few details to set up your account.</p>
      <form className="card" onSubmit={onSubmit} noValidate>
        <Field label="Name" error={formState.errors.name?.message} required>
          <input type="text" autoComplete="name" {...register('name')} />
        </Field>
        <PhoneField
          countries={countries}
          country={register('phoneCountry')}
          number={register('phoneNumber')}
          error={formState.errors.phoneNumber?.message}
        />
        {user.role === 'TENANT' ? (
          <Field label="I am" error={formState.errors.iam?.message} required>
            <select {...register('iam')} defaultValue="">
              <option value="" disabled>
                Choose…
              </option>
              {IAM_VALUES.map((v) => (
                <option key={v} value={v}>
                  {IAM_LABELS[v]}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <Field
          label="LinkedIn profile (optional)"
          error={formState.errors.linkedIn?.message}
          hint="For example https://www.linkedin.com/in/your-name"
        >
          <input type="url" autoComplete="url" {...register('linkedIn')} />
        </Field>
        <button type="submit" className="btn" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? <Spinner /> : null} Continue
        </button>
      </form>
    </div>
  );
}
