/**
 * A bounded map whose entries each last until their own expiry: the one shape of this process's memory of
 * things read or checked before (a served credential, a status list, a verified access token). Values are
 * kept as given — a hit returns the very object stored, not a copy, so what is remembered per object (the
 * JSON text of a document, `withJsonText`) stays remembered.
 *
 * An entry is returned while the clock is before its expiry; an expired one is dropped when read. Setting a
 * key makes it the newest; past `maxEntries` the oldest entry goes (a Map iterates in insertion order).
 */
export interface TtlCacheOptions {
  /** How many entries are kept at most (default: no bound). */
  maxEntries?: number;
  /** The clock, in milliseconds (default `Date.now`). */
  now?: () => number;
}

export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor({ maxEntries = Number.POSITIVE_INFINITY, now = Date.now }: TtlCacheOptions = {}) {
    this.maxEntries = maxEntries;
    this.now = now;
  }

  /** The value stored under `key` while it has not expired; an expired entry is forgotten. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() < entry.expiresAt) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Stores `value` under `key` until `expiresAt` (ms on the clock), as the newest entry. */
  set(key: K, value: V, expiresAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Whether an entry is held for `key`, expired or not (it is dropped only when read). */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** How many entries are held, expired ones not yet read included. */
  get size(): number {
    return this.entries.size;
  }
}
