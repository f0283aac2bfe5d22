/**
 * The event catalogue (issue 29 item 1): every type has its current version's payload schema and an example
 * that parses by it; an assessment's events carry the score and never the answers or the key.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EVENT_CATALOGUE, EVENT_TYPES, payloadSchema } from './events';

describe('the event catalogue', () => {
  it('names the events of issue 29, each with a version and an example of it', () => {
    expect([...EVENT_TYPES].sort()).toEqual(
      [
        'award.issued',
        'award.revoked',
        'assessment.evaluated',
        'roadmap.assigned',
        'roadmap.completed',
        'seat.added',
        'seat.removed',
        'learning.day.closed',
      ].sort(),
    );
    for (const type of EVENT_TYPES) {
      const entry = EVENT_CATALOGUE[type];
      const version = entry.versions[entry.current as keyof typeof entry.versions] as { example: unknown };
      const parsed = payloadSchema(type, entry.current)!.safeParse(version.example);
      expect(parsed.success, `${type}: ${parsed.error?.message}`).toBe(true);
      expect(payloadSchema(type, entry.current + 1)).toBeNull();
    }
    expect(payloadSchema('no.such', 1)).toBeNull();
  });

  it('never describes answers or the answer key in an assessment event', () => {
    for (const type of ['assessment.evaluated', 'award.issued'] as const) {
      const json = JSON.stringify(z.toJSONSchema(payloadSchema(type, 1)!));
      for (const word of ['isCorrect', 'correct', 'answer', 'options', 'key"'])
        expect(json.toLowerCase(), `${type} mentions ${word}`).not.toContain(word.toLowerCase());
      expect(json).toContain('"score"');
    }
    const evaluated = payloadSchema('assessment.evaluated', 1) as z.ZodObject;
    expect(Object.keys(evaluated.shape)).toEqual(expect.arrayContaining(['score', 'passed', 'level']));
  });
});
