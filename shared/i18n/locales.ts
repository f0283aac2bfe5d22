/**
 * The interface's languages (issue 31): English (the source text: the specification's wording), Spanish
 * and Arabic, and a pseudo-locale made from English for testing layouts. Content — roadmaps, questions —
 * keeps its own language, independent of these.
 */

/** The languages a person may choose, English first (the default and the source of every translation). */
export const LOCALES = ['en', 'es', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

/** Accented English about 40 % longer, for testing layouts (generated from en.json, never chosen in a profile). */
export const PSEUDO_LOCALE = 'en-XA';
/** A language the interface can be shown in. */
export type UiLocale = Locale | typeof PSEUDO_LOCALE;
export const UI_LOCALES: readonly UiLocale[] = [...LOCALES, PSEUDO_LOCALE];

export const DEFAULT_LOCALE: Locale = 'en';

/** Each language by its own name, as a language switcher lists it (never translated). */
export const LOCALE_NAMES: Record<UiLocale, string> = {
  en: 'English',
  es: 'Español',
  ar: 'العربية',
  [PSEUDO_LOCALE]: 'Ƥšéûđö',
};

const RTL: ReadonlySet<string> = new Set(['ar']);

/** The writing direction of a language tag. */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  return RTL.has(locale.toLowerCase().split(/[-_]/)[0]!) ? 'rtl' : 'ltr';
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function isUiLocale(value: unknown): value is UiLocale {
  return typeof value === 'string' && (UI_LOCALES as readonly string[]).includes(value);
}

/**
 * The first of `tags` (BCP 47, best first) the interface speaks: the pseudo-locale by its exact tag, a
 * language by its primary subtag (`es-MX` is Spanish, `ar-EG` Arabic, `en-GB` English); null when none is.
 */
export function matchLocale(tags: readonly (string | null | undefined)[]): UiLocale | null {
  for (const raw of tags) {
    const tag = raw?.trim();
    if (!tag) continue;
    if (tag.toLowerCase() === PSEUDO_LOCALE.toLowerCase()) return PSEUDO_LOCALE;
    const primary = tag.toLowerCase().split(/[-_]/)[0]!;
    if (isLocale(primary)) return primary;
  }
  return null;
}

/**
 * The language tags of an Accept-Language header, best first (RFC 9110 §12.5.4: by `q`, then in the order
 * given; `q=0` means not acceptable, `*` matches nothing in particular). At most 20 are read.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => /^q=/i.test(p));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((l) => l.tag);
}

/** The language of an Accept-Language header, or English. */
export function localeOfAcceptLanguage(header: string | null | undefined): UiLocale {
  return matchLocale(acceptedLanguages(header)) ?? DEFAULT_LOCALE;
}
