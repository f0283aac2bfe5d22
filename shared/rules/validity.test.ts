import { english, loaders } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../i18n/translator';
import { addMonths, monthsAt, validitySaid, validityState, validityWords, validUntilChain } from './validity';

const d = (s: string) => new Date(s);

describe('validity periods', () => {
  it('adds calendar months in UTC, the last day when the month is shorter', () => {
    expect(addMonths(d('2026-03-03T10:00:00Z'), 12).toISOString()).toBe('2027-03-03T10:00:00.000Z');
    expect(addMonths(d('2026-01-31T00:00:00Z'), 1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(addMonths(d('2028-01-31T00:00:00Z'), 1).toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('gives an award the period in force when it was earned: nothing expires retroactively', () => {
    const periods = [
      { months: 12, from: d('2026-06-01T00:00:00Z') },
      { months: null, from: d('2027-01-01T00:00:00Z') },
      { months: 6, from: d('2027-06-01T00:00:00Z') },
    ];
    expect(monthsAt(periods, d('2026-05-31T23:59:59Z'))).toBeNull();
    expect(monthsAt(periods, d('2026-06-01T00:00:00Z'))).toBe(12);
    expect(monthsAt(periods, d('2027-02-01T00:00:00Z'))).toBeNull();
    expect(monthsAt(periods, d('2027-07-01T00:00:00Z'))).toBe(6);
  });

  it('a renewal passed while the award is valid runs from its end; after it, from its own date', () => {
    const periods = [{ months: 12, from: d('2026-01-01T00:00:00Z') }];
    const [first, early, late] = validUntilChain(periods, [
      d('2026-03-03T00:00:00Z'),
      d('2027-02-10T00:00:00Z'),
      d('2028-06-01T00:00:00Z'),
    ]);
    expect(first!.toISOString()).toBe('2027-03-03T00:00:00.000Z');
    expect(early!.toISOString()).toBe('2028-03-03T00:00:00.000Z');
    expect(late!.toISOString()).toBe('2029-06-01T00:00:00.000Z');
  });

  it('says where an award stands in plain words', () => {
    const now = d('2027-02-10T00:00:00Z');
    expect(validityState(null, now)).toBe('no-end');
    expect(validityState('2027-06-01T00:00:00Z', now)).toBe('valid');
    expect(validityState('2027-03-03T00:00:00Z', now)).toBe('expiring');
    expect(validityState('2027-02-01T00:00:00Z', now)).toBe('expired');
    expect(validityWords('2027-03-03T00:00:00Z', now)).toBe('Valid until 3rd Mar 2027');
    expect(validityWords('2027-02-01T00:00:00Z', now)).toBe('Expired on 1st Feb 2027');
    expect(validityWords(null, now)).toBe('Valid with no end date');
  });

  // issue 31: the English the CLI prints is en.json's text of the code the pages and the mail say
  const now = d('2027-02-10T00:00:00Z');
  const cases = ['2027-03-03T00:00:00Z', '2027-06-01T00:00:00Z', '2027-02-01T00:00:00Z', null];

  it('says the same English as the catalogue, by its code', () => {
    const en = createTranslator('en', english);
    for (const until of cases) {
      const said = validitySaid(until, now);
      expect(en.t(said.code, said.params)).toBe(validityWords(until, now));
    }
  });

  it('says it in Spanish and Arabic, the date as each language writes it', async () => {
    const es = createTranslator('es', (await loaders.es()).default, english);
    const ar = createTranslator('ar', (await loaders.ar()).default, english);
    const say = (t: typeof es, until: string | null) => {
      const said = validitySaid(until, now, 'UTC', t.locale);
      return t.t(said.code, said.params);
    };
    expect(cases.map((c) => say(es, c))).toEqual([
      'Válido hasta el 3 mar 2027',
      'Válido hasta el 1 jun 2027',
      'Caducó el 1 feb 2027',
      'Válido sin fecha de fin',
    ]);
    expect(say(ar, '2027-02-01T00:00:00Z')).toBe(
      `انتهت في ${new Intl.DateTimeFormat('ar', { timeZone: 'UTC', dateStyle: 'medium' }).format(d('2027-02-01T00:00:00Z'))}`,
    );
    expect(say(ar, null)).toBe('صالحة بلا تاريخ انتهاء');
  });
});
