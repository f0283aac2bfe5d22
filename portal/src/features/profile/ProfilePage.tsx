import { FullProfileInput } from '@shared/schemas/profile-forms';
import {
  DEFAULT_COUNTRY,
  deleteMessages,
  IAM_LABELS,
  IAM_VALUES,
  T_SHIRT_SIZES,
  type User,
} from '@shared/schemas/user';
import { useSignalValue } from '@widgets/core/useSignal';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
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
      toast('Your profile is saved.', { kind: 'success' });
    } catch (err) {
      showProfileError(err, setError);
    }
  });

  return (
    <div className="page">
      <h1>Profile</h1>
      <p className="muted">{user.email}</p>
      <form className="card" onSubmit={onSubmit} noValidate>
        <div className="form-grid">
          <Field
            label="Name"
            error={e.name?.message}
            required
            hint={
              user.canChangeName ? (
                'You can change your name once.'
              ) : (
                <>
                  Your name has already been changed once. To change it again,{' '}
                  <Link to="/support">contact the support team</Link>.
                </>
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
            <Field label="I am" error={e.iam?.message} required>
              <select {...register('iam')}>
                <option value="">Choose…</option>
                {IAM_VALUES.map((v) => (
                  <option key={v} value={v}>
                    {IAM_LABELS[v]}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          <Field label="T-shirt size" error={e.tShirtSize?.message} required>
            <select {...register('tShirtSize')}>
              <option value="">Choose…</option>
              {T_SHIRT_SIZES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Address line 1" error={e.addressLine1?.message} required>
            <input type="text" autoComplete="address-line1" {...register('addressLine1')} />
          </Field>
          <Field label="Address line 2" error={e.addressLine2?.message}>
            <input type="text" autoComplete="address-line2" {...register('addressLine2')} />
          </Field>
          <Field label="Country" error={e.country?.message} required>
            <select autoComplete="country" {...register('country')}>
              {(countries.length ? countries : [{ code: 'IN', country: 'India' }]).map((c) => (
                <option key={c.code} value={c.code}>
                  {c.country}
                </option>
              ))}
            </select>
          </Field>
          <Field label="State" error={e.state?.message} required>
            <input type="text" autoComplete="address-level1" {...register('state')} />
          </Field>
          <Field label="City" error={e.city?.message} required>
            <input type="text" autoComplete="address-level2" {...register('city')} />
          </Field>
          <Field label="Pincode" error={e.pincode?.message} required>
            <input type="text" autoComplete="postal-code" {...register('pincode')} />
          </Field>
          <Field
            label="LinkedIn profile"
            error={e.linkedIn?.message}
            required
            hint="For example https://www.linkedin.com/in/your-name"
          >
            <input type="url" autoComplete="url" {...register('linkedIn')} />
          </Field>
        </div>
        <div className="form-actions">
          <button type="submit" className="btn" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? <Spinner /> : null} Save profile
          </button>
        </div>
      </form>
      {user.role === 'USER' ? <DeleteAccountSection /> : null}
    </div>
  );
}

function DeleteAccountSection() {
  const navigate = useNavigate();
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState('');
  const [asking, setAsking] = useState(false);
  return (
    <section className="card danger-zone" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete account</h2>
      <p className="muted">
        Your account and everything in it (roadmaps, learning time, assessments and awards) will be deleted
        within 90 days. Signing in again before then cancels the deletion.
      </p>
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
        <span>I understand that my account and my data will be deleted.</span>
      </label>
      {error ? (
        <p id="delete-confirm-error" className="field-error" role="alert">
          {error}
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
        Delete Account
      </button>
      <Dialog
        open={asking}
        title="Are you sure?"
        role="alertdialog"
        onClose={() => setAsking(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setAsking(false)}>
              No, keep my account
            </button>
            <button type="button" className="btn btn-danger" onClick={() => navigate('/delete')}>
              Yes, continue
            </button>
          </>
        }
      >
        <p>You are about to delete your Waymark account.</p>
      </Dialog>
    </section>
  );
}
