import { afterEach, describe, expect, it } from 'vitest';
import { type ChargeState, TabCharge } from './tab-charge';

/**
 * A lock manager with the Web Locks semantics the tabs rely on (one holder per name, FIFO waiters,
 * ifAvailable, steal, abort while waiting); browsers give every tab of an origin the same one. The
 * browser's own is exercised by the end-to-end test of two tabs.
 */
class Locks {
  holder: { release: () => void; reject: (e: Error) => void } | null = null;
  queue: { grant: () => void; signal?: AbortSignal }[] = [];

  request(
    _name: string,
    options: { ifAvailable?: boolean; steal?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => unknown,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const run = () => {
        let done = false;
        const finish = (fn: () => void) => {
          if (done) return;
          done = true;
          this.holder = null;
          fn();
          this.#next();
        };
        this.holder = {
          release: () => finish(() => resolve(undefined)),
          reject: (e) => finish(() => reject(e)),
        };
        Promise.resolve(callback({ name: _name })).then(
          (v) => finish(() => resolve(v)),
          (e) => finish(() => reject(e)),
        );
      };
      if (options.steal) {
        const old = this.holder;
        this.holder = null;
        old?.reject(Object.assign(new Error('stolen'), { name: 'AbortError' }));
        run();
        return;
      }
      if (!this.holder && this.queue.length === 0) return run();
      if (options.ifAvailable) {
        Promise.resolve(callback(null)).then(resolve, reject);
        return;
      }
      const entry = { grant: run, signal: options.signal };
      options.signal?.addEventListener('abort', () => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) {
          this.queue.splice(i, 1);
          reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        }
      });
      this.queue.push(entry);
    });
  }

  #next() {
    if (this.holder) return;
    const next = this.queue.shift();
    next?.grant();
  }
}

const wait = (ms = 30) => new Promise((r) => setTimeout(r, ms));
let open: TabCharge[] = [];
afterEach(() => {
  for (const t of open) t.close();
  open = [];
});

function tab(locks: Locks | null, extra: Partial<ConstructorParameters<typeof TabCharge>[0]> = {}) {
  const seen: ChargeState[] = [];
  const t = new TabCharge({
    linkId: 'link-under-test',
    locks,
    onChange: (s) => seen.push(s),
    handOverMs: 200,
    answerMs: 50,
    ...extra,
  });
  open.push(t);
  t.start();
  return { t, seen, last: () => seen[seen.length - 1] };
}

describe('one tab in charge of a test', () => {
  it('puts the first tab in charge and the second elsewhere, each knowing of the other', async () => {
    const locks = new Locks();
    const a = tab(locks);
    await wait();
    const b = tab(locks);
    await wait();
    expect(a.last()).toEqual({ role: 'in-charge', others: 1 });
    expect(b.last()).toEqual({ role: 'elsewhere', others: 1 });
  });

  it('hands over when asked, saving first, and the asking tab takes charge', async () => {
    const locks = new Locks();
    let saved = 0;
    const a = tab(locks, { beforeHandOver: async () => void saved++ });
    await wait();
    const b = tab(locks);
    await wait();
    b.t.takeOver();
    await wait(60);
    expect(saved).toBe(1);
    expect(a.last()?.role).toBe('elsewhere');
    expect(b.last()?.role).toBe('in-charge');
    // and back
    a.t.takeOver();
    await wait(60);
    expect(a.last()?.role).toBe('in-charge');
    expect(b.last()?.role).toBe('elsewhere');
  });

  it('takes the lock from a tab in charge that does not answer', async () => {
    const locks = new Locks();
    const a = tab(locks, { channel: null }); // cannot hear anyone
    await wait();
    const b = tab(locks);
    await wait();
    expect(b.last()?.role).toBe('elsewhere');
    b.t.takeOver();
    await wait(300);
    expect(b.last()?.role).toBe('in-charge');
    expect(a.last()?.role).toBe('elsewhere');
  });

  it('gives the charge to the waiting tab when the tab in charge closes', async () => {
    const locks = new Locks();
    const a = tab(locks);
    await wait();
    const b = tab(locks);
    await wait();
    a.t.close();
    await wait();
    expect(b.last()).toEqual({ role: 'in-charge', others: 0 });
  });

  it('decides on the channel alone where there are no Web Locks', async () => {
    const a = tab(null);
    await wait(100);
    const b = tab(null);
    await wait(100);
    expect(a.last()?.role).toBe('in-charge');
    expect(b.last()?.role).toBe('elsewhere');
    b.t.takeOver();
    await wait(100);
    expect(a.last()?.role).toBe('elsewhere');
    expect(b.last()?.role).toBe('in-charge');
  });

  it('decides without Web Locks where the browser refuses them (a framed page with its storage blocked)', async () => {
    // Chromium with third-party cookies blocked rejects every lock request of a third-party frame
    const denied = {
      request: () =>
        Promise.reject(
          Object.assign(new Error('Access to the Locks API is denied'), { name: 'SecurityError' }),
        ),
    };
    const a = tab(denied as unknown as Locks);
    await wait(100);
    expect(a.last()?.role).toBe('in-charge');
    const b = tab(denied as unknown as Locks);
    await wait(100);
    expect(b.last()?.role).toBe('elsewhere');
  });
});
