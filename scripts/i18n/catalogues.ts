/**
 * The catalogues' part of the i18n check (check.ts; decision 040): each catalogue valid ICU MessageFormat,
 * the same keys as English's, and each translation the same shape as its English message (its arguments,
 * rich-text tags, plural categories and select cases).
 */
import { parse, type Token } from '@messageformat/parser';
import { LOCALES, type Locale } from '../../shared/i18n/locales';
import type { Problem } from './check';

export type Catalogues = Record<Locale, Record<string, string>>;

/** Plural categories each language's messages must give (CLDR's; Spanish's 'many', for millions, may fall back on 'other'). */
export const REQUIRED_PLURALS: Record<Locale, readonly string[]> = {
  en: ['one', 'other'],
  es: ['one', 'other'],
  ar: ['zero', 'one', 'two', 'few', 'many', 'other'],
};

interface Shape {
  args: Set<string>;
  tags: Set<string>;
  plurals: { arg: string; keys: string[] }[];
  selects: Map<string, Set<string>>;
}

function shapeOf(message: string): Shape {
  const shape: Shape = { args: new Set(), tags: new Set(), plurals: [], selects: new Map() };
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'content') {
        // the parser lets a lone brace pass as text; in a catalogue it is a mistake (quote it: '{')
        if (/[{}]/.test(token.value) && !/'[{}]'/.test(message))
          throw new Error(`a lone brace in "${token.value}"`);
        for (const m of token.value.matchAll(/<\/?(\w+)\/?>/g)) shape.tags.add(m[1]!);
      } else if (token.type === 'argument' || token.type === 'function') shape.args.add(token.arg);
      else if (token.type === 'plural' || token.type === 'selectordinal' || token.type === 'select') {
        shape.args.add(token.arg);
        const keys = token.cases.map((c) => c.key);
        if (token.type === 'select') {
          const set = shape.selects.get(token.arg) ?? new Set<string>();
          for (const k of keys) set.add(k);
          shape.selects.set(token.arg, set);
        } else if (token.type === 'plural') shape.plurals.push({ arg: token.arg, keys });
        for (const c of token.cases) walk(c.tokens);
      }
    }
  };
  walk(parse(message));
  return shape;
}

const differ = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x));

/** What is wrong with the catalogues, English being the source. */
export function checkCatalogues(catalogues: Catalogues): Problem[] {
  const problems: Problem[] = [];
  const where = (locale: string) => `shared/i18n/messages/${locale}.json`;
  const shapes = {} as Record<Locale, Map<string, Shape>>;
  for (const locale of LOCALES) {
    shapes[locale] = new Map();
    for (const [key, message] of Object.entries(catalogues[locale])) {
      if (typeof message !== 'string') {
        problems.push({ kind: 'syntax', file: where(locale), message: `${key}: not a string` });
        continue;
      }
      try {
        shapes[locale].set(key, shapeOf(message));
      } catch (err) {
        problems.push({ kind: 'syntax', file: where(locale), message: `${key}: ${(err as Error).message}` });
      }
    }
  }
  const english = catalogues.en;
  for (const locale of LOCALES) {
    const catalogue = catalogues[locale];
    if (locale !== 'en') {
      for (const key of Object.keys(english)) {
        if (!Object.hasOwn(catalogue, key))
          problems.push({
            kind: 'missing-translation',
            file: where(locale),
            message: `${key} is not translated`,
          });
      }
      for (const key of Object.keys(catalogue)) {
        if (!Object.hasOwn(english, key))
          problems.push({
            kind: 'not-in-english',
            file: where(locale),
            message: `${key} is not a key of en.json`,
          });
      }
    }
    for (const [key, shape] of shapes[locale]) {
      const source = shapes.en.get(key);
      if (!source) continue;
      if (locale !== 'en') {
        const dropped = differ(source.args, shape.args);
        const added = differ(shape.args, source.args);
        if (dropped.length)
          problems.push({
            kind: 'argument',
            file: where(locale),
            message: `${key} drops {${dropped.join('}, {')}}`,
          });
        if (added.length)
          problems.push({
            kind: 'argument',
            file: where(locale),
            message: `${key} adds {${added.join('}, {')}}, which English does not have`,
          });
        const droppedTags = differ(source.tags, shape.tags);
        const addedTags = differ(shape.tags, source.tags);
        if (droppedTags.length || addedTags.length)
          problems.push({
            kind: 'tag',
            file: where(locale),
            message: `${key} has tags <${[...shape.tags].join('>, <')}>, English <${[...source.tags].join('>, <')}>`,
          });
        for (const [arg, keys] of source.selects) {
          const missing = differ(keys, shape.selects.get(arg) ?? new Set());
          if (missing.length)
            problems.push({
              kind: 'select',
              file: where(locale),
              message: `${key}: {${arg}, select} lacks ${missing.join(', ')}`,
            });
        }
      }
      const categories = new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[]);
      for (const plural of shape.plurals) {
        const missing = REQUIRED_PLURALS[locale].filter((c) => !plural.keys.includes(c));
        if (missing.length)
          problems.push({
            kind: 'plural',
            file: where(locale),
            message: `${key}: {${plural.arg}, plural} lacks ${missing.join(', ')}`,
          });
        const foreign = plural.keys.filter((k) => !k.startsWith('=') && !categories.has(k));
        if (foreign.length)
          problems.push({
            kind: 'plural',
            file: where(locale),
            message: `${key}: {${plural.arg}, plural} has ${foreign.join(', ')}, not a category of ${locale}`,
          });
      }
    }
  }
  return problems;
}
