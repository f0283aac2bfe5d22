import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runPool } from './pool';

describe('bounded concurrency', () => {
  it('never runs more than the limit at once, and reports every outcome as it settles', async () => {
    let running = 0;
    let peak = 0;
    const settled: number[] = [];
    const items = Array.from({ length: 20 }, (_, i) => i);
    const { outcomes, fatal } = await runPool(
      items,
      async (n) => {
        running++;
        peak = Math.max(peak, running);
        await sleep(n % 3);
        running--;
        if (n === 7) throw new Error('seven failed');
        return n * 2;
      },
      { concurrency: 4, onSettled: (n) => settled.push(n) },
    );
    expect(peak).toBe(4);
    expect(fatal).toBeUndefined();
    expect(settled.sort((a, b) => a - b)).toEqual(items);
    expect(outcomes[3]).toEqual({ ok: true, value: 6 });
    expect(outcomes[7]).toMatchObject({ ok: false, error: { message: 'seven failed' } });
    expect(outcomes.filter((o) => o?.ok)).toHaveLength(19);
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
