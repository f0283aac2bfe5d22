/**
 * What raised a flag, said by code and params (issue 31, decision 048): the English the API and the CLI keep
 * is what en.json says with the same params, and the rules give the params beside it.
 */
import { english } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../i18n/translator';
import { type FlagParams, flagDetail, flagDetailEnglish } from './flag-words';
import { FLAG_CODES, itemFigures } from './item-analysis';
import { emptySums } from './item-sums';

const en = createTranslator('en', english);

const SAMPLES: [string, FlagParams][] = [
  ['TOO_EASY', { facility: 0.953 }],
  ['TOO_HARD', { facility: 0.1 }],
  ['NEGATIVE_DISCRIMINATION', { discrimination: -0.125 }],
  ['POOR_DISCRIMINATION', { discrimination: 0.11 }],
  ['RARE_DISTRACTOR', { options: [{ label: 'Delta', share: 0 }] }],
  [
    'RARE_DISTRACTOR',
    {
      options: [
        { label: 'B', share: 0.04 },
        { label: 'C', share: 0.012 },
        { label: 'D', share: 0.0049 },
      ],
    },
  ],
  ['LIKELY_MISKEYED', { beaten: [{ chosen: 'Beta', chosenShare: 0.85, key: 'Alpha', keyShare: 0.1 }] }],
  [
    'LIKELY_MISKEYED',
    {
      beaten: [
        { chosen: 'B', chosenShare: 0.5, key: 'A', keyShare: 0.2 },
        { chosen: 'B', chosenShare: 0.5, key: 'C', keyShare: 0.3 },
      ],
    },
  ],
  [
    'POSSIBLY_LEAKED',
    {
      rise: {
        from: '2026-03-03',
        before: 0.325,
        beforeAttempts: 40,
        after: 0.875,
        afterAttempts: 1200,
        restRise: 0.05,
      },
    },
  ],
  [
    'POSSIBLY_LEAKED',
    {
      rise: {
        from: '2026-12-21',
        before: 0.3,
        beforeAttempts: 1,
        after: 0.9,
        afterAttempts: 31,
        restRise: -0.1,
      },
    },
  ],
];

describe('what raised a flag', () => {
  it('says in English what en.json says with the same params, for every code', () => {
    expect(new Set(SAMPLES.map(([code]) => code))).toEqual(new Set(FLAG_CODES));
    for (const [code, params] of SAMPLES) {
      const english = flagDetailEnglish({ code, params });
      expect(english).not.toBe('');
      expect(flagDetail({ code, params, detail: '' }, en)).toBe(english);
    }
  });

  it('reads as the English the API has always sent', () => {
    expect(flagDetailEnglish({ code: 'TOO_EASY', params: { facility: 0.953 } })).toBe('Facility 0.95.');
    expect(flagDetailEnglish({ code: 'RARE_DISTRACTOR', params: SAMPLES[5]![1] })).toBe(
      '“B” chosen by 4.0 %, “C” chosen by 1.2 %, and “D” chosen by 0.5 %.',
    );
    expect(flagDetailEnglish({ code: 'LIKELY_MISKEYED', params: SAMPLES[6]![1] })).toBe(
      'The upper group chose “Beta” (85 %) more than the key “Alpha” (10 %).',
    );
    expect(flagDetailEnglish({ code: 'POSSIBLY_LEAKED', params: SAMPLES[8]![1] })).toBe(
      'Facility rose from 0.33 (40 attempts before 3rd Mar 2026) to 0.88 (1,200 attempts from then on); the rest of the test rose by 0.05.',
    );
    expect(flagDetailEnglish({ code: 'POSSIBLY_LEAKED', params: SAMPLES[9]![1] })).toMatch(
      /\(1 attempt before 21st Dec 2026\).*did not rise\.$/,
    );
  });

  it('is carried by the flags the rules raise, detail and params together', () => {
    const sums = { ...emptySums(), n: 40, sx: 38, sxx: 38 };
    const [flag] = itemFigures({ sums, buckets: [], days: [], options: null }).flags;
    expect(flag).toMatchObject({ code: 'TOO_EASY', detail: 'Facility 0.95.', params: { facility: 0.95 } });
  });

  it('falls back to the server’s English when it names nothing this code knows', () => {
    expect(flagDetail({ code: 'NEW_FLAG', params: {}, detail: 'As the server says.' }, en)).toBe(
      'As the server says.',
    );
  });
});
