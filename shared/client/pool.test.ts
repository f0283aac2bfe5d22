import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runEach, runPool } from './pool';

describe('bounded concurrency (p-limit)', () => {
  it('never runs more than the limit at once, reports every outcome as it settles, and keeps them in order', async () => {
    let running = 0;
    let peak = 0;
    const settled: number[] = [];
    const items = Array.from({ length: 20 }, (_, i) => i);
    const { outcomes, fatal } = await runPool(
      items,
      async (n) => {
        running++;
        peak = Math.max(peak, running);
        // later items finish first: the outcomes are still in the order of the items
        await sleep(20 - n);
        running--;
        if (n === 7) throw new Error('seven failed');
        return n * 2;
      },
      { concurrency: 4, onSettled: (n) => settled.push(n) },
    );
    expect(peak).toBe(4);
    expect(fatal).toBeUndefined();
    expect(settled).not.toEqual(items);
    expect(settled.sort((a, b) => a - b)).toEqual(items);
    expect(outcomes.map((o) => (o?.ok ? o.value : 'failed'))).toEqual(
      items.map((n) => (n === 7 ? 'failed' : n * 2)),
    );
    expect(outcomes[7]).toMatchObject({ ok: false, error: { message: 'seven failed' } });
  });

  it('stops starting new items after a fatal error, and returns it', async () => {
    const started: number[] = [];
    const { outcomes, fatal } = await runPool(
      Array.from({ length: 10 }, (_, i) => i),
      async (n) => {
        started.push(n);
        await sleep(1);
        if (n === 2) throw new Error('signed out');
        return n;
      },
      { concurrency: 2, isFatal: (e) => (e as Error).message === 'signed out' },
    );
    expect((fatal as Error).message).toBe('signed out');
    expect(started.length).toBeLessThanOrEqual(4);
    expect(outcomes[2]).toBeUndefined();
    expect(outcomes.slice(5).every((o) => o === undefined)).toBe(true);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const { outcomes, fatal } = await runPool(
      Array.from({ length: 10 }, (_, i) => i),
      async (n) => {
        if (n === 1) controller.abort(new Error('Ctrl+C'));
        return n;
      },
      { concurrency: 1, signal: controller.signal },
    );
    expect((fatal as Error).message).toBe('Ctrl+C');
    expect(outcomes.filter(Boolean)).toHaveLength(2);
  });

  it('reads a stream only as items can start, and closes it when stopped early', async () => {
    let produced = 0;
    let ahead = 0;
    let closed = false;
    async function* source() {
      try {
        for (let i = 0; i < 100; i++) {
          produced++;
          ahead = Math.max(ahead, produced - settledCount);
          yield i;
        }
      } finally {
        closed = true;
      }
    }
    let settledCount = 0;
    const { fatal, halted } = await runEach(
      source(),
      async (n) => {
        await sleep(1);
        return n;
      },
      {
        concurrency: 3,
        onSettled: () => settledCount++,
        halts: (o) => o.ok && o.value === 40,
      },
    );
    expect(fatal).toBeUndefined();
    expect(halted).toBe(true);
    // never more read than can run
    expect(ahead).toBeLessThanOrEqual(3);
    expect(produced).toBeLessThan(50);
    expect(closed).toBe(true);
  });

  it("ends with the producer's error, after the items in flight", async () => {
    const settled: number[] = [];
    async function* source() {
      yield 1;
      yield 2;
      throw new Error('the check of a window failed');
    }
    const { fatal } = await runEach(source(), async (n) => n, {
      concurrency: 2,
      onSettled: (n) => settled.push(n),
    });
    expect((fatal as Error).message).toBe('the check of a window failed');
    expect(settled.sort()).toEqual([1, 2]);
  });

  it('after a halt starts only the items that still run (runsAfterHalt), and none of the others', async () => {
    const started: number[] = [];
    const items = Array.from({ length: 10 }, (_, i) => i);
    const { outcomes, halted } = await runPool(
      items,
      async (n) => {
        started.push(n);
        return n;
      },
      { concurrency: 1, halts: (o) => o.ok && o.value === 3, runsAfterHalt: (n) => n % 2 === 0 },
    );
    expect(halted).toBe(true);
    expect(started).toEqual([0, 1, 2, 3, 4, 6, 8]);
    expect(outcomes.map((o) => (o ? 'ran' : '-'))).toEqual([
      'ran',
      'ran',
      'ran',
      'ran',
      'ran',
      '-',
      'ran',
      '-',
      'ran',
      '-',
    ]);
  });
});
