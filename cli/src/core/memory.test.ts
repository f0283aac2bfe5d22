import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HEAP_BOUND_BYTES, reclaim } from './memory';

describe('reclaim', () => {
  it('does nothing while the heap is under the bound', () => {
    expect(reclaim(Number.MAX_SAFE_INTEGER)).toBe(false);
    expect(HEAP_BOUND_BYTES).toBe(32 * 1024 * 1024);
  });

  it("collects a window's garbage once the heap is over it", () => {
    let garbage: unknown[] | null = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `question ${i}` }));
    const before = getHeapStatistics().used_heap_size;
    expect((garbage as unknown[]).length).toBe(200_000);
    garbage = null;
    expect(reclaim(0)).toBe(true);
    expect(getHeapStatistics().used_heap_size).toBeLessThan(before - 5 * 1024 * 1024);
  });
});
