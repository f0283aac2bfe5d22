/**
 * The language switcher of the public pages and the signed-in frame (decision 040): each language by its
 * own name; the choice is kept on this browser and, for a signed-in person, in their profile.
 */
import { isLocale, LOCALE_NAMES, LOCALES, type Locale } from '@shared/i18n/locales';
import { useI18n } from '@widgets/core/i18n';
import { useId } from 'react';
import { showLanguage } from '../lib/i18n';

export function LanguageSwitcher({ className = 'language-switcher' }: { className?: string }) {
  const { t, locale } = useI18n();
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="visually-hidden">
        {t('language.label')}
      </label>
      <select
        id={id}
        className="input"
        value={isLocale(locale) ? locale : ''}
        onChange={(e) => void showLanguage(e.target.value as Locale, { save: true })}
      >
        {isLocale(locale) ? null : <option value="">{LOCALE_NAMES[locale]}</option>}
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}
