/**
 * What in the figures raised an item-analysis flag (issue 31, decision 048): each flag carries its `params` —
 * the numbers and options it names, unformatted — beside the English `detail` the API and the CLI keep.
 * `flagDetail` says it in a reader's language from the catalogue (`stats.detail.*`), numbers through
 * `Intl.NumberFormat`, lists through `Intl.ListFormat`, the date as the product writes dates;
 * `flagDetailEnglish` is the same English without the ICU runtime. flag-words.test.ts holds them equal.
 */
import type { Translator } from '../i18n/translator';
import { formatDate } from './format-date';

/** What a flag names; which fields are set depends on its code. */
export interface FlagParams {
  /** TOO_EASY, TOO_HARD: the question's facility (0 to 1). */
  facility?: number;
  /** NEGATIVE_DISCRIMINATION, POOR_DISCRIMINATION: its discrimination (−1 to 1). */
  discrimination?: number;
  /** RARE_DISTRACTOR: each wrong option few takers chose, with its share (0 to 1). */
  options?: { label: string; share: number }[];
  /** LIKELY_MISKEYED: each key the upper group chose less than a wrong option, with their upper shares. */
  beaten?: { chosen: string; chosenShare: number; key: string; keyShare: number }[];
  /** POSSIBLY_LEAKED: the rise in facility from a day (YYYY-MM-DD) on, and the rest of the test's rise. */
  rise?: {
    from: string;
    before: number;
    beforeAttempts: number;
    after: number;
    afterAttempts: number;
    restRise: number;
  };
}

interface Said {
  code: string;
  params?: FlagParams | null;
}

/** How the words are formatted: a language's, or the English the API keeps. */
interface Words {
  t: Translator['t'];
  number: Translator['number'];
  list: Translator['list'];
  date: (day: string) => string;
}

const wordsOf = (tr: Translator): Words => ({
  t: tr.t,
  number: tr.number,
  list: tr.list,
  date: (day) => formatDate(`${day}T00:00:00Z`, 'UTC', tr.locale),
});

function say(flag: Said, w: Words): string | null {
  const p = flag.params ?? {};
  const two = (n: number) => w.number(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const percent = (share: number, digits: number) =>
    w.t('stats.percent', {
      value: w.number(share * 100, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    });
  switch (flag.code) {
    case 'TOO_EASY':
    case 'TOO_HARD':
      return p.facility === undefined ? null : w.t('stats.detail.facility', { value: two(p.facility) });
    case 'NEGATIVE_DISCRIMINATION':
    case 'POOR_DISCRIMINATION':
      return p.discrimination === undefined
        ? null
        : w.t('stats.detail.discrimination', { value: two(p.discrimination) });
    case 'RARE_DISTRACTOR':
      return p.options?.length
        ? w.t('stats.detail.RARE_DISTRACTOR', {
            options: w.list(
              p.options.map((o) =>
                w.t('stats.detail.rareOption', { label: o.label, share: percent(o.share, 1) }),
              ),
            ),
          })
        : null;
    case 'LIKELY_MISKEYED':
      return p.beaten?.length
        ? w.t('stats.detail.LIKELY_MISKEYED', {
            pairs: w.list(
              p.beaten.map((b) =>
                w.t('stats.detail.miskeyedPair', {
                  chosen: b.chosen,
                  chosenShare: percent(b.chosenShare, 0),
                  key: b.key,
                  keyShare: percent(b.keyShare, 0),
                }),
              ),
            ),
          })
        : null;
    case 'POSSIBLY_LEAKED': {
      const r = p.rise;
      if (!r) return null;
      return w.t('stats.detail.POSSIBLY_LEAKED', {
        before: two(r.before),
        beforeAttempts: r.beforeAttempts,
        date: w.date(r.from),
        after: two(r.after),
        afterAttempts: r.afterAttempts,
        restRose: r.restRise > 0 ? 'yes' : 'no',
        restRise: two(r.restRise),
      });
    }
    default:
      return null;
  }
}

/** A flag's detail in the reader's language; its English `detail` when it names nothing this code knows. */
export const flagDetail = (flag: Said & { detail: string }, tr: Translator): string =>
  say(flag, wordsOf(tr)) ?? flag.detail;

const ENGLISH: Record<string, (v: Record<string, string | number>) => string> = {
  'stats.percent': (v) => `${v.value} %`,
  'stats.detail.facility': (v) => `Facility ${v.value}.`,
  'stats.detail.discrimination': (v) => `Discrimination ${v.value}.`,
  'stats.detail.RARE_DISTRACTOR': (v) => `${v.options}.`,
  'stats.detail.rareOption': (v) => `“${v.label}” chosen by ${v.share}`,
  'stats.detail.LIKELY_MISKEYED': (v) => `The upper group chose ${v.pairs}.`,
  'stats.detail.miskeyedPair': (v) =>
    `“${v.chosen}” (${v.chosenShare}) more than the key “${v.key}” (${v.keyShare})`,
  'stats.detail.POSSIBLY_LEAKED': (v) =>
    `Facility rose from ${v.before} (${attempts(Number(v.beforeAttempts))} before ${v.date}) to ${v.after} (${attempts(Number(v.afterAttempts))} from then on); the rest of the test ${v.restRose === 'yes' ? `rose by ${v.restRise}` : 'did not rise'}.`,
};
const attempts = (n: number) =>
  `${new Intl.NumberFormat('en').format(n)} ${n === 1 ? 'attempt' : 'attempts'}`;

const englishWords: Words = {
  t: ((key: string, values?: Record<string, string | number>) => ENGLISH[key]!(values ?? {})) as Words['t'],
  number: (value, options) => new Intl.NumberFormat('en', options).format(value),
  list: (items, options) => new Intl.ListFormat('en', { type: 'conjunction', ...options }).format(items),
  date: (day) => formatDate(`${day}T00:00:00Z`, 'UTC', 'en'),
};

/** A flag's detail in English (the API's `detail`, the CLI's), without the catalogue. */
export const flagDetailEnglish = (flag: { code: string; params: FlagParams }): string =>
  say(flag, englishWords) ?? '';
