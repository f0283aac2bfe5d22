import { describe, expect, it } from 'vitest';
import { underLock } from './api';

describe('underLock', () => {
  it('runs the refresh under the lock where locks are given', async () => {
    const names: string[] = [];
    const locks = {
      request: (name: string, fn: () => Promise<unknown>) => {
        names.push(name);
        return fn();
      },
    } as unknown as LockManager;
    expect(await underLock(locks, 'waymark-refresh', async () => 'fresh')).toBe('fresh');
    expect(names).toEqual(['waymark-refresh']);
  });

  it('runs it alone where the browser refuses locks (a framed page with third-party storage blocked)', async () => {
    const locks = {
      request: () => Promise.reject(Object.assign(new Error('denied'), { name: 'SecurityError' })),
    } as unknown as LockManager;
    expect(await underLock(locks, 'waymark-refresh', async () => 'fresh')).toBe('fresh');
  });

  it("passes on the refresh's own failure, without running it twice", async () => {
    let runs = 0;
    const locks = { request: (_: string, fn: () => Promise<unknown>) => fn() } as unknown as LockManager;
    const failing = async () => {
      runs++;
      throw Object.assign(new Error('refused'), { name: 'SecurityError' });
    };
    await expect(underLock(locks, 'waymark-refresh', failing)).rejects.toThrow('refused');
    expect(runs).toBe(1);
  });
});
