/**
 * The language the portal shows (decision 040): set by the portal (portal/src/lib/i18n.tsx), read by the
 * API client so that the server answers in it (Accept-Language). Elements on a partner page have their own,
 * per element.
 */
import { signal } from '@preact/signals-react';
import { DEFAULT_LOCALE, type UiLocale } from '@shared/i18n/locales';

export const interfaceLanguage = signal<UiLocale>(DEFAULT_LOCALE);
