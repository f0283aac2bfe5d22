import { english } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../i18n/translator';
import {
  describeEntry,
  type FocusEvent,
  INTEGRITY_RULES,
  integrityOf,
  spokenAway,
  tierOf,
} from './integrity';

const T0 = Date.UTC(2028, 1, 29, 23, 50); // a leap day, ten minutes before midnight UTC
const S = 1000;
const ev = (
  type: FocusEvent['type'],
  sec: number,
  question: number | null = 1,
  chars?: number,
): FocusEvent => ({
  type,
  at: T0 + sec * S,
  question,
  chars,
});
/** absences of `len` seconds every `every` seconds */
const absences = (n: number, len: number, every = 60) =>
  Array.from({ length: n }, (_, i) => [
    ev('BLUR', 10 + i * every, i + 1),
    ev('FOCUS', 10 + i * every + len, i + 1),
  ]).flat();

const en = createTranslator('en', english);
describe('the focus record of a test', () => {
  it('turns blur and focus into absences with the question on screen', () => {
    const r = integrityOf([ev('BLUR', 100, 7), ev('FOCUS', 230, 7)], T0, T0 + 1200 * S);
    expect(r.timeline).toEqual([
      {
        kind: 'AWAY',
        at: T0 + 100 * S,
        until: T0 + 230 * S,
        seconds: 130,
        question: 7,
        chars: null,
        brief: false,
      },
    ]);
    expect(describeEntry(r.timeline[0]!, en)).toBe('Away 2 min 10 s on question 7');
    expect(r.summary).toMatchObject({
      awaySeconds: 130,
      longestAwaySeconds: 130,
      absences: 1,
      testSeconds: 1200,
    });
  });

  it('spans midnight UTC and the leap day without losing a second', () => {
    // away from 23:58 on 29 February to 00:03 on 1 March
    const r = integrityOf([ev('BLUR', 480), ev('FOCUS', 780)], T0, T0 + 1200 * S);
    expect(r.summary.awaySeconds).toBe(300);
    expect(new Date(r.timeline[0]!.until!).toISOString()).toBe('2028-03-01T00:03:00.000Z');
  });

  it('lists brief absences without counting them', () => {
    const r = integrityOf(absences(20, 2), T0, T0 + 1800 * S);
    expect(r.summary.absences).toBe(0);
    expect(r.summary.briefAbsences).toBe(20);
    expect(r.summary.tier).toBe('NONE');
    expect(describeEntry(r.timeline[0]!, en)).toBe('Briefly away 2 s on question 1');
  });

  it('ignores a repeated blur, a focus without a blur and events outside the attempt', () => {
    const r = integrityOf(
      [
        ev('FOCUS', 5),
        ev('BLUR', 10),
        ev('BLUR', 20),
        ev('FOCUS', 40),
        ev('FOCUS', 50),
        ev('BLUR', -100),
        ev('FOCUS', 5000),
      ],
      T0,
      T0 + 1200 * S,
    );
    expect(r.timeline.map((t) => [t.kind, t.seconds])).toEqual([['AWAY', 30]]);
  });

  it('counts an absence still open at the end of the test up to the end', () => {
    const r = integrityOf([ev('BLUR', 1100, 10)], T0, T0 + 1200 * S);
    expect(r.timeline[0]).toMatchObject({ seconds: 100, until: null, question: 10 });
    expect(describeEntry(r.timeline[0]!, en)).toBe(
      'Away 1 min 40 s on question 10 (until the end of the test)',
    );
    expect(r.summary.awaySeconds).toBe(100);
  });

  it('sorts events that arrived out of order (an offline queue sent late)', () => {
    const r = integrityOf(
      [ev('FOCUS', 200), ev('ONLINE', 300), ev('BLUR', 100), ev('OFFLINE', 150)],
      T0,
      T0 + 600 * S,
    );
    expect(r.timeline.map((t) => [t.kind, t.seconds])).toEqual([
      ['AWAY', 100],
      ['OFFLINE', 150],
    ]);
    expect(r.summary.offlineSeconds).toBe(150);
  });

  it('shows a second tab and time offline without letting them decide the tier', () => {
    const r = integrityOf(
      [ev('SECOND_TAB', 10), ev('SECOND_TAB_CLOSED', 400), ev('OFFLINE', 500), ev('ONLINE', 1000)],
      T0,
      T0 + 1200 * S,
    );
    expect(r.summary).toMatchObject({ tier: 'NONE', secondTabs: 1, offlineSeconds: 500 });
    expect(describeEntry(r.timeline[0]!, en)).toBe('The test was open in a second tab for 6 min 30 s');
  });

  it('records pastes by length, never by content', () => {
    const r = integrityOf([ev('PASTE', 30, 4, 18)], T0, T0 + 600 * S);
    expect(r.timeline[0]).toMatchObject({ kind: 'PASTE', chars: 18, question: 4, seconds: null });
    expect(describeEntry(r.timeline[0]!, en)).toBe('Pasted 18 characters into the answer on question 4');
    expect(r.summary.tier).toBe('SOME');
    expect(r.summary.reasons).toEqual(['1 paste into an answer']);
  });
});

describe('the tier rules', () => {
  const twentyMinutes = 1200;
  it('is none for a test taken without leaving it', () => {
    expect(
      tierOf({ awaySeconds: 0, longestAwaySeconds: 0, absences: 0, pastes: 0 }, twentyMinutes).tier,
    ).toBe('NONE');
  });

  it('is none for one short absence in a long test', () => {
    expect(
      tierOf({ awaySeconds: 10, longestAwaySeconds: 10, absences: 1, pastes: 0 }, twentyMinutes).tier,
    ).toBe('NONE');
  });

  it('is some from the longest absence threshold', () => {
    const { longestSeconds } = INTEGRITY_RULES.some;
    expect(
      tierOf(
        { awaySeconds: longestSeconds - 1, longestAwaySeconds: longestSeconds - 1, absences: 1, pastes: 0 },
        3600,
      ).tier,
    ).toBe('NONE');
    expect(
      tierOf(
        { awaySeconds: longestSeconds, longestAwaySeconds: longestSeconds, absences: 1, pastes: 0 },
        3600,
      ),
    ).toEqual({
      tier: 'SOME',
      reasons: ['away 30 s at once'],
    });
  });

  it('weighs time away against the length of the test', () => {
    // 130 s away over a 20-minute test is notable (≥ 120 s and ≥ 10 %); over an hour it is some (< 10 %)
    const f = { awaySeconds: 130, longestAwaySeconds: 50, absences: 3, pastes: 0 };
    expect(tierOf(f, 1200).tier).toBe('NOTABLE');
    expect(tierOf(f, 1200).reasons[0]).toBe('2 min 10 s away in all (11 % of the test)');
    expect(tierOf(f, 3600).tier).toBe('SOME');
  });

  it('weighs the number of absences against the length of the test', () => {
    // 6 absences of 5 s: in 10 minutes that is notable, in an hour it is 1 per 10 minutes: not even some
    const f = { awaySeconds: 30, longestAwaySeconds: 5, absences: 6, pastes: 0 };
    expect(tierOf(f, 600).tier).toBe('NOTABLE');
    expect(tierOf(f, 600).reasons).toContain('left the test 6 times (6 per 10 minutes)');
    expect(tierOf({ ...f, awaySeconds: 12 }, 3600).tier).toBe('NONE');
  });

  it('counts a very short test as one minute long', () => {
    expect(tierOf({ awaySeconds: 20, longestAwaySeconds: 20, absences: 1, pastes: 0 }, 5).tier).toBe('SOME');
  });

  it('is notable from three pastes', () => {
    expect(tierOf({ awaySeconds: 0, longestAwaySeconds: 0, absences: 0, pastes: 2 }, 600).tier).toBe('SOME');
    expect(tierOf({ awaySeconds: 0, longestAwaySeconds: 0, absences: 0, pastes: 3 }, 600).tier).toBe(
      'NOTABLE',
    );
  });

  it('decides from a timeline of many lookups', () => {
    // ten 20-second absences in a 20-minute test
    const r = integrityOf(absences(10, 20, 100), T0, T0 + 1200 * S);
    expect(r.summary).toMatchObject({
      tier: 'NOTABLE',
      absences: 10,
      awaySeconds: 200,
      longestAwaySeconds: 20,
    });
  });
});

describe('spokenAway', () => {
  it('says the two largest units', () => {
    expect(spokenAway(0)).toBe('0 s');
    expect(spokenAway(59.6)).toBe('1 min');
    expect(spokenAway(130)).toBe('2 min 10 s');
    expect(spokenAway(3600)).toBe('1 h');
    expect(spokenAway(3 * 3600 + 125)).toBe('3 h 2 min');
  });
});
