import { describe, expect, it } from 'vitest';
import {
  affectedWindows,
  attribute,
  type Beat,
  byUtcDay,
  PULSE_WINDOW_MS,
  readRanges,
  totalMs,
  trackingKey,
  windowDelta,
} from './heartbeats';

const S = 1000;
const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);
let n = 0;
/** A heartbeat `sec` seconds after T0. */
function beat(resourceId: string, sec: number, kind: 'active' | 'audible' | 'both' | 'end' = 'active'): Beat {
  return {
    id: `hb-${++n}`,
    resourceId,
    time: T0 + sec * S,
    tabActive: kind === 'active' || kind === 'both',
    audible: kind === 'audible' || kind === 'both',
  };
}
const seconds = (beats: Beat[]) => totalMs(attribute(beats)) / S;
const perResource = (beats: Beat[]) => {
  const out: Record<string, number> = {};
  for (const s of attribute(beats)) out[s.resourceId] = (out[s.resourceId] ?? 0) + (s.end - s.start) / S;
  return out;
};

describe('merging heartbeats into learning time', () => {
  it('counts the time between pulses of a tab in front, up to the heartbeat that ends it', () => {
    const beats = [beat('a', 0), beat('a', 30), beat('a', 60), beat('a', 90), beat('a', 104, 'end')];
    expect(seconds(beats)).toBe(104);
    expect(attribute(beats)).toEqual([{ resourceId: 'a', start: T0, end: T0 + 104 * S, tabActive: true }]);
  });

  it('a single heartbeat is no time at all', () => {
    expect(seconds([beat('a', 0)])).toBe(0);
  });

  it('a gap longer than the pulse window ends the span; a gap of exactly the window does not', () => {
    const window = PULSE_WINDOW_MS / S;
    const beats = [beat('a', 0), beat('a', 30), beat('a', 30 + window + 1), beat('a', 60 + window + 1)];
    const segments = attribute(beats);
    expect(segments).toHaveLength(2);
    expect(segments[1]!.start).toBeGreaterThan(segments[0]!.end);
    expect(seconds(beats)).toBe(60);
    expect(seconds([beat('a', 0), beat('a', window)])).toBe(window);
  });

  it('after the heartbeat that ends a stretch nothing counts until the next engaged one', () => {
    const beats = [beat('a', 0), beat('a', 30), beat('a', 45, 'end'), beat('a', 75), beat('a', 105)];
    expect(seconds(beats)).toBe(45 + 30);
  });

  it('two tabs of one resource never count a second twice', () => {
    const beats = [beat('a', 0), beat('a', 30), beat('a', 60), beat('a', 15), beat('a', 45)];
    expect(seconds(beats)).toBe(60);
  });

  it('two tabs of different resources: the union counts, the tab in front gets the overlap', () => {
    // a is read in front; b plays a video behind it
    const beats = [
      beat('a', 0),
      beat('a', 30),
      beat('a', 60),
      beat('b', 10, 'audible'),
      beat('b', 40, 'audible'),
      beat('b', 70, 'audible'),
    ];
    expect(seconds(beats)).toBe(70);
    expect(perResource(beats)).toEqual({ a: 60, b: 10 });
  });

  it('between two tabs in front (two windows), the most recent heartbeat wins', () => {
    const beats = [beat('a', 0), beat('a', 30), beat('b', 20), beat('b', 50)];
    expect(perResource(beats)).toEqual({ a: 20, b: 30 });
    expect(seconds(beats)).toBe(50);
  });

  it('media keeps counting while the person is idle; an idle tab without sound does not', () => {
    const playing = [beat('v', 0, 'audible'), beat('v', 30, 'audible'), beat('v', 60, 'audible')];
    expect(seconds(playing)).toBe(60);
    const idle = [beat('r', 0, 'end'), beat('r', 30, 'end')];
    expect(seconds(idle)).toBe(0);
  });

  it('a resent batch counts once', () => {
    const batch = [beat('a', 0), beat('a', 30), beat('a', 60)];
    expect(seconds([...batch, ...batch.map((b) => ({ ...b }))])).toBe(60);
    expect(windowDelta(batch, batch)).toEqual([]);
  });

  it('splits time across UTC midnight between the two days', () => {
    const midnight = Date.UTC(2026, 2, 11);
    const beats: Beat[] = [-30, 0, 30].map((s, i) => ({
      id: `m${i}`,
      resourceId: 'a',
      time: midnight + s * S,
      tabActive: true,
      audible: false,
    }));
    expect(byUtcDay(attribute(beats))).toEqual([
      { resourceId: 'a', day: midnight / 1000 - 86_400, ms: 30 * S },
      { resourceId: 'a', day: midnight / 1000, ms: 30 * S },
    ]);
  });
});

describe('folding new heartbeats into stored totals', () => {
  /** A deterministic pseudo-random sequence. */
  function rng(seed: number) {
    let s = seed;
    return () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31;
    };
  }

  it('adds up to the same totals whatever the order and batching of arrival', () => {
    for (let run = 0; run < 25; run++) {
      const rand = rng(run + 1);
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
      const stored: Beat[] = [];
      const totals = new Map<string, number>();
      let i = 0;
      while (i < shuffled.length) {
        const size = 1 + Math.floor(rand() * 20);
        const batch = shuffled.slice(i, i + size);
        // a batch is sometimes sent twice
        const rounds = rand() < 0.2 ? 2 : 1;
        for (let k = 0; k < rounds; k++) {
          const ranges = readRanges(affectedWindows(batch.map((b) => b.time)));
          // exactly the heartbeats around the batch, or every stored one: more than needed changes nothing
          const existing =
            rand() < 0.5
              ? stored.filter((b) => ranges.some(([lo, hi]) => b.time >= lo && b.time <= hi))
              : [...stored];
          for (const d of windowDelta(existing, batch)) {
            const key = `${d.day}|${d.resourceId}`;
            totals.set(key, (totals.get(key) ?? 0) + d.ms);
          }
          for (const b of batch) if (!stored.some((s) => s.id === b.id)) stored.push(b);
        }
        i += size;
      }
      const expected = new Map(byUtcDay(attribute(beats)).map((d) => [`${d.day}|${d.resourceId}`, d.ms]));
      for (const [k, v] of totals) if (v === 0) totals.delete(k);
      expect(Object.fromEntries(totals)).toEqual(Object.fromEntries(expected));
    }
  });
});

describe('which pages are tracked', () => {
  it('ignores the fragment, a trailing slash, the scheme, www. and tracking parameters', () => {
    const key = trackingKey('https://developer.mozilla.org/en-US/docs/Web/JavaScript/');
    expect(trackingKey('http://www.developer.mozilla.org/en-US/docs/Web/JavaScript#intro')).toBe(key);
    expect(
      trackingKey(
        'https://developer.mozilla.org/en-US/docs/Web/JavaScript?utm_source=x&utm_medium=y&fbclid=1',
      ),
    ).toBe(key);
  });

  it('keeps parameters that choose the page, in any order', () => {
    expect(trackingKey('https://example.com/book?chapter=2&page=4')).toBe(
      trackingKey('https://example.com/book?page=4&chapter=2&gclid=zz'),
    );
    expect(trackingKey('https://example.com/book?chapter=2')).not.toBe(
      trackingKey('https://example.com/book?chapter=3'),
    );
  });

  it('matches a YouTube video by its id, whichever address is used', () => {
    const key = trackingKey('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(key).toBe('youtube:dQw4w9WgXcQ');
    for (const url of [
      'https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s&list=PL1',
      'https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?si=abc',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
    ]) {
      expect(trackingKey(url), url).toBe(key);
    }
    expect(trackingKey('https://youtu.be/other')).not.toBe(key);
  });

  it('keeps the port and tracks only web pages', () => {
    expect(trackingKey('http://127.0.0.1:8080/a')).not.toBe(trackingKey('http://127.0.0.1:9090/a'));
    expect(trackingKey('chrome://settings')).toBeNull();
    expect(trackingKey('not a url')).toBeNull();
    expect(trackingKey('file:///tmp/a.html')).toBeNull();
  });
});
