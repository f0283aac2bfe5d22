/**
 * The translator the portal, the elements, the extension's popup and the server use: a language, its
 * compiled catalogue (English behind it for anything missing) and Lingui's runtime for ICU MessageFormat
 * — plurals by the language's rules, selects, numbers — plus the `Intl` formats of that language.
 */
import { setupI18n } from '@lingui/core';
import type { CompiledMessage } from '@lingui/message-utils/compileMessage';
import type { MessageKey } from './keys';
import { directionOf, type UiLocale } from './locales';

/** A compiled catalogue: message key → its text, or Lingui's tokens when it has arguments. */
export type CompiledCatalogue = Readonly<Record<string, string | CompiledMessage>>;

/** The values of a message's arguments. */
export type MessageValues = Readonly<Record<string, string | number>>;

export interface Translator {
  readonly locale: UiLocale;
  readonly dir: 'ltr' | 'rtl';
  /** The message of `key` with its arguments filled in. */
  t(key: MessageKey, values?: MessageValues): string;
  /** A number as the language writes it. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /** A list joined as the language joins one ('a, b and c'). */
  list(items: readonly string[], options?: Intl.ListFormatOptions): string;
}

/**
 * A translator of `locale` over `messages`, with `fallback` (English) for any key `messages` lacks — a
 * key missing from both is returned as it is, which the catalogue check (scripts/i18n/check.ts) and
 * TypeScript keep from happening.
 */
export function createTranslator(
  locale: UiLocale,
  messages: CompiledCatalogue,
  fallback?: CompiledCatalogue,
): Translator {
  const all: CompiledCatalogue = fallback ? { ...fallback, ...messages } : messages;
  const i18n = setupI18n({ locale, messages: { [locale]: all as Record<string, CompiledMessage> } });
  return {
    locale,
    dir: directionOf(locale),
    t(key, values) {
      const message = Object.hasOwn(all, key) ? all[key] : undefined;
      if (message === undefined) return key;
      if (typeof message === 'string') return message;
      return i18n._(key, values);
    },
    number: (value, options) => new Intl.NumberFormat(locale, options).format(value),
    list: (items, options) => new Intl.ListFormat(locale, { type: 'conjunction', ...options }).format(items),
  };
}

/** One piece of a message with tags: text, or a tag (`<0>…</0>`, `<1/>`) with what it holds. */
export type RichPart = string | { tag: string; children: RichPart[] };

/**
 * A translated message split at its tags, for rich text (a link inside a sentence): `Read the <0>terms</0>`
 * gives `['Read the ', { tag: '0', children: ['terms'] }]`. The sentence stays one message, so each
 * language puts the link where its grammar wants it.
 */
export function richParts(text: string): RichPart[] {
  const out: RichPart[] = [];
  const re = /<(\w+)>([\s\S]*?)<\/\1>|<(\w+)\/>/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(m[3] ? { tag: m[3], children: [] } : { tag: m[1]!, children: richParts(m[2]!) });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
