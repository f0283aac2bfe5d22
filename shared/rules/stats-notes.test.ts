/**
 * Why a statistic is not given, said by code (issue 31, decision 048): the English the API and the CLI keep
 * is en.json's text of each code, and the rules that give a note give its code beside it.
 */
import { english } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../i18n/translator';
import { itemFigures } from './item-analysis';
import { NOTE_CODES, NOTE_ENGLISH } from './stats-notes';
import { reliabilityOf } from './test-figures';

const en = createTranslator('en', english);

describe('the statistics’ notes', () => {
  it('say in English what en.json says of each code', () => {
    for (const code of NOTE_CODES) expect(en.t(code)).toBe(NOTE_ENGLISH[code]);
  });

  it('carry their code beside their English', () => {
    const r = reliabilityOf({
      attempts: 1,
      sumRaw: 1,
      sumRaw2: 1,
      sumK: 2,
      items: [],
      partialCredit: false,
      sd: null,
    });
    expect(r).toMatchObject({ note: 'Needs at least two attempts.', noteCode: 'stats.note.twoAttempts' });
    const sums = { n: 1, sx: 1, sxx: 1, nr: 0, rx: 0, rxx: 0, sr: 0, srr: 0, sxr: 0, seconds: 0, timed: 0 };
    const item = itemFigures({ sums, buckets: [], days: [], options: null });
    expect(item.discriminationNoteCode).toBe('stats.note.twoAttempts');
    expect(item.discriminationNote).toBe(NOTE_ENGLISH['stats.note.twoAttempts']);
  });
});
