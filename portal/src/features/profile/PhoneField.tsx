import type { MessageKey } from '@shared/i18n/keys';
import type { Country } from '@shared/schemas/lists';
import { PREFERRED_PHONE_COUNTRY } from '@shared/schemas/user';
import { useI18n } from '@widgets/core/i18n';
import { getCountryCallingCode } from 'libphonenumber-js/min';
import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

function dialCode(code: string) {
  try {
    return `+${getCountryCallingCode(code as never)}`;
  } catch {
    return '';
  }
}

/** Mobile number with its country (India first, as preferred). */
export function PhoneField({
  countries,
  country,
  number,
  error,
}: {
  countries: Country[];
  country: UseFormRegisterReturn;
  number: UseFormRegisterReturn;
  error?: string;
}) {
  const id = useId();
  const { t, locale } = useI18n();
  const regions = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  const preferred = countries.find((c) => c.code === PREFERRED_PHONE_COUNTRY);
  const rest = countries.filter((c) => c.code !== PREFERRED_PHONE_COUNTRY);
  const list = countries.length
    ? [...(preferred ? [preferred] : []), ...rest]
    : [{ code: 'IN', country: 'India' }];
  return (
    <div className="field">
      <span className="label" id={`${id}-label`}>
        {t('profile.mobile')}
      </span>
      <div className="field-row">
        <select aria-label={t('profile.callingCode')} {...country}>
          {list.map((c) => (
            <option key={c.code} value={c.code}>
              {t('profile.countryCode', { country: regions.of(c.code) ?? c.country, code: dialCode(c.code) })}
            </option>
          ))}
        </select>
        <input
          type="tel"
          dir="ltr"
          inputMode="tel"
          autoComplete="tel-national"
          aria-labelledby={`${id}-label`}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...number}
        />
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {t(error as MessageKey)}
        </p>
      ) : null}
    </div>
  );
}
