/**
 * The interface's language in components (decision 040): `useI18n()` gives the translator of the nearest
 * `I18nProvider` — the portal's, or an element's own (each element follows its `lang` attribute, else the
 * nearest `lang` of its page) — and `<Rich>` renders a message with tags (a link inside a sentence).
 * Without a provider (a component test) it is the fallback set with `setFallbackTranslator`.
 */
import type { MessageKey } from '@shared/i18n/keys';
import { DEFAULT_LOCALE, matchLocale, type UiLocale } from '@shared/i18n/locales';
import {
  type CompiledCatalogue,
  createTranslator,
  type MessageValues,
  type RichPart,
  richParts,
  type Translator,
} from '@shared/i18n/translator';
import {
  cloneElement,
  createContext,
  createElement,
  Fragment,
  type ReactElement,
  type ReactNode,
  useContext,
} from 'react';

const I18nContext = createContext<Translator | null>(null);

let fallback: Translator | null = null;

/** The translator components use outside any provider (set once by the component tests' set-up). */
export function setFallbackTranslator(translator: Translator) {
  fallback = translator;
}

export function I18nProvider({ value, children }: { value: Translator; children: ReactNode }) {
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The translator of the language the component is shown in. */
export function useI18n(): Translator {
  const translator = useContext(I18nContext) ?? fallback;
  if (!translator) throw new Error('useI18n: no I18nProvider above this component');
  return translator;
}

/** The parts as children of one fragment (given as arguments, so they need no keys). */
function render(parts: RichPart[], components: Record<string, ReactElement>): ReactNode {
  const children = parts.map((part): ReactNode => {
    if (typeof part === 'string') return part;
    const element = components[part.tag];
    if (!element) return render(part.children, components);
    return part.children.length
      ? cloneElement(element, undefined, render(part.children, components))
      : element;
  });
  return createElement(Fragment, null, ...children);
}

/**
 * A message whose text holds tags: `<0>…</0>` becomes `components[0]` around its text, `<1/>` becomes
 * `components[1]` as it is, e.g. 'Curated By <0>{name}</0>' with `components={{ 0: <strong /> }}`. Text
 * values are put in as text, never read for tags.
 */
export function Rich({
  k,
  values,
  components,
}: {
  k: MessageKey;
  values?: MessageValues;
  components: Record<string, ReactElement>;
}) {
  const { t } = useI18n();
  const placed: Record<string, string | number> = {};
  const all: Record<string, ReactElement> = { ...components };
  Object.entries(values ?? {}).forEach(([name, value], i) => {
    if (typeof value === 'number') placed[name] = value;
    else {
      placed[name] = `<v${i}/>`;
      all[`v${i}`] = createElement(Fragment, null, value);
    }
  });
  return render(richParts(t(k, placed)), all);
}

/** What an element's entry imports from `virtual:wm-messages`: English, and a loader per other language. */
export interface ElementMessages {
  english: CompiledCatalogue;
  loaders: Partial<Record<UiLocale, () => Promise<{ default: CompiledCatalogue }>>>;
}

const englishOf = new WeakMap<ElementMessages, Translator>();
const loading = new WeakMap<ElementMessages, Map<UiLocale, Promise<Translator>>>();
const loaded = new WeakMap<ElementMessages, Map<UiLocale, Translator>>();

/** English of these messages, at once (what an element shows before another language arrives). */
export function englishTranslator(messages: ElementMessages): Translator {
  let t = englishOf.get(messages);
  if (!t) {
    t = createTranslator(DEFAULT_LOCALE, messages.english);
    englishOf.set(messages, t);
  }
  return t;
}

/** The translator of `locale` if it can be had at once (English, or a language already fetched), else null. */
export function readyTranslator(messages: ElementMessages, locale: UiLocale): Translator | null {
  if (locale === DEFAULT_LOCALE || !messages.loaders[locale]) return englishTranslator(messages);
  return loaded.get(messages)?.get(locale) ?? null;
}

/**
 * The translator of `locale`, once its file has arrived (fetched once; English behind it for anything
 * missing). A language that fails to load is English.
 */
export function loadTranslator(messages: ElementMessages, locale: UiLocale): Promise<Translator> {
  const ready = readyTranslator(messages, locale);
  if (ready) return Promise.resolve(ready);
  let byLocale = loading.get(messages);
  if (!byLocale) {
    byLocale = new Map();
    loading.set(messages, byLocale);
  }
  let pending = byLocale.get(locale);
  if (!pending) {
    pending = messages.loaders[locale]!().then(
      (m) => createTranslator(locale, m.default, messages.english),
      () => englishTranslator(messages),
    );
    pending.then((t) => {
      const done = loaded.get(messages) ?? new Map<UiLocale, Translator>();
      done.set(locale, t);
      loaded.set(messages, done);
    });
    byLocale.set(locale, pending);
  }
  return pending;
}

/**
 * The language of an element: its own `lang`, else the nearest `lang` around it (the host page's), else
 * English — and English too when that language is not one Waymark speaks.
 */
export function elementLocale(element: Element): UiLocale {
  const nearest = element.closest('[lang]') ?? element.ownerDocument?.documentElement;
  return matchLocale([nearest?.getAttribute('lang')]) ?? DEFAULT_LOCALE;
}
