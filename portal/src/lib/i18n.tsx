/**
 * The portal's language (decision 040). At start: `?lang=` in the address (any language, the
 * pseudo-locale `en-XA` too, for testing layouts), else the signed-in person's profile, else the one chosen
 * on this browser with the switcher, else the browser's own languages (navigator.languages), else English.
 * English is part of the page; another language's catalogue is fetched before the page shows in it. The
 * page's `<html lang dir>` follow, the API client asks the server for its messages in it, and a signed-in
 * person's choice is kept in their profile (`PUT /user/language`), which their mail follows.
 */

import { english, loaders } from 'virtual:wm-messages';
import { signal } from '@preact/signals-react';
import { setLanguage as setLanguageCall } from '@shared/contract/profile';
import {
  DEFAULT_LOCALE,
  isLocale,
  isUiLocale,
  type Locale,
  matchLocale,
  type UiLocale,
} from '@shared/i18n/locales';
import { createTranslator, type Translator } from '@shared/i18n/translator';
import { client } from '@widgets/core/api';
import { I18nProvider } from '@widgets/core/i18n';
import { interfaceLanguage } from '@widgets/core/language';
import { session, updateUser } from '@widgets/core/session';
import { useSignalValue } from '@widgets/core/useSignal';
import type { ReactNode } from 'react';

/** Where this browser keeps the language chosen with the switcher. */
export const LANGUAGE_KEY = 'waymark.language';

const englishTranslator = createTranslator(DEFAULT_LOCALE, english);
const translator = signal<Translator>(englishTranslator);
const cache = new Map<UiLocale, Promise<Translator>>([[DEFAULT_LOCALE, Promise.resolve(englishTranslator)]]);

function load(locale: UiLocale): Promise<Translator> {
  let pending = cache.get(locale);
  if (!pending) {
    const loader = loaders[locale as Exclude<UiLocale, 'en'>];
    pending = loader().then(
      (m) => createTranslator(locale, m.default, english),
      (err: unknown) => {
        cache.delete(locale);
        throw err;
      },
    );
    cache.set(locale, pending);
  }
  return pending;
}

function stored(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

/** The language to start in (see the header). */
export function initialLocale(): UiLocale {
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (isUiLocale(asked)) return asked;
  const profile = session.peek()?.user.language;
  if (isLocale(profile)) return profile;
  return matchLocale([stored(), ...(navigator.languages ?? [navigator.language])]) ?? DEFAULT_LOCALE;
}

/** The translator of the language the portal shows now, for code outside components. */
export const currentTranslator = (): Translator => translator.peek();

/**
 * Shows the portal in `locale` once its catalogue has arrived (English if it cannot be fetched). `save`:
 * a person's own choice, kept on this browser and, when signed in, in their profile.
 */
export async function showLanguage(locale: UiLocale, { save = false } = {}): Promise<void> {
  let next: Translator;
  try {
    next = await load(locale);
  } catch {
    next = englishTranslator;
  }
  translator.value = next;
  interfaceLanguage.value = next.locale;
  document.documentElement.lang = next.locale;
  document.documentElement.dir = next.dir;
  if (!save) return;
  try {
    localStorage.setItem(LANGUAGE_KEY, next.locale);
  } catch {
    // storage unavailable: the choice lasts this page
  }
  const user = session.peek()?.user;
  if (user && isLocale(next.locale) && user.language !== next.locale) {
    const res = await client.call(setLanguageCall, { body: { language: next.locale as Locale } });
    updateUser(res.data);
  }
}

/** Follows the signed-in person's profile: signing in shows the portal in their language. */
export function followProfileLanguage(): () => void {
  return session.subscribe((s) => {
    const language = s?.user.language;
    if (isLocale(language) && language !== translator.peek().locale && translator.peek().locale !== 'en-XA')
      void showLanguage(language);
  });
}

/** Gives the portal's components the translator of the language shown. */
export function PortalI18n({ children }: { children: ReactNode }) {
  const value = useSignalValue(translator);
  return <I18nProvider value={value}>{children}</I18nProvider>;
}
