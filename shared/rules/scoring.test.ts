import { describe, expect, it } from 'vitest';
import {
  acceptedValues,
  correctOptionPoints,
  displayPercentage,
  earnsResourceTick,
  isCertificateEligible,
  matchesAccepted,
  parseNumber,
  passesPrerequisite,
  percentageOf,
  type ScoringQuestion,
  scoreQuestion,
  statusAfterEvaluation,
  summarise,
} from './scoring';
import { awardCounts } from './test-status';

const choice = (type: ScoringQuestion['type'], correct: string[], all = ['a', 'b', 'c', 'd']) => ({
  type,
  options: all.map((id) => ({ id, value: `option ${id}`, isCorrect: correct.includes(id) })),
});

const blank = (...accepted: string[]): ScoringQuestion => ({
  type: 'FILL_IN_BLANK',
  options: accepted.map((value, i) => ({ id: `o${i}`, value, isCorrect: true })),
});

describe('single-answer questions', () => {
  for (const type of ['MCQ', 'CODE_MCQ', 'MCQ_IMAGE'] as const) {
    it(`${type}: 10 for the correct option, 0 otherwise`, () => {
      const q = choice(type, ['b']);
      expect(scoreQuestion(q, { answerIds: ['b'] })).toBe(10);
      expect(scoreQuestion(q, { answerIds: 'b' })).toBe(10);
      expect(scoreQuestion(q, { answerIds: ['a'] })).toBe(0);
      expect(scoreQuestion(q, { answerIds: [] })).toBe(0);
      expect(scoreQuestion(q, null)).toBe(0);
    });
  }

  it('gives nothing for several options on a single-answer question, even if one is right', () => {
    expect(scoreQuestion(choice('MCQ', ['b']), { answerIds: ['a', 'b'] })).toBe(0);
    expect(scoreQuestion(choice('MCQ', ['b']), { answerIds: ['b', 'b'] })).toBe(10);
  });

  it('scores a question with no type as an MCQ', () => {
    const q = choice(null, ['c']);
    expect(scoreQuestion(q, { answerIds: ['c'] })).toBe(10);
    expect(scoreQuestion({ ...q, type: undefined }, { answerIds: ['c', 'd'] })).toBe(0);
  });

  it('gives nothing for an unknown option id', () => {
    expect(scoreQuestion(choice('MCQ', ['a']), { answerIds: ['zzz'] })).toBe(0);
  });
});

describe('multi-select questions (decision 005)', () => {
  for (const type of ['MSQ', 'MSQ_IMAGE'] as const) {
    it(`${type}: splits the 10 points equally across the correct options`, () => {
      const q = choice(type, ['a', 'c']);
      expect(scoreQuestion(q, { answerIds: ['a', 'c'] })).toBe(10);
      expect(scoreQuestion(q, { answerIds: ['a'] })).toBe(5);
      expect(scoreQuestion(q, { answerIds: ['c'] })).toBe(5);
    });

    it(`${type}: any wrong option scores the question 0`, () => {
      const q = choice(type, ['a', 'c']);
      expect(scoreQuestion(q, { answerIds: ['a', 'b'] })).toBe(0);
      expect(scoreQuestion(q, { answerIds: ['a', 'b', 'c'] })).toBe(0);
      expect(scoreQuestion(q, { answerIds: ['a', 'b', 'c', 'd'] })).toBe(0);
    });
  }

  it('rounds thirds to two decimals and gives exactly 10 for all of them', () => {
    const q = choice('MSQ', ['a', 'b', 'c']);
    expect(scoreQuestion(q, { answerIds: ['a'] })).toBe(3.33);
    expect(scoreQuestion(q, { answerIds: ['a', 'b'] })).toBe(6.67);
    expect(scoreQuestion(q, { answerIds: ['c', 'a', 'b'] })).toBe(10);
  });

  it('counts a repeated option once', () => {
    expect(scoreQuestion(choice('MSQ', ['a', 'c']), { answerIds: ['a', 'a'] })).toBe(5);
  });

  it('gives nothing for no answer, or when the question has no correct option', () => {
    expect(scoreQuestion(choice('MSQ', ['a']), { answerIds: [] })).toBe(0);
    expect(scoreQuestion(choice('MSQ', []), { answerIds: ['a'] })).toBe(0);
  });

  it('one correct option of one: all 10', () => {
    expect(scoreQuestion(choice('MSQ', ['d']), { answerIds: ['d'] })).toBe(10);
  });

  it("shows each correct option's points as choosing it alone scores them", () => {
    for (const correct of [['a'], ['a', 'c'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd']])
      for (const type of ['MSQ', 'MSQ_IMAGE'] as const)
        expect(correctOptionPoints(type, correct.length)).toBe(
          scoreQuestion(choice(type, correct), { answerIds: ['a'] }),
        );
    for (const type of ['MCQ', 'CODE_MCQ', 'MCQ_IMAGE', null] as const)
      expect(correctOptionPoints(type, 1)).toBe(scoreQuestion(choice(type, ['a']), { answerIds: ['a'] }));
    expect(correctOptionPoints('MSQ', 3)).toBe(3.33);
    expect(correctOptionPoints('MSQ', 0)).toBe(0);
  });
});

describe('fill-in-blank questions', () => {
  it('compares numbers as numbers', () => {
    const q = blank('3');
    expect(scoreQuestion(q, { answerText: '3.0' })).toBe(10);
    expect(scoreQuestion(q, { answerText: ' 3 ' })).toBe(10);
    expect(scoreQuestion(q, { answerText: 3 })).toBe(10);
    expect(scoreQuestion(q, { answerText: '+3.000' })).toBe(10);
    expect(scoreQuestion(q, { answerText: '3.01' })).toBe(0);
    expect(scoreQuestion(q, { answerText: '03' })).toBe(10);
    expect(scoreQuestion(blank('0.5'), { answerText: '.5' })).toBe(10);
    expect(scoreQuestion(blank('-2'), { answerText: '-2.0' })).toBe(10);
    expect(scoreQuestion(blank('1000'), { answerText: '1e3' })).toBe(10);
  });

  it('does not take words or partial numbers for numbers', () => {
    expect(scoreQuestion(blank('3'), { answerText: 'three' })).toBe(0);
    expect(scoreQuestion(blank('3'), { answerText: '3 apples' })).toBe(0);
    expect(scoreQuestion(blank('3'), { answerText: '0x3' })).toBe(0);
    expect(scoreQuestion(blank('1000'), { answerText: '1,000' })).toBe(0);
  });

  it('compares text trimmed and without regard to case, but otherwise exactly', () => {
    const q = blank('const');
    expect(scoreQuestion(q, { answerText: 'const' })).toBe(10);
    expect(scoreQuestion(q, { answerText: '  CONST ' })).toBe(10);
    expect(scoreQuestion(q, { answerText: 'cons' })).toBe(0);
    expect(scoreQuestion(q, { answerText: 'const;' })).toBe(0);
  });

  it('accepts any of several accepted values', () => {
    const q = blank('git init', 'git init .');
    expect(scoreQuestion(q, { answerText: 'git init .' })).toBe(10);
    expect(scoreQuestion(q, { answerText: 'Git Init' })).toBe(10);
  });

  it('gives nothing for an empty answer', () => {
    expect(scoreQuestion(blank('0'), { answerText: '' })).toBe(0);
    expect(scoreQuestion(blank('0'), { answerText: '   ' })).toBe(0);
    expect(scoreQuestion(blank('0'), {})).toBe(0);
    expect(scoreQuestion(blank('0'), { answerText: '0' })).toBe(10);
  });

  it('takes every option as accepted when none is marked correct (options that hold only a value)', () => {
    const q: ScoringQuestion = {
      type: 'FILL_IN_BLANK',
      options: [{ id: 'x', value: '42', isCorrect: false }],
    };
    expect(acceptedValues(q)).toEqual(['42']);
    expect(scoreQuestion(q, { answerText: '42.0' })).toBe(10);
  });

  it('parses numbers strictly', () => {
    expect(parseNumber('12')).toBe(12);
    expect(parseNumber(' -1.5 ')).toBe(-1.5);
    expect(parseNumber('')).toBeNull();
    expect(parseNumber('Infinity')).toBeNull();
    expect(parseNumber(Number.NaN)).toBeNull();
    expect(matchesAccepted('abc', 'ABC')).toBe(true);
    expect(matchesAccepted('', '')).toBe(false);
  });
});

describe('totals', () => {
  it('percentage = score × 100 / (10 × questions)', () => {
    expect(percentageOf(70, 10)).toBe(70);
    expect(percentageOf(33.33, 5)).toBe(66.66);
    expect(percentageOf(0, 0)).toBe(0);
  });

  it('shows the percentage rounded up', () => {
    expect(displayPercentage(66.66)).toBe(67);
    expect(displayPercentage(70)).toBe(70);
    expect(displayPercentage(70.0000000001)).toBe(70);
    expect(displayPercentage(0.01)).toBe(1);
  });

  it('a certificate needs score / questions ≥ 6', () => {
    expect(isCertificateEligible(60, 10)).toBe(true);
    expect(isCertificateEligible(59.99, 10)).toBe(false);
    expect(isCertificateEligible(30, 5)).toBe(true);
    expect(isCertificateEligible(0, 0)).toBe(false);
  });

  it('sums the points of every question, unanswered ones counting 0', () => {
    expect(summarise([10, 10, 5, 0, 10, 10, 0])).toEqual({
      score: 45,
      percentage: 64.29,
      questionCount: 7,
      eligible: true,
    });
    expect(summarise([10, 3.33, 3.33], 5)).toEqual({
      score: 16.66,
      percentage: 33.32,
      questionCount: 5,
      eligible: false,
    });
    expect(summarise([0.1, 0.2], 1).score).toBe(0.3);
  });

  it('status after evaluation', () => {
    expect(statusAfterEvaluation(true, false)).toBe('GENERATE_CERTIFICATE');
    expect(statusAfterEvaluation(true, true)).toBe('VIEW_CERTIFICATE');
    expect(statusAfterEvaluation(false, false)).toBe('NO_ENOUGH_MARKS');
    expect(statusAfterEvaluation(false, true)).toBe('NO_ENOUGH_MARKS');
  });
});

describe('progress', () => {
  it('a resource gets its tick at 60', () => {
    expect(earnsResourceTick(60)).toBe(true);
    expect(earnsResourceTick(59.99)).toBe(false);
    expect(earnsResourceTick(null)).toBe(false);
    expect(earnsResourceTick(undefined)).toBe(false);
  });

  it('a prerequisite below 60 % is not passed', () => {
    expect(passesPrerequisite(60)).toBe(true);
    expect(passesPrerequisite(40)).toBe(false);
  });

  it('counts certificates, badges and feathers earned (generated or not) and ticked resources', () => {
    const counts = awardCounts([
      { type: 'ROADMAP', status: 'GENERATE_CERTIFICATE' },
      { type: 'SUBJECT', status: 'VIEW_CERTIFICATE' },
      { type: 'SECTION', status: 'VIEW_CERTIFICATE' },
      { type: 'SECTION', status: 'NO_ENOUGH_MARKS' },
      { type: 'RESOURCE', status: 'GENERATE_CERTIFICATE' },
      { type: 'RESOURCE', status: 'TAKE_TEST' },
      { type: 'RESOURCE', status: 'EXPIRED' },
      { type: 'INITIAL-ASSESSMENT', status: 'GENERATE_CERTIFICATE' },
    ]);
    expect(counts).toEqual({ certificates: 2, badges: 1, feathers: 1 });
    expect([100, 60, 40].filter((p) => earnsResourceTick(p))).toHaveLength(2);
  });
});
