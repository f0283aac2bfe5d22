import { describe, expect, it } from 'vitest';
import { affectedWindows, attribute, type Beat, byUtcDay, clip } from './heartbeats';
import { isoDayOf } from './learning-days';
import { creditable, type Erasure, mergeSpans, respan, type StoredSpan } from './spans';

const S = 1000;

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** Folds batches in the way the server does: stored heartbeats, stored spans, totals from the changes. */
function fold(batches: Beat[][], erasures: Erasure[] = []) {
  const stored: Beat[] = [];
  let spans: StoredSpan[] = [];
  let next = 0;
  const totals = new Map<string, number>();
  for (const batch of batches) {
    const fresh = batch.filter((b) => !stored.some((s) => s.id === b.id));
    if (fresh.length === 0) continue;
    stored.push(...fresh);
    const windows = affectedWindows(fresh.map((b) => b.time));
    const after = clip(attribute(stored), windows);
    const change = respan(spans, windows, after, erasures);
    spans = spans.filter((s) => !change.remove.includes(s.id));
    for (const a of change.add) spans.push({ ...a, id: `s${next++}` });
    for (const d of change.delta) {
      const k = `${d.day}|${d.resourceId}`;
      totals.set(k, (totals.get(k) ?? 0) + d.ms);
    }
  }
  for (const [k, v] of totals) if (v === 0) totals.delete(k);
  return { spans, totals };
}

const sumByDay = (spans: readonly Omit<StoredSpan, 'id'>[]) => {
  const out = new Map<string, number>();
  for (const s of spans) {
    const k = `${isoDayOf(s.start)}|${s.resourceId}`;
    out.set(k, (out.get(k) ?? 0) + s.end - s.start);
  }
  return Object.fromEntries(out);
};

describe('spans of credited time', () => {
  it('keeps one span per stretch, kind and UTC day, split at midnight', () => {
    const t = Date.UTC(2028, 1, 29, 23, 59); // a leap day, a minute before midnight
    const beats: Beat[] = [0, 30, 60, 90].map((sec, i) => ({
      id: `b${i}`,
      resourceId: 'video',
      time: t + sec * S,
      tabActive: i < 2,
      audible: i >= 2 && i < 3,
    }));
    const spans = creditable(attribute(beats), []);
    // 23:59:00 and 23:59:30 in front, 00:00:00 only playing, 00:00:30 the end
    expect(
      spans.map((s) => [new Date(s.start).toISOString(), new Date(s.end).toISOString(), s.tabActive]),
    ).toEqual([
      ['2028-02-29T23:59:00.000Z', '2028-03-01T00:00:00.000Z', true],
      ['2028-03-01T00:00:00.000Z', '2028-03-01T00:00:30.000Z', false],
    ]);
    // a stretch in front across midnight is two spans
    const across = creditable([{ resourceId: 'v', start: t, end: t + 120 * S, tabActive: true }], []);
    expect(across.map((s) => isoDayOf(s.start))).toEqual(['2028-02-29', '2028-03-01']);
  });

  it('leaves erased stretches out, for one resource or for every one', () => {
    const seg = (resourceId: string, a: number, b: number) => ({
      resourceId,
      start: a,
      end: b,
      tabActive: true,
    });
    expect(
      creditable([seg('a', 0, 100), seg('b', 0, 100)], [{ resourceId: 'a', start: 20, end: 50 }]),
    ).toEqual([seg('a', 0, 20), seg('a', 50, 100), seg('b', 0, 100)]);
    expect(creditable([seg('a', 0, 100)], [{ resourceId: null, start: -5, end: 200 }])).toEqual([]);
  });

  it('joins touching spans of the same resource, kind and day only', () => {
    const s = (a: number, b: number, tabActive = true, resourceId = 'a') => ({
      resourceId,
      start: a,
      end: b,
      tabActive,
    });
    expect(
      mergeSpans([s(10, 20), s(0, 10), s(20, 30, false), s(30, 40, false), s(40, 50, false, 'b')]),
    ).toEqual([s(0, 20), s(20, 40, false), s(40, 50, false, 'b')]);
  });

  it('ends with the spans and totals of all the heartbeats, whatever the order and batching of arrival', () => {
    for (let run = 0; run < 25; run++) {
      const rand = rng(run + 7);
      const beats: Beat[] = [];
      let t = Date.UTC(2026, 0, 31, 23, 40);
      for (let i = 0; i < 120; i++) {
        t += Math.floor(rand() * 70_000);
        const r = rand();
        beats.push({
          id: `r${run}-${i}`,
          resourceId: ['a', 'b', 'c'][Math.floor(rand() * 3)]!,
          time: t,
          tabActive: r < 0.6,
          audible: r > 0.5 && r < 0.8,
        });
      }
      const shuffled = [...beats].sort(() => rand() - 0.5);
      const batches: Beat[][] = [];
      for (let i = 0; i < shuffled.length; ) {
        const size = 1 + Math.floor(rand() * 20);
        batches.push(shuffled.slice(i, i + size));
        if (rand() < 0.2) batches.push(shuffled.slice(i, i + size)); // sent twice
        i += size;
      }
      const { spans, totals } = fold(batches);
      const expected = creditable(attribute(beats), []);
      // the same stretches, and the totals are the sums of the spans
      expect(
        mergeSpans(spans).map(({ resourceId, start, end, tabActive }) => ({
          resourceId,
          start,
          end,
          tabActive,
        })),
      ).toEqual(mergeSpans(expected));
      expect(Object.fromEntries(totals)).toEqual(sumByDay(spans));
      const byDay = Object.fromEntries(
        byUtcDay(attribute(beats)).map((d) => [`${isoDayOf(d.day * 1000)}|${d.resourceId}`, d.ms]),
      );
      expect(Object.fromEntries(totals)).toEqual(byDay);
    }
  });

  it('never credits an erased stretch again, even from heartbeats that arrive after the erasure', () => {
    const t = Date.UTC(2026, 5, 1, 10);
    const beat = (i: number, resourceId = 'a'): Beat => ({
      id: `${resourceId}${i}`,
      resourceId,
      time: t + i * 30 * S,
      tabActive: true,
      audible: false,
    });
    const early = Array.from({ length: 10 }, (_, i) => beat(i));
    // the learner deleted 10:01–10:03 of resource a; a late batch covers it again
    const erased: Erasure[] = [{ resourceId: 'a', start: t + 60 * S, end: t + 180 * S }];
    const late = Array.from({ length: 10 }, (_, i) => beat(i + 10));
    const { spans, totals } = fold([early, late, [beat(3), beat(4)]], erased);
    expect(Object.fromEntries(totals)).toEqual({ '2026-06-01|a': 19 * 30 * S - 120 * S });
    expect(spans.some((s) => s.start < t + 180 * S && s.end > t + 60 * S)).toBe(false);
  });

  it('takes the change from the stored spans, so credit deleted with its heartbeats is not subtracted twice', () => {
    const t = Date.UTC(2026, 5, 1, 10);
    const stored: StoredSpan[] = [{ id: 'x', resourceId: 'a', start: t, end: t + 300 * S, tabActive: true }];
    // the stored heartbeats were deleted; a new one at 10:10 only adds its own window
    const windows = affectedWindows([t + 600 * S]);
    const change = respan(stored, windows, [], []);
    expect(change).toEqual({ remove: [], add: [], delta: [] });
  });
});
