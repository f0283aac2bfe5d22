import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache';

function clocked(maxEntries?: number) {
  const clock = { ms: 1_000 };
  const cache = new TtlCache<string, object>({ maxEntries, now: () => clock.ms });
  return { clock, cache };
}

describe('a bounded TTL map', () => {
  it('returns the very object stored, not a copy, until its expiry', () => {
    const { clock, cache } = clocked();
    const document = { id: 'a' };
    cache.set('a', document, 2_000);
    expect(cache.get('a')).toBe(document);
    clock.ms = 1_999;
    expect(cache.get('a')).toBe(document);
  });

  it('forgets an entry once the clock reaches its expiry', () => {
    const { clock, cache } = clocked();
    cache.set('a', {}, 2_000);
    clock.ms = 2_000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.has('a')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('gives each entry its own expiry', () => {
    const { clock, cache } = clocked();
    cache.set('short', {}, 1_500);
    cache.set('long', {}, 5_000);
    clock.ms = 3_000;
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')).toBeDefined();
  });

  it('keeps at most maxEntries, forgetting the oldest set', () => {
    const { cache } = clocked(2);
    cache.set('a', {}, 9_000);
    cache.set('b', {}, 9_000);
    cache.set('c', {}, 9_000);
    expect(cache.size).toBe(2);
    expect(cache.has('a')).toBe(false);
    expect([cache.has('b'), cache.has('c')]).toEqual([true, true]);
  });

  it('counts a key set again as the newest, with its new value and expiry', () => {
    const { clock, cache } = clocked(2);
    const renewed = { v: 2 };
    cache.set('a', { v: 1 }, 1_500);
    cache.set('b', {}, 9_000);
    cache.set('a', renewed, 9_000);
    cache.set('c', {}, 9_000);
    expect(cache.has('b')).toBe(false);
    clock.ms = 5_000;
    expect(cache.get('a')).toBe(renewed);
  });

  it('forgets a deleted key at once', () => {
    const { cache } = clocked();
    cache.set('a', {}, 9_000);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('reads Date.now when given no clock', () => {
    const cache = new TtlCache<string, number>();
    cache.set('past', 1, Date.now() - 1);
    cache.set('future', 2, Date.now() + 60_000);
    expect(cache.get('past')).toBeUndefined();
    expect(cache.get('future')).toBe(2);
  });
});
