/**
 * One tab in charge of a test. The same test open in two tabs or windows of one browser would otherwise
 * save answers from both, each overwriting the other's. The tabs of one test find each other on a
 * BroadcastChannel and hold a Web Lock (navigator.locks) named after the link: the tab holding it is in
 * charge and saves answers; any other tab shows that the test is open elsewhere and saves nothing. When
 * the tab in charge closes, a waiting tab gets the lock and takes over (reading the answers again from the
 * server); "Continue in this tab" asks the tab in charge to hand over (it saves what it holds first), and
 * takes the lock anyway if that tab does not answer (frozen, or in the background).
 * Without Web Locks (an old browser, a page not served over https, or a browser that refuses them — a page
 * framed by another site with third-party storage blocked, as an LMS frames a launched test) the channel
 * decides alone; without a channel either, the tab is in charge.
 */

export type ChargeRole = 'deciding' | 'in-charge' | 'elsewhere';

export interface ChargeState {
  role: ChargeRole;
  /** Other tabs with this test open. */
  others: number;
}

type Message =
  | { t: 'hello'; from: string }
  | { t: 'here'; from: string; inCharge: boolean }
  | { t: 'bye'; from: string }
  | { t: 'take-over'; from: string }
  | { t: 'released'; from: string };

interface LockManagerLike {
  request(
    name: string,
    options: { ifAvailable?: boolean; steal?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<unknown> | unknown,
  ): Promise<unknown>;
}

export interface ChargeOptions {
  linkId: string;
  onChange(state: ChargeState): void;
  /** This tab is about to hand over: save what it holds (awaited up to `handOverMs`). */
  beforeHandOver?(): Promise<unknown>;
  /** Overridable for tests. */
  locks?: LockManagerLike | null;
  channel?: BroadcastChannel | null;
  /** How often a tab says it is still here, and after how long without a word it counts as gone. */
  pulseMs?: number;
  goneMs?: number;
  /** How long "Continue in this tab" waits for the tab in charge before taking the lock anyway. */
  handOverMs?: number;
  /** How long a tab without locks waits for a tab in charge to answer. */
  answerMs?: number;
}

const randomId = () =>
  globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export class TabCharge {
  readonly id = randomId();
  readonly #o: ChargeOptions;
  #locks: LockManagerLike | null;
  readonly #channel: BroadcastChannel | null;
  readonly #others = new Map<string, number>();
  #role: ChargeRole = 'deciding';
  #release: (() => void) | null = null;
  #waiting: AbortController | null = null;
  #pulse: ReturnType<typeof setInterval> | null = null;
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #closed = false;

  constructor(options: ChargeOptions) {
    this.#o = options;
    const nav = globalThis.navigator as (Navigator & { locks?: LockManagerLike }) | undefined;
    this.#locks = options.locks !== undefined ? options.locks : (nav?.locks ?? null);
    this.#channel =
      options.channel !== undefined
        ? options.channel
        : typeof BroadcastChannel === 'function'
          ? new BroadcastChannel(`waymark-test:${options.linkId}`)
          : null;
  }

  get lockName() {
    return `waymark-test:${this.#o.linkId}`;
  }

  state(): ChargeState {
    return { role: this.#role, others: this.#others.size };
  }

  start() {
    if (this.#channel) {
      this.#channel.onmessage = (e: MessageEvent<Message>) => this.#receive(e.data);
      this.#post({ t: 'hello', from: this.id });
      this.#pulse = setInterval(() => {
        this.#post({ t: 'here', from: this.id, inCharge: this.#role === 'in-charge' });
        const gone = Date.now() - (this.#o.goneMs ?? 150_000);
        let changed = false;
        for (const [id, seen] of this.#others) {
          if (seen < gone) {
            this.#others.delete(id);
            changed = true;
          }
        }
        if (changed) this.#emit();
      }, this.#o.pulseMs ?? 20_000);
      globalThis.addEventListener?.('pagehide', this.#bye);
    }
    if (this.#locks) {
      this.#request({ ifAvailable: true });
    } else this.#decideWithoutLocks();
  }

  /** No locks: a tab in charge answers a hello at once on the channel; without a channel, this tab leads. */
  #decideWithoutLocks() {
    if (this.#channel) {
      this.#later(() => {
        if (this.#role === 'deciding') this.#become('in-charge');
      }, this.#o.answerMs ?? 300);
    } else this.#become('in-charge');
  }

  /** "Continue in this tab": the tab in charge hands over (or the lock is taken after a while). */
  takeOver() {
    if (this.#role === 'in-charge' || this.#closed) return;
    this.#post({ t: 'take-over', from: this.id });
    if (!this.#locks) {
      // no locks: the tab in charge answers 'released'; if it does not, take charge anyway
      this.#later(() => {
        if (this.#role !== 'in-charge') this.#become('in-charge');
      }, this.#o.handOverMs ?? 3_000);
      return;
    }
    this.#later(() => {
      if (this.#role === 'in-charge' || this.#closed) return;
      // the tab in charge did not hand over: take the lock from it
      this.#waiting?.abort();
      this.#waiting = null;
      this.#request({ steal: true });
    }, this.#o.handOverMs ?? 3_000);
  }

  close() {
    if (this.#closed) return;
    this.#bye();
    this.#closed = true;
    this.#release?.();
    this.#release = null;
    this.#waiting?.abort();
    if (this.#pulse) clearInterval(this.#pulse);
    for (const t of this.#timers) clearTimeout(t);
    globalThis.removeEventListener?.('pagehide', this.#bye);
    if (this.#channel) {
      this.#channel.onmessage = null;
      if (this.#o.channel === undefined) this.#channel.close();
    }
  }

  readonly #bye = () => {
    if (!this.#closed) this.#post({ t: 'bye', from: this.id });
  };

  /**
   * Asks for the lock. `ifAvailable`: not granted at once means another tab is in charge (then wait).
   * A lock this tab held and that was stolen rejects the request: this tab is elsewhere from then on.
   */
  #request(options: { ifAvailable?: boolean; steal?: boolean; signal?: AbortSignal }) {
    let held = false;
    void this.#locks!.request(this.lockName, options, (lock) => {
      if (!lock) {
        this.#wait();
        return undefined;
      }
      held = true;
      return this.#hold();
    }).catch((err: unknown) => {
      // aborted while waiting (taking over, closing): nothing to do; stolen while held: wait again
      if (held && !this.#closed) {
        this.#release = null;
        this.#wait();
        return;
      }
      // the browser refuses locks to this page (SecurityError): the channel decides, as without locks
      if (!held && !this.#closed && (err as Error)?.name === 'SecurityError') {
        this.#locks = null;
        if (this.#role === 'deciding') this.#decideWithoutLocks();
        else if (this.#role === 'elsewhere' && !this.#others.size) this.#become('in-charge');
      }
    });
  }

  /** Holds the lock until released (handed over, closed); stolen, the request rejects. */
  #hold(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#waiting = null;
    this.#become('in-charge');
    return new Promise<void>((resolve) => {
      this.#release = resolve;
    });
  }

  /** Waits for the lock: granted when the tab in charge closes or hands over. */
  #wait() {
    if (this.#closed) return;
    this.#become('elsewhere');
    const controller = new AbortController();
    this.#waiting = controller;
    this.#request({ signal: controller.signal });
  }

  async #handOver() {
    if (this.#role !== 'in-charge') return;
    try {
      await Promise.race([
        this.#o.beforeHandOver?.(),
        new Promise((r) => setTimeout(r, Math.max(0, (this.#o.handOverMs ?? 3_000) - 500))),
      ]);
    } catch {
      // handing over anyway: the other tab reads what the server has
    }
    if (this.#role !== 'in-charge' || this.#closed) return;
    this.#become('elsewhere');
    const release = this.#release;
    this.#release = null;
    this.#post({ t: 'released', from: this.id });
    if (this.#locks) {
      release?.();
      this.#wait();
    }
  }

  #receive(m: Message) {
    if (!m || typeof m !== 'object' || m.from === this.id) return;
    switch (m.t) {
      case 'hello':
        this.#seen(m.from);
        this.#post({ t: 'here', from: this.id, inCharge: this.#role === 'in-charge' });
        break;
      case 'here':
        this.#seen(m.from);
        if (!this.#locks && m.inCharge && this.#role !== 'in-charge') this.#become('elsewhere');
        break;
      case 'bye':
        if (this.#others.delete(m.from)) this.#emit();
        break;
      case 'take-over':
        this.#seen(m.from);
        void this.#handOver();
        break;
      case 'released':
        this.#seen(m.from);
        if (!this.#locks && this.#role !== 'in-charge') this.#become('in-charge');
        break;
    }
  }

  #seen(id: string) {
    const known = this.#others.has(id);
    this.#others.set(id, Date.now());
    if (!known) this.#emit();
  }

  #become(role: ChargeRole) {
    if (this.#role === role) return;
    this.#role = role;
    this.#emit();
  }

  #emit() {
    if (!this.#closed) this.#o.onChange(this.state());
  }

  #post(m: Message) {
    try {
      this.#channel?.postMessage(m);
    } catch {
      // a closed channel: nothing to tell
    }
  }

  #later(fn: () => void, ms: number) {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
    }, ms);
    this.#timers.add(t);
  }
}
