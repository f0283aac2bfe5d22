/**
 * Tracking at run time: on every change (tabs, windows, idle) and every 30-second pulse, the browser's
 * state is read, `decide` (tracker.ts) says which heartbeats to make, and they join the offline queue. The
 * engaged tabs live in storage.session, so a stopped background picks up where it was. Ticks run one at a
 * time.
 */
import type { HeartbeatQueue, KeyValueStore } from './queue';
import type { Session } from './session';
import { decide, type EngagedMap, type IdleState, type TabInfo } from './tracker';

/** What `decide` needs of the browser. */
export interface BrowserState {
  tabs: TabInfo[];
  /** The focused browser window, or null when the browser is not in front. */
  focusedWindowId: number | null;
  idle: IdleState;
}

export interface TrackingOptions {
  read: () => Promise<BrowserState>;
  /** storage.session: the engaged tabs. */
  engaged: KeyValueStore;
  queue: HeartbeatQueue;
  session: Session;
  paused: () => boolean;
  /** The time a heartbeat carries, unix ms. */
  now: () => number;
  /** Heartbeats were queued. */
  onQueued: () => void;
  /** Resolves once the session and settings are loaded from storage. */
  ready?: Promise<void>;
}

export class Tracking {
  private chain: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopping = false;

  constructor(private readonly o: TrackingOptions) {}

  async engaged(): Promise<EngagedMap> {
    return (await this.o.engaged.get<EngagedMap>('engaged')) ?? {};
  }

  /** Runs a tick now, after the one running. */
  tickNow(): Promise<void> {
    const tick = () => this.tick();
    this.chain = this.chain.then(tick, tick);
    return this.chain;
  }

  /** A tick shortly (several events in a row make one). */
  schedule() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tickNow(), 250);
  }

  /** One last tick with tracking off: every engaged tab's stretch ends (before signing out). */
  async stop() {
    this.stopping = true;
    try {
      await this.tickNow();
    } finally {
      this.stopping = false;
    }
  }

  private async tick() {
    await this.o.ready;
    const browser = await this.o.read();
    const previous = await this.engaged();
    const auth = this.o.session.auth;
    const { beats, next } = decide({
      now: this.o.now(),
      ...browser,
      tracking: !!auth && !this.o.paused() && !this.stopping,
      tracked: this.o.session.tracked.byKey,
      previous,
    });
    await this.o.engaged.set('engaged', next);
    if (beats.length && auth) {
      const user = auth.uuid;
      await this.o.queue.add(beats.map((b) => ({ ...b, id: crypto.randomUUID(), user })));
      this.o.onQueued();
    }
  }
}
