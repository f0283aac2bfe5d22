/**
 * The background script of the end-to-end builds only (dist/e2e/extension-*, never a store package: a
 * test of the build checks it): the background of worker.ts with `globalThis.__waymarkTest`, which the
 * tests reach through the DevTools protocol (Chromium's service worker) or runtime.getBackgroundPage()
 * (Firefox's event page). Its clock offset and idle override are kept in storage.local, so they survive
 * the background being stopped; `starts` counts how often it was started.
 */
import { ext } from './browser';
import type { IdleState } from './tracker';
import { startBackground } from './worker';

interface Hooks {
  clockOffset: number;
  idle: IdleState | null;
  starts: number;
}
const hooks: Hooks = { clockOffset: 0, idle: null, starts: 0 };
const save = () => ext.storage.local.set({ e2e: hooks });
const loaded = ext.storage.local.get('e2e').then(async (got) => {
  Object.assign(hooks, got.e2e as Partial<Hooks> | undefined);
  hooks.starts++;
  await save();
});

const bg = startBackground({
  now: () => Date.now() + hooks.clockOffset,
  idleState: async (seconds) => {
    await loaded;
    return hooks.idle ?? (ext.idle.queryState(seconds) as Promise<IdleState>);
  },
});

Object.assign(globalThis, {
  __waymarkTest: {
    /** Moves this extension's clock, to stand for time passing. */
    async setClockOffset(ms: number) {
      await loaded;
      hooks.clockOffset = ms;
      await save();
    },
    /** Pretends the person is active (or idle); null: ask the browser. */
    async setIdleOverride(state: IdleState | null) {
      await loaded;
      hooks.idle = state;
      await save();
    },
    pulse: () => bg.tracking.tickNow(),
    flush: () => bg.sender.flush(),
    sync: () => bg.refreshTracked(),
    async state() {
      await Promise.all([bg.ready, loaded]);
      const auth = bg.session.auth;
      return {
        signedIn: !!auth,
        device: auth?.device ?? null,
        paused: bg.paused(),
        tracked: [...bg.session.tracked.byKey.entries()],
        queued: await bg.queue.size(),
        engaged: await bg.tracking.engaged(),
        starts: hooks.starts,
      };
    },
  },
});
