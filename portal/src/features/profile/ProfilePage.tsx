import type { MessageKey } from '@shared/i18n/keys';
import { FullProfileInput } from '@shared/schemas/profile-forms';
import {
  DEFAULT_COUNTRY,
  deleteMessages,
  IAM_LABELS,
  IAM_VALUES,
  T_SHIRT_SIZES,
  type User,
} from '@shared/schemas/user';
import { Rich, useI18n } from '@widgets/core/i18n';
import { useSignalValue } from '@widgets/core/useSignal';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { currentUser } from '../../lib/auth';
import { PhoneField } from './PhoneField';
import { showProfileError } from './profileErrors';
import { saveProfile, useProfileForm } from './profileForm';
import { useCountries } from './useCountries';

export default function ProfilePage() {
  const user = useSignalValue(currentUser);
  if (!user || user === 'loading') return <Loader />;
  return <ProfileForm user={user} />;
}

function ProfileForm({ user }: { user: User }) {
  const { t, locale } = useI18n();
  const regions = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  const countries = useCountries();
  const form = useProfileForm(FullProfileInput, user, {
    tShirtSize: user.tShirtSize ?? undefined,
    addressLine1: user.addressLine1 ?? '',
    addressLine2: user.addressLine2 ?? '',
    country: user.country ?? DEFAULT_COUNTRY,
    state: user.state ?? '',
    city: user.city ?? '',
    pincode: user.pincode ?? '',
  });
  const { register, handleSubmit, formState, setError } = form;
  const e = formState.errors;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await saveProfile(values, 'profile_page');
      toast(t('profile.saved'), { kind: 'success' });
    } catch (err) {
      showProfileError(err, setError);
    }
  });

  return (
    <div className="page">
      <h1>{t('profile.title')}</h1>
      <p className="muted" dir="ltr">
        {user.email}
      </p>
      <LanguageSection />
      <form className="card" onSubmit={onSubmit} noValidate>
        <div className="form-grid">
          <Field
            label={t('column.name')}
            error={e.name?.message}
            required
            hint={
              user.canChangeName ? (
                t('profile.nameOnce')
              ) : (
                <Rich k="profile.nameChanged" components={{ 0: <Link to="/support" /> }} />
              )
            }
          >
            <input type="text" autoComplete="name" readOnly={!user.canChangeName} {...register('name')} />
          </Field>
          <PhoneField
            countries={countries}
            country={register('phoneCountry')}
            number={register('phoneNumber')}
            error={e.phoneNumber?.message}
          />
          {user.role === 'TENANT' ? (
            <Field label={t('profile.iAm')} error={e.iam?.message} required>
              <select {...register('iam')}>
                <option value="">{t('profile.choose')}</option>
                {IAM_VALUES.map((v) => (
                  <option key={v} value={v}>
                    {t(IAM_LABELS[v])}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          <Field label={t('profile.tShirt')} error={e.tShirtSize?.message} required>
            <select {...register('tShirtSize')}>
              <option value="">{t('profile.choose')}</option>
              {T_SHIRT_SIZES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('profile.address1')} error={e.addressLine1?.message} required>
            <input type="text" autoComplete="address-line1" {...register('addressLine1')} />
          </Field>
          <Field label={t('profile.address2')} error={e.addressLine2?.message}>
            <input type="text" autoComplete="address-line2" {...register('addressLine2')} />
          </Field>
          <Field label={t('profile.country')} error={e.country?.message} required>
            <select autoComplete="country" {...register('country')}>
              {(countries.length ? countries : [{ code: 'IN', country: 'India' }]).map((c) => (
                <option key={c.code} value={c.code}>
                  {regions.of(c.code) ?? c.country}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('profile.state')} error={e.state?.message} required>
            <input type="text" autoComplete="address-level1" {...register('state')} />
          </Field>
          <Field label={t('profile.city')} error={e.city?.message} required>
            <input type="text" autoComplete="address-level2" {...register('city')} />
          </Field>
          <Field label={t('profile.pincode')} error={e.pincode?.message} required>
            <input type="text" autoComplete="postal-code" {...register('pincode')} />
          </Field>
          <Field
            label={t('profile.linkedIn')}
            error={e.linkedIn?.message}
            required
            hint={t('profile.linkedInHint')}
          >
            <input type="url" autoComplete="url" {...register('linkedIn')} />
          </Field>
        </div>
        <div className="form-actions">
          <button type="submit" className="btn" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? <Spinner /> : null} {t('profile.save')}
          </button>
        </div>
      </form>
      {user.role === 'USER' ? <DeleteAccountSection /> : null}
    </div>
  );
}

/** The language the person reads Waymark in — its pages, mail and award images (decision 040). */
function LanguageSection() {
  const { t } = useI18n();
  return (
    <section className="card language-section" aria-labelledby="language-heading">
      <h2 id="language-heading">{t('language.label')}</h2>
      <p className="muted">{t('profile.languageHint')}</p>
      <LanguageSwitcher className="field" />
    </section>
  );
}

function DeleteAccountSection() {
  const navigate = useNavigate();
  const { t } = useI18n();
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState('');
  const [asking, setAsking] = useState(false);
  return (
    <section className="card danger-zone" aria-labelledby="delete-heading">
      <h2 id="delete-heading">{t('delete.sectionTitle')}</h2>
      <p className="muted">{t('delete.sectionText')}</p>
      <label className="check">
        <input
          type="checkbox"
          checked={confirmed}
          onChange={(ev) => {
            setConfirmed(ev.target.checked);
            setError('');
          }}
          aria-describedby={error ? 'delete-confirm-error' : undefined}
        />
        <span>{t('delete.understand')}</span>
      </label>
      {error ? (
        <p id="delete-confirm-error" className="field-error" role="alert">
          {t(error as MessageKey)}
        </p>
      ) : null}
      <button
        type="button"
        className="btn btn-danger"
        onClick={() => {
          if (!confirmed) setError(deleteMessages.confirmRequired);
          else setAsking(true);
        }}
      >
        {t('delete.button')}
      </button>
      <Dialog
        open={asking}
        title={t('delete.sure')}
        role="alertdialog"
        onClose={() => setAsking(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setAsking(false)}>
              {t('delete.keep')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => navigate('/delete')}>
              {t('delete.continue')}
            </button>
          </>
        }
      >
        <p>{t('delete.about')}</p>
      </Dialog>
    </section>
  );
}
