/**
 * What was tracked: the credited time kept as spans — one stretch on one resource, of one kind (tab in
 * front, or media only), within one UTC day — so a learner can see every stretch and delete one or a day,
 * and the totals are always the sums of the spans.
 *
 * When heartbeats arrive, the credit inside the windows around them is computed again from the heartbeats
 * (shared/rules/heartbeats.ts); `respan` replaces what the stored spans held inside those windows with
 * that credit, less what the learner erased, and says how each day's and resource's total changes. The
 * change is taken from the stored spans, not from the heartbeats before: after a deletion the heartbeats
 * are gone, and the spans are what the totals are made of.
 */
import { DAY_MS, mergeRanges, type Segment } from './heartbeats';
import { isoDayOf } from './learning-days';

export interface StoredSpan {
  id: string;
  resourceId: string;
  start: number;
  end: number;
  tabActive: boolean;
}

export type NewSpan = Omit<StoredSpan, 'id'>;

/** A stretch the learner deleted: no credit may come back into it. */
export interface Erasure {
  /** Null: every resource (a deleted day). */
  resourceId: string | null;
  start: number;
  end: number;
}

export interface DayResourceDelta {
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  resourceId: string;
  ms: number;
}

export interface SpanChange {
  /** Stored spans to delete. */
  remove: string[];
  /** Spans to insert in their place. */
  add: NewSpan[];
  /** How the per-day, per-resource totals change (zero changes left out). */
  delta: DayResourceDelta[];
}

/** The parts of [start, end) outside the sorted, disjoint `cuts`. */
function subtract(
  start: number,
  end: number,
  cuts: readonly (readonly [number, number])[],
): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  for (const [a, b] of cuts) {
    if (b <= from) continue;
    if (a >= end) break;
    if (a > from) out.push([from, Math.min(a, end)]);
    from = Math.max(from, b);
    if (from >= end) break;
  }
  if (from < end) out.push([from, end]);
  return out;
}

/** Sorted and merged, empty ranges left out. */
const normalise = (ranges: [number, number][]) => mergeRanges(ranges.filter(([a, b]) => b > a));

/** Splits [start, end) at UTC midnights. */
function byDay(start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  while (from < end) {
    const to = Math.min(end, (Math.floor(from / DAY_MS) + 1) * DAY_MS);
    out.push([from, to]);
    from = to;
  }
  return out;
}

/** Segments less the erased stretches, split at UTC midnight. */
export function creditable(segments: readonly Segment[], erasures: readonly Erasure[]): NewSpan[] {
  const out: NewSpan[] = [];
  for (const s of segments) {
    const cuts = normalise(
      erasures
        .filter((e) => e.resourceId === null || e.resourceId === s.resourceId)
        .map((e) => [e.start, e.end]),
    );
    for (const [a, b] of subtract(s.start, s.end, cuts)) {
      for (const [from, to] of byDay(a, b)) {
        out.push({ resourceId: s.resourceId, start: from, end: to, tabActive: s.tabActive });
      }
    }
  }
  return out;
}

const sameRun = (a: NewSpan, b: NewSpan) =>
  a.resourceId === b.resourceId &&
  a.tabActive === b.tabActive &&
  a.end === b.start &&
  isoDayOf(a.start) === isoDayOf(b.end - 1);

/** Joins spans that touch (same resource, kind and day). */
export function mergeSpans(spans: readonly NewSpan[]): NewSpan[] {
  const sorted = [...spans].sort(
    (a, b) =>
      (a.resourceId < b.resourceId ? -1 : a.resourceId > b.resourceId ? 1 : 0) ||
      Number(a.tabActive) - Number(b.tabActive) ||
      a.start - b.start,
  );
  const out: NewSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && sameRun(last, s)) last.end = s.end;
    else out.push({ ...s });
  }
  return out.sort((a, b) => a.start - b.start || (a.resourceId < b.resourceId ? -1 : 1));
}

/**
 * Replaces the credit of `stored` spans inside `windows` (sorted, disjoint) with `after` (the credit the
 * heartbeats give there, already cut to the windows), less `erasures`. `stored` must hold every stored
 * span that overlaps or touches a window.
 */
export function respan(
  stored: readonly StoredSpan[],
  windows: readonly [number, number][],
  after: readonly Segment[],
  erasures: readonly Erasure[],
): SpanChange {
  const touched = stored.filter((s) => windows.some(([a, b]) => s.start <= b && s.end >= a));
  const deltas = new Map<string, DayResourceDelta>();
  const add = (day: string, resourceId: string, ms: number) => {
    if (ms === 0) return;
    const key = `${day}|${resourceId}`;
    const d = deltas.get(key) ?? { day, resourceId, ms: 0 };
    d.ms += ms;
    deltas.set(key, d);
  };
  const kept: NewSpan[] = [];
  for (const s of touched) {
    const outside = subtract(s.start, s.end, windows);
    const keptMs = outside.reduce((sum, [a, b]) => sum + (b - a), 0);
    add(isoDayOf(s.start), s.resourceId, keptMs - (s.end - s.start));
    for (const [a, b] of outside)
      kept.push({ resourceId: s.resourceId, start: a, end: b, tabActive: s.tabActive });
  }
  const fresh = creditable(after, erasures);
  for (const f of fresh) add(isoDayOf(f.start), f.resourceId, f.end - f.start);
  const merged = mergeSpans([...kept, ...fresh]);
  // a stored span that comes out unchanged stays as it is
  const key = (s: NewSpan) => `${s.resourceId}|${s.tabActive}|${s.start}|${s.end}`;
  const unchanged = new Map(touched.map((s) => [key(s), s.id]));
  const remove = new Set(touched.map((s) => s.id));
  const addSpans: NewSpan[] = [];
  for (const m of merged) {
    const id = unchanged.get(key(m));
    if (id !== undefined && remove.has(id)) remove.delete(id);
    else addSpans.push(m);
  }
  return { remove: [...remove], add: addSpans, delta: [...deltas.values()].filter((d) => d.ms !== 0) };
}
