/**
 * How deep JSON may nest, read from text and from values without recursion, and the verify call's schema,
 * which must answer a hostile credential with an issue, never throw (issue 25: its refine ran
 * JSON.stringify on a credential nested 6,000 deep and threw a RangeError, a 500).
 */
import { describe, expect, it } from 'vitest';
import { VerifyInput } from './credential';
import { jsonTextTooDeep, jsonValueTooDeep, MAX_JSON_DEPTH } from './json-depth';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('jsonTextTooDeep', () => {
  it('counts objects and arrays, up to the limit and past it', () => {
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTextTooDeep(`${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`)).toBe(true);
    expect(jsonTextTooDeep(`[${'[],'.repeat(500)}[]]`)).toBe(false);
  });

  it('does not count brackets inside strings, whatever their escapes', () => {
    expect(jsonTextTooDeep(`["${'['.repeat(500)}"]`)).toBe(false);
    expect(jsonTextTooDeep(`["\\"${'{'.repeat(500)}"]`)).toBe(false);
    // an escaped backslash ends before the quote: the brackets after the string count
    expect(jsonTextTooDeep(`["\\\\",${nested(MAX_JSON_DEPTH + 1)}]`)).toBe(true);
  });
});

describe('jsonValueTooDeep', () => {
  it('measures a value without recursion, and a value that contains itself is endlessly deep', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { a: [deep] };
    expect(jsonValueTooDeep(deep)).toBe(true);
    expect(jsonValueTooDeep(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(false);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(jsonValueTooDeep(loop)).toBe(true);
  });
});

describe('the verify call’s schema on hostile credentials', () => {
  it('answers an issue naming the problem, and never throws', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 6000; i++) deep = { nested: deep };
    const tooDeep = VerifyInput.safeParse({ credential: deep });
    expect(tooDeep.success).toBe(false);
    expect(tooDeep.error?.issues[0]).toMatchObject({
      path: ['credential'],
      message: 'nests deeper than 64 levels',
    });

    const loop: Record<string, unknown> = { '@context': [] };
    loop.self = loop;
    expect(VerifyInput.safeParse({ credential: loop }).success).toBe(false);

    const long = VerifyInput.safeParse({ credential: { text: 'x'.repeat(250_000) } });
    expect(long.error?.issues[0]?.message).toBe('is too long for a credential');
  });
});
