import { statusAfterEvaluation } from '@shared/rules/scoring';
import { describe, expect, it } from 'vitest';
import type { LinkRow } from '../tables';
import type { KeyQuestion } from './answers';
import { inFrozenOrder, newLinkId } from './drawing';
import { acceptsAnswers, normaliseAnswer, timeLimitFor, unusedUntil, windowEnd } from './rules';

const q = (type: KeyQuestion['type'], n = 3): KeyQuestion => ({
  id: 'q',
  type,
  points: 10,
  roadmapId: null,
  options: Array.from({ length: n }, (_, i) => ({
    id: `o${i}`,
    value: `v${i}`,
    isCorrect: i === 0,
    points: i === 0 ? 10 : 0,
  })),
});

describe('answers as stored', () => {
  it('keeps one option for single-choice types and refuses others’ options', () => {
    for (const type of ['MCQ', 'CODE_MCQ', 'MCQ_IMAGE'] as const) {
      expect(normaliseAnswer(q(type), { answerId: 'o1' })).toEqual({
        questionId: 'q',
        answerIds: ['o1'],
        answerText: null,
      });
      expect(normaliseAnswer(q(type), { answerId: ['o2'] }).answerIds).toEqual(['o2']);
      expect(() => normaliseAnswer(q(type), { answerId: ['o1', 'o2'] })).toThrow(/choose one option/);
      expect(() => normaliseAnswer(q(type), { answerId: 'x' })).toThrow(/not an option/);
      expect(() => normaliseAnswer(q(type), {})).toThrow(/choose one option/);
    }
  });
  it('keeps the list for multi-select, without duplicates, and allows clearing it', () => {
    expect(normaliseAnswer(q('MSQ'), { answerId: ['o2', 'o0', 'o2'] }).answerIds).toEqual(['o2', 'o0']);
    expect(normaliseAnswer(q('MSQ_IMAGE'), { answerId: 'o1' }).answerIds).toEqual(['o1']);
    expect(normaliseAnswer(q('MSQ'), { answerId: [] }).answerIds).toEqual([]);
    expect(() => normaliseAnswer(q('MSQ'), { answerId: ['o0', 'zz'] }, 'answers.2.')).toThrow(
      /answers\.2\.answerId/,
    );
  });
  it('keeps the typed value of a fill-in-blank, numbers as text', () => {
    expect(normaliseAnswer(q('FILL_IN_BLANK', 1), { answer: 42 }).answerText).toBe('42');
    expect(normaliseAnswer(q('FILL_IN_BLANK', 1), { answer: '  forty two ' }).answerText).toBe('forty two');
    expect(() => normaliseAnswer(q('FILL_IN_BLANK', 1), {})).toThrow(/type the answer/);
  });
});

describe('a link’s clock', () => {
  const base = {
    startTime: null,
    durationHours: null,
    expiresAt: new Date('2026-01-08T00:00:00Z'),
  } as unknown as LinkRow;
  it('allows a minute a question, at least five', () => {
    expect(timeLimitFor(1)).toBe(5);
    expect(timeLimitFor(5)).toBe(5);
    expect(timeLimitFor(10)).toBe(10);
    expect(timeLimitFor(20)).toBe(20);
  });
  it('ends an unused link at its expiry or the end of a custom window, whichever is first', () => {
    expect(unusedUntil(base)?.toISOString()).toBe('2026-01-08T00:00:00.000Z');
    const custom = { ...base, startTime: new Date('2026-01-01T10:00:00Z'), durationHours: 2 };
    expect(windowEnd(custom)?.toISOString()).toBe('2026-01-01T12:00:00.000Z');
    expect(unusedUntil(custom)?.toISOString()).toBe('2026-01-01T12:00:00.000Z');
  });
  it('takes answers only while started and before the deadline (with a few seconds’ grace)', () => {
    const started = {
      ...base,
      type: 'RESOURCE',
      status: 'TAKE_TEST',
      isCompleted: false,
      startedAt: new Date('2026-01-01T10:00:00Z'),
      deadlineAt: new Date('2026-01-01T10:05:00Z'),
    } as LinkRow;
    expect(acceptsAnswers(started, new Date('2026-01-01T10:04:59Z'))).toBe(true);
    expect(acceptsAnswers(started, new Date('2026-01-01T10:05:04Z'))).toBe(true);
    expect(acceptsAnswers(started, new Date('2026-01-01T10:05:06Z'))).toBe(false);
    expect(acceptsAnswers({ ...started, startedAt: null }, new Date('2026-01-01T10:01:00Z'))).toBe(false);
    expect(acceptsAnswers({ ...started, isCompleted: true }, new Date('2026-01-01T10:01:00Z'))).toBe(false);
  });
  it('sets the status after evaluation', () => {
    expect(statusAfterEvaluation(false, false)).toBe('NO_ENOUGH_MARKS');
    expect(statusAfterEvaluation(true, false)).toBe('GENERATE_CERTIFICATE');
    expect(statusAfterEvaluation(true, true)).toBe('VIEW_CERTIFICATE');
  });
  it('shows options in the frozen order, new ones last', () => {
    const opts = ['a', 'b', 'c', 'd'].map((id) => ({ id }));
    expect(inFrozenOrder(opts, ['c', 'a', 'b']).map((o) => o.id)).toEqual(['c', 'a', 'b', 'd']);
  });
});

describe('a new link id', () => {
  it('is 22 base64url characters, never the same, and never starts with "-" (a command line reads that as an option)', () => {
    const ids = Array.from({ length: 5000 }, newLinkId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
