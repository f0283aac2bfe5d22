import { describe, expect, it } from 'vitest';
import { checkShareable, parseShareTiming } from './assessments';

const now = Date.parse('2026-03-02T09:20:00Z');

describe('the share timing', () => {
  it('takes an ISO time on a quarter hour, not in the past, and whole hours from 1', () => {
    expect(parseShareTiming('2026-03-02T09:30:00Z', '2', now)).toEqual({
      ok: true,
      timing: { startTime: Date.parse('2026-03-02T09:30:00Z'), duration: 2 },
    });
    expect(parseShareTiming('2026-03-02T15:00:00+05:30', '1', now)).toMatchObject({
      ok: true,
      timing: { startTime: Date.parse('2026-03-02T09:30:00Z') },
    });
  });

  it('names the option and the rule of every problem, both options at once', () => {
    expect(parseShareTiming('2026-03-02T09:37:00Z', '0', now)).toEqual({
      ok: false,
      problems: [
        {
          field: '--start',
          message: 'The start time must be on a 15-minute step: for example 2026-03-02T09:45:00.000Z',
        },
        { field: '--duration', message: 'The duration must be at least 1 hour' },
      ],
    });
    expect(parseShareTiming('2026-03-02T09:00:00Z', '1.5', now)).toEqual({
      ok: false,
      problems: [
        { field: '--duration', message: 'must be a whole number of hours' },
        {
          field: '--start',
          message: 'The start time cannot be in the past (it is 2026-03-02T09:20:00.000Z now)',
        },
      ],
    });
  });

  it('says a start in the past even when it is also off the 15-minute step (every problem at once)', () => {
    expect(parseShareTiming('2026-03-01T08:07:00Z', '2', now)).toEqual({
      ok: false,
      problems: [
        {
          field: '--start',
          message: 'The start time must be on a 15-minute step: for example 2026-03-02T09:30:00.000Z',
        },
        {
          field: '--start',
          message: 'The start time cannot be in the past (it is 2026-03-02T09:20:00.000Z now)',
        },
      ],
    });
  });

  it('refuses what is not an ISO time or a number, and what is missing', () => {
    expect(parseShareTiming('next monday', 'two', now)).toEqual({
      ok: false,
      problems: [
        { field: '--start', message: '"next monday" is not an ISO 8601 time such as 2026-03-02T09:30:00Z' },
        { field: '--duration', message: 'must be a number of hours' },
      ],
    });
    expect(parseShareTiming(undefined, ' ', now)).toEqual({
      ok: false,
      problems: [
        { field: '--start', message: 'Please provide valid input' },
        { field: '--duration', message: 'Please provide valid input' },
      ],
    });
  });
});

describe('an assessment to share', () => {
  const questions = (published: number, drafts = 0) => [
    ...Array.from({ length: published }, () => ({ status: 'PUBLISH' as const })),
    ...Array.from({ length: drafts }, () => ({ status: 'PREVIEW' as const })),
  ];
  it('needs at least 10 published questions (drafts do not count)', () => {
    expect(checkShareable({ questions: questions(10) })).toBeNull();
    expect(checkShareable({ questions: questions(9, 3) })).toEqual({
      field: 'questions',
      message: 'Please add at least 10 questions to the assessment before sharing it. It has 9.',
    });
  });
});
