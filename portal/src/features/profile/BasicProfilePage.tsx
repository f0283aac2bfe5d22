import { destinationAfterProfile } from '@shared/rules/navigation';
import { BasicProfileInput } from '@shared/schemas/profile-forms';
import { IAM_LABELS, IAM_VALUES, type User } from '@shared/schemas/user';
import { extensionReady } from '@widgets/core/extension';
import { useI18n } from '@widgets/core/i18n';
import { useSignalValue } from '@widgets/core/useSignal';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { useNavigate } from 'react-router';
import { currentUser } from '../../lib/auth';
import { PhoneField } from './PhoneField';
import { showProfileError } from './profileErrors';
import { saveProfile, useProfileForm } from './profileForm';
import { useCountries } from './useCountries';

/** The basic profile after the first sign-in. */
export default function BasicProfilePage() {
  const user = useSignalValue(currentUser);
  if (!user || user === 'loading') return <Loader />;
  return <BasicProfileForm user={user} />;
}

function BasicProfileForm({ user }: { user: User }) {
  const navigate = useNavigate();
  const { t } = useI18n();
  const countries = useCountries();
  const form = useProfileForm(BasicProfileInput, user);
  const { register, handleSubmit, formState, setError } = form;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await saveProfile(values, 'basic_profile_page');
      const ext = saved.role === 'USER' ? await extensionReady() : { isPresent: false, isLogedIn: false };
      navigate(destinationAfterProfile(saved, ext), { replace: true });
    } catch (err) {
      showProfileError(err, setError);
    }
  });

  return (
    <div className="page-narrow">
      <h1>{t('profile.basicTitle')}</h1>
      <p className="muted">{t('profile.basicIntro')}</p>
      <form className="card" onSubmit={onSubmit} noValidate>
        <Field label={t('column.name')} error={formState.errors.name?.message} required>
          <input type="text" autoComplete="name" {...register('name')} />
        </Field>
        <PhoneField
          countries={countries}
          country={register('phoneCountry')}
          number={register('phoneNumber')}
          error={formState.errors.phoneNumber?.message}
        />
        {user.role === 'TENANT' ? (
          <Field label={t('profile.iAm')} error={formState.errors.iam?.message} required>
            <select {...register('iam')} defaultValue="">
              <option value="" disabled>
                {t('profile.choose')}
              </option>
              {IAM_VALUES.map((v) => (
                <option key={v} value={v}>
                  {t(IAM_LABELS[v])}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <Field
          label={t('profile.linkedInOptional')}
          error={formState.errors.linkedIn?.message}
          hint={t('profile.linkedInHint')}
        >
          <input type="url" autoComplete="url" {...register('linkedIn')} />
        </Field>
        <button type="submit" className="btn" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? <Spinner /> : null} {t('common.continue')}
        </button>
      </form>
    </div>
  );
}
