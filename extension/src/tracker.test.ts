import { describe, expect, it } from 'vitest';
import { decide, type EngagedMap, type TabInfo, type TrackerInput } from './tracker';

const VIDEO = 'https://www.youtube.com/watch?v=abcdefghijk';
const ARTICLE = 'https://example.com/guide/';
const tracked = new Map([
  ['youtube:abcdefghijk', 'res-video'],
  ['example.com/guide', 'res-article'],
]);
const tab = (over: Partial<TabInfo>): TabInfo => ({
  id: 1,
  windowId: 10,
  url: ARTICLE,
  active: true,
  audible: false,
  incognito: false,
  ...over,
});
const input = (over: Partial<TrackerInput>): TrackerInput => ({
  now: 1_000_000,
  tabs: [],
  focusedWindowId: 10,
  idle: 'active',
  tracking: true,
  tracked,
  previous: {},
  ...over,
});

describe('what the extension sends', () => {
  it('a tracked tab in front of an active person gets a heartbeat, then one every 30 s', () => {
    const first = decide(input({ tabs: [tab({ url: `${ARTICLE}#part-2` })] }));
    expect(first.beats).toEqual([
      {
        resourceId: 'res-article',
        url: `${ARTICLE}#part-2`,
        time: 1_000_000,
        tabActive: true,
        audible: false,
      },
    ]);
    const soon = decide(input({ now: 1_010_000, tabs: [tab({})], previous: first.next }));
    expect(soon.beats).toEqual([]);
    const due = decide(input({ now: 1_030_000, tabs: [tab({})], previous: soon.next }));
    expect(due.beats).toHaveLength(1);
  });

  it('untracked pages, private windows and background tabs are not tracked', () => {
    const res = decide(
      input({
        tabs: [
          tab({ id: 1, url: 'https://news.example.org/' }),
          tab({ id: 2, incognito: true }),
          tab({ id: 3, active: false }),
          tab({ id: 4, windowId: 11 }),
        ],
      }),
    );
    expect(res.beats).toEqual([]);
  });

  it('an idle person stops the count unless the tab plays sound', () => {
    const start = decide(
      input({ tabs: [tab({ id: 1 }), tab({ id: 2, url: VIDEO, active: false, audible: true })] }),
    );
    expect(start.beats.map((b) => b.resourceId).sort()).toEqual(['res-article', 'res-video']);
    const idle = decide(
      input({
        now: 1_030_000,
        idle: 'idle',
        tabs: [tab({ id: 1 }), tab({ id: 2, url: VIDEO, active: false, audible: true })],
        previous: start.next,
      }),
    );
    expect(idle.beats).toEqual([
      { resourceId: 'res-article', url: ARTICLE, time: 1_030_000, tabActive: false, audible: false },
      { resourceId: 'res-video', url: VIDEO, time: 1_030_000, tabActive: false, audible: true },
    ]);
  });

  it('leaving a tracked tab sends the heartbeat that ends its stretch', () => {
    const previous: EngagedMap = {
      '1': { resourceId: 'res-article', url: ARTICLE, tabActive: true, audible: false, lastBeat: 990_000 },
    };
    const away = decide(input({ tabs: [tab({ url: 'https://mail.example.com/' })], previous }));
    expect(away.beats).toEqual([
      { resourceId: 'res-article', url: ARTICLE, time: 1_000_000, tabActive: false, audible: false },
    ]);
    expect(away.next).toEqual({});
    const closed = decide(input({ tabs: [], previous }));
    expect(closed.beats).toHaveLength(1);
  });

  it('pausing or signing out ends every stretch and sends nothing more', () => {
    const start = decide(input({ tabs: [tab({})] }));
    const paused = decide(input({ now: 1_005_000, tracking: false, tabs: [tab({})], previous: start.next }));
    expect(paused.beats).toEqual([
      { resourceId: 'res-article', url: ARTICLE, time: 1_005_000, tabActive: false, audible: false },
    ]);
    expect(
      decide(input({ now: 1_040_000, tracking: false, tabs: [tab({})], previous: paused.next })).beats,
    ).toEqual([]);
  });

  it('a browser not in front is not watched, unless it plays sound', () => {
    expect(decide(input({ focusedWindowId: null, tabs: [tab({})] })).beats).toEqual([]);
    expect(
      decide(input({ focusedWindowId: null, tabs: [tab({ url: VIDEO, audible: true })] })).beats,
    ).toHaveLength(1);
  });
});
