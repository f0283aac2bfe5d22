/**
 * The server's languages (decision 040): the catalogues of shared/i18n/messages compiled once, at start,
 * and a translator per language — for the messages a request's answer carries (its Accept-Language, which
 * the portal and the elements set to the language their person reads) and for mail and award images (the
 * recipient's stored language).
 */
import { readFileSync } from 'node:fs';
import { compileCatalogue, compilePseudo } from '@shared/i18n/compile.mjs';
import type { MessageKey } from '@shared/i18n/keys';
import {
  DEFAULT_LOCALE,
  LOCALES,
  type Locale,
  localeOfAcceptLanguage,
  PSEUDO_LOCALE,
  type UiLocale,
} from '@shared/i18n/locales';
import { type LocalMessage, localMessage } from '@shared/i18n/message';
import {
  type CompiledCatalogue,
  createTranslator,
  type MessageValues,
  type Translator,
} from '@shared/i18n/translator';

export type { Locale, UiLocale };

const source = (locale: Locale): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../shared/i18n/messages/${locale}.json`, import.meta.url), 'utf8'));

let translators: Map<UiLocale, Translator> | null = null;

function all(): Map<UiLocale, Translator> {
  if (translators) return translators;
  const english = source('en');
  const compiledEnglish: CompiledCatalogue = compileCatalogue(english);
  translators = new Map<UiLocale, Translator>();
  for (const locale of LOCALES) {
    const messages = locale === 'en' ? compiledEnglish : compileCatalogue(source(locale));
    translators.set(locale, createTranslator(locale, messages, compiledEnglish));
  }
  translators.set(PSEUDO_LOCALE, createTranslator(PSEUDO_LOCALE, compilePseudo(english), compiledEnglish));
  return translators;
}

/** The translator of a language (English for anything else). */
export function translatorFor(locale: string | null | undefined): Translator {
  const map = all();
  return map.get(locale as UiLocale) ?? map.get(DEFAULT_LOCALE)!;
}

/** English, the language of logs and of anyone who asked for none. */
export const english = (): Translator => translatorFor(DEFAULT_LOCALE);

/** The language a request asks for (its Accept-Language header), English when it asks for none we speak. */
export function localeOf(acceptLanguage: string | string[] | undefined): Locale {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  const locale = localeOfAcceptLanguage(header);
  return locale === PSEUDO_LOCALE ? DEFAULT_LOCALE : locale;
}

/** The translator of the language a request asks for: for the messages of a successful answer. */
export function requestTranslator(request: {
  headers: Record<string, string | string[] | undefined>;
}): Translator {
  return translatorFor(uiLocaleOf(request.headers['accept-language']));
}

/** The interface language of a request, the pseudo-locale included (for the answers' messages). */
export function uiLocaleOf(acceptLanguage: string | string[] | undefined): UiLocale {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  return localeOfAcceptLanguage(header);
}

/** A moment as a mail says it in `locale`: the date, the time and 'UTC' (the reader's zone is unknown). */
export function mailTime(when: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'full',
    timeStyle: 'long',
    timeZone: 'UTC',
  }).format(when);
}

/**
 * An error whose words are a message of the catalogues (issue 31): its `message` is the English (logs,
 * tests), and a caller that answers a request says `said` in the request's language instead.
 */
export class SaidError extends Error {
  readonly said: LocalMessage;
  constructor(key: MessageKey, values?: MessageValues) {
    super(english().t(key, values));
    this.said = localMessage(key, values);
  }
}
