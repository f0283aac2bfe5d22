import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  flushQueue,
  HeartbeatQueue,
  type KeyValueStore,
  MAX_QUEUED,
  type QueuedBeat,
} from './queue';

function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    async get<T>(key: string) {
      const v = data.get(key);
      return v === undefined ? undefined : (structuredClone(v) as T);
    },
    async set(key, value) {
      data.set(key, structuredClone(value));
    },
  };
}
let n = 0;
const beat = (user = 'u1', over: Partial<QueuedBeat> = {}): QueuedBeat => ({
  id: `beat-${String(++n).padStart(6, '0')}`,
  resourceId: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  url: 'https://example.com/guide',
  time: 1_700_000_000_000 + n * 1000,
  tabActive: true,
  audible: false,
  user,
  ...over,
});

describe('the offline queue', () => {
  it('survives the worker being stopped: a new queue over the same storage has the heartbeats', async () => {
    const store = memoryStore();
    await new HeartbeatQueue(store).add([beat(), beat()]);
    expect(await new HeartbeatQueue(store).size('u1')).toBe(2);
  });

  it('keeps concurrent additions (one writer at a time)', async () => {
    const queue = new HeartbeatQueue(memoryStore());
    await Promise.all(Array.from({ length: 20 }, () => queue.add([beat()])));
    expect(await queue.size()).toBe(20);
  });

  it('keeps the newest heartbeats when full', async () => {
    const queue = new HeartbeatQueue(memoryStore());
    const many = Array.from({ length: MAX_QUEUED + 10 }, () => beat());
    await queue.add(many);
    const first = await queue.peek('u1', 1);
    expect(first[0]!.id).toBe(many[10]!.id);
  });

  it('stays within the storage quota (Chromium: 10 MB for storage.local) however long the addresses', async () => {
    // Chromium counts a value as its JSON; Firefox has no quota for storage.local, a smaller one may apply
    const QUOTA = 10 * 1024 * 1024;
    const store = memoryStore();
    const limited: KeyValueStore = {
      get: (key) => store.get(key),
      async set(key, value) {
        if (key.length + JSON.stringify(value).length > QUOTA) throw new Error('QUOTA_BYTES quota exceeded');
        await store.set(key, value);
      },
    };
    const queue = new HeartbeatQueue(limited);
    const long = `https://example.com/${'a'.repeat(2000)}`;
    const many = Array.from({ length: MAX_QUEUED }, () => beat('u1', { url: long }));
    await queue.add(many);
    const kept = await queue.size();
    expect(kept).toBeGreaterThan(MAX_QUEUED / 2);
    // the newest are kept
    expect((await queue.peek('u1', kept)).at(-1)!.id).toBe(many.at(-1)!.id);
    // and a store smaller than expected (an older browser's 5 MB) still takes the newest that fit
    const half: KeyValueStore = {
      get: (key) => store.get(key),
      async set(key, value) {
        if (key.length + JSON.stringify(value).length > QUOTA / 2)
          throw new Error('QUOTA_BYTES quota exceeded');
        await store.set(key, value);
      },
    };
    const small = new HeartbeatQueue(half);
    await small.add([beat('u1', { url: long })]);
    expect(await small.size()).toBeGreaterThan(0);
    expect(JSON.stringify(store.data.get('queue')).length).toBeLessThanOrEqual(QUOTA / 2);
  });

  it('sends batches of at most 100, oldest first, and forgets what the server acknowledged', async () => {
    const queue = new HeartbeatQueue(memoryStore());
    await queue.add(Array.from({ length: 250 }, () => beat()));
    const sizes: number[] = [];
    const result = await flushQueue(queue, 'u1', async (batch) => {
      sizes.push(batch.length);
      expect(batch[0]).not.toHaveProperty('user');
      return { kind: 'ok' };
    });
    expect(sizes).toEqual([100, 100, 50]);
    expect(result).toEqual({ kind: 'done', sent: 250 });
    expect(await queue.size()).toBe(0);
  });

  it('keeps everything when offline, to try again later', async () => {
    const queue = new HeartbeatQueue(memoryStore());
    await queue.add([beat(), beat()]);
    expect(await flushQueue(queue, 'u1', async () => ({ kind: 'retry' }))).toEqual({
      kind: 'retry',
      sent: 0,
    });
    expect(await queue.size()).toBe(2);
  });

  it('never sends another learner’s heartbeats, and drops them when someone else signs in', async () => {
    const queue = new HeartbeatQueue(memoryStore());
    await queue.add([beat('u1'), beat('u2')]);
    const seen: string[] = [];
    await flushQueue(queue, 'u2', async (batch) => {
      seen.push(...batch.map((b) => b.id));
      return { kind: 'ok' };
    });
    expect(seen).toHaveLength(1);
    await queue.keepOnly('u3');
    expect(await queue.size()).toBe(0);
  });

  it('drops a heartbeat the server refuses as invalid instead of blocking the queue', async () => {
    const queue = new HeartbeatQueue(memoryStore());
    const bad = beat('u1', { url: 'not a url' });
    const good = beat();
    await queue.add([bad, good]);
    const batches: string[][] = [];
    await flushQueue(queue, 'u1', async (batch) => {
      batches.push(batch.map((b) => b.id));
      return batch.some((b) => b.id === bad.id) ? { kind: 'invalid' } : { kind: 'ok' };
    });
    expect(batches).toEqual([[bad.id, good.id], [good.id]]);
    expect(await queue.size()).toBe(0);
  });

  it('waits longer after each failure, up to 30 minutes', () => {
    expect(backoffMs(1, () => 1)).toBe(5000);
    expect(backoffMs(2, () => 1)).toBe(10_000);
    expect(backoffMs(3, () => 0)).toBe(10_000);
    expect(backoffMs(30, () => 1)).toBe(30 * 60_000);
  });
});
