/**
 * How heartbeats become learning time — one rule for the extension, the server and the tests.
 *
 * The extension sends a heartbeat for a tracked tab every 30 s while the tab is in front and the person is
 * active, or while it plays audio or video, and once more when that stops (a heartbeat that is neither
 * active nor audible: the end of the stretch).
 *
 * - A tab's consecutive heartbeats for one resource cover the time between them when the earlier one was
 *   engaged (active or audible) and the gap is at most the pulse window; a longer gap ends the span.
 * - Per person, covered time is the union of those intervals: overlapping tabs never count a second twice.
 *   Each second goes to one resource: a tab in front beats one only playing sound, then the most recent
 *   heartbeat wins.
 * - Whatever a moment is credited to depends only on heartbeats within one pulse window of it, so the
 *   server can fold new heartbeats in by recomputing small windows around them (`windowDelta`).
 */

/** Heartbeat period while a tracked tab is engaged. */
export const PULSE_SECONDS = 30;
/** Without input for this long the person is idle (unless the tab plays sound). */
export const IDLE_SECONDS = 60;
/** A gap longer than this ends a span: two pulses plus 30 s of slack for a late alarm. */
export const PULSE_WINDOW_MS = 90_000;
/** Most heartbeats in one batch. */
export const MAX_BATCH = 100;
/** Heartbeats older than this are refused (the offline queue keeps them no longer). */
export const MAX_HEARTBEAT_AGE_MS = 30 * 86_400_000;
/** Heartbeats this far ahead of the server's clock are refused. */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;

export const DAY_MS = 86_400_000;

export interface Beat {
  /** The client's id: a resent heartbeat is the same heartbeat. */
  id: string;
  resourceId: string;
  /** Unix milliseconds. */
  time: number;
  /** The tab was in front and the person active. */
  tabActive: boolean;
  /** The tab was playing sound (a video, a podcast). */
  audible: boolean;
}

/** Time credited to one resource, [start, end) in unix milliseconds. */
export interface Segment {
  resourceId: string;
  start: number;
  end: number;
  /** Credited for a tab in front (true) or for media playing in a tab behind (false). */
  tabActive: boolean;
}

export const isEngaged = (b: Pick<Beat, 'tabActive' | 'audible'>) => b.tabActive || b.audible;

interface Interval {
  resourceId: string;
  start: number;
  end: number;
  /** 1 when the tab was in front, 0 when it only played sound. */
  priority: number;
}

const byTimeThenId = (a: Beat, b: Beat) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The intervals each resource's own heartbeats cover. */
function intervals(beats: readonly Beat[], windowMs: number): Interval[] {
  const streams = new Map<string, Beat[]>();
  for (const b of beats) {
    const list = streams.get(b.resourceId);
    if (list) list.push(b);
    else streams.set(b.resourceId, [b]);
  }
  const out: Interval[] = [];
  for (const [resourceId, list] of streams) {
    list.sort(byTimeThenId);
    for (let i = 0; i + 1 < list.length; i++) {
      const a = list[i]!;
      const b = list[i + 1]!;
      const gap = b.time - a.time;
      if (gap > 0 && gap <= windowMs && isEngaged(a)) {
        out.push({ resourceId, start: a.time, end: b.time, priority: a.tabActive ? 1 : 0 });
      }
    }
  }
  return out;
}

/**
 * Credits covered time to resources: non-overlapping segments in time order, neighbouring segments of one
 * resource and one kind (tab in front, or media only) merged. Duplicate heartbeats (same id) count once.
 */
export function attribute(beats: readonly Beat[], windowMs = PULSE_WINDOW_MS): Segment[] {
  const unique = new Map<string, Beat>();
  for (const b of beats) if (!unique.has(b.id)) unique.set(b.id, b);
  const list = intervals([...unique.values()], windowMs);
  if (list.length === 0) return [];
  const points = [...new Set(list.flatMap((i) => [i.start, i.end]))].sort((a, b) => a - b);
  list.sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  let next = 0;
  let active: Interval[] = [];
  for (let p = 0; p + 1 < points.length; p++) {
    const from = points[p]!;
    const to = points[p + 1]!;
    while (next < list.length && list[next]!.start <= from) active.push(list[next++]!);
    active = active.filter((i) => i.end > from);
    let best: Interval | undefined;
    for (const i of active) {
      if (
        !best ||
        i.priority > best.priority ||
        (i.priority === best.priority &&
          (i.start > best.start || (i.start === best.start && i.resourceId > best.resourceId)))
      ) {
        best = i;
      }
    }
    if (!best) continue;
    const last = out[out.length - 1];
    const tabActive = best.priority === 1;
    if (last && last.resourceId === best.resourceId && last.tabActive === tabActive && last.end === from) {
      last.end = to;
    } else out.push({ resourceId: best.resourceId, start: from, end: to, tabActive });
  }
  return out;
}

/** Total credited milliseconds. */
export const totalMs = (segments: readonly Segment[]) =>
  segments.reduce((sum, s) => sum + (s.end - s.start), 0);

/** Cuts segments to the given windows (sorted, not overlapping). */
export function clip(segments: readonly Segment[], windows: readonly [number, number][]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    for (const [from, to] of windows) {
      const start = Math.max(s.start, from);
      const end = Math.min(s.end, to);
      if (end > start) out.push({ resourceId: s.resourceId, start, end, tabActive: s.tabActive });
    }
  }
  return out;
}

export interface DayAmount {
  resourceId: string;
  /** Unix seconds of the UTC midnight starting the day. */
  day: number;
  ms: number;
}

const key = (resourceId: string, day: number) => `${day}|${resourceId}`;

function addByDay(into: Map<string, DayAmount>, segments: readonly Segment[], sign: 1 | -1) {
  for (const s of segments) {
    let start = s.start;
    while (start < s.end) {
      const dayStartMs = Math.floor(start / DAY_MS) * DAY_MS;
      const end = Math.min(s.end, dayStartMs + DAY_MS);
      const day = dayStartMs / 1000;
      const k = key(s.resourceId, day);
      const entry = into.get(k);
      if (entry) entry.ms += sign * (end - start);
      else into.set(k, { resourceId: s.resourceId, day, ms: sign * (end - start) });
      start = end;
    }
  }
}

/** Milliseconds per resource per UTC day; a segment across midnight is split between the two days. */
export function byUtcDay(segments: readonly Segment[]): DayAmount[] {
  const map = new Map<string, DayAmount>();
  addByDay(map, segments, 1);
  return [...map.values()].filter((d) => d.ms !== 0);
}

/**
 * Where new heartbeats can change the credit: one pulse window either side of each, merged. The credit
 * of a moment depends only on heartbeats within one window of it, so reading heartbeats one more window
 * beyond (`readRanges`) is enough to recompute these windows exactly.
 */
export function affectedWindows(times: readonly number[], windowMs = PULSE_WINDOW_MS): [number, number][] {
  const sorted = [...times].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const t of sorted) {
    const last = out[out.length - 1];
    if (last && t - windowMs <= last[1]) last[1] = Math.max(last[1], t + windowMs);
    else out.push([t - windowMs, t + windowMs]);
  }
  return out;
}

/** The time ranges whose heartbeats are needed to recompute `windows`. */
export const readRanges = (windows: readonly [number, number][], windowMs = PULSE_WINDOW_MS) =>
  mergeRanges(windows.map(([a, b]) => [a - windowMs, b + windowMs] as [number, number]));

/** Ranges sorted by their start, overlapping and touching ones merged into one. */
export function mergeRanges(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * The change in credited time (per resource and UTC day) when `added` heartbeats join `existing` ones.
 * `existing` must hold every stored heartbeat within `readRanges(affectedWindows(added))`; heartbeats in
 * `added` that are already in `existing` (a resent batch) change nothing.
 */
export function windowDelta(
  existing: readonly Beat[],
  added: readonly Beat[],
  windowMs = PULSE_WINDOW_MS,
): DayAmount[] {
  const known = new Set(existing.map((b) => b.id));
  const fresh = added.filter((b) => !known.has(b.id));
  if (fresh.length === 0) return [];
  const windows = affectedWindows(
    fresh.map((b) => b.time),
    windowMs,
  );
  const before = clip(attribute(existing, windowMs), windows);
  const after = clip(attribute([...existing, ...fresh], windowMs), windows);
  const map = new Map<string, DayAmount>();
  addByDay(map, after, 1);
  addByDay(map, before, -1);
  return [...map.values()].filter((d) => d.ms !== 0);
}

// ---- which pages are tracked

/** Query parameters that say where a visit came from, not what the page is. */
const TRACKING_PARAMS = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  'ref',
  'ref_src',
  'ref_url',
  'si',
  'feature',
  'pp',
  'ab_channel',
  'spm',
]);

const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'youtu.be',
]);

function youtubeId(url: URL, host: string): string | null {
  if (!YOUTUBE_HOSTS.has(host)) return null;
  if (host === 'youtu.be') return url.pathname.split('/')[1] || null;
  if (url.pathname === '/watch') return url.searchParams.get('v');
  const m = /^\/(?:embed|shorts|live|v)\/([^/?#]+)/.exec(url.pathname);
  return m?.[1] ?? null;
}

/**
 * What identifies a page for tracking: the address without its scheme, `www.`, fragment, trailing slash
 * or tracking parameters (utm_*, fbclid, …), the remaining parameters sorted; a YouTube video by its id,
 * whichever of its addresses is used. Null for what cannot be tracked (not http(s), not a URL).
 */
export function trackingKey(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const video = youtubeId(url, host);
  if (video) return `youtube:${video}`;
  const params = [...url.searchParams.entries()]
    .filter(([k]) => !k.toLowerCase().startsWith('utm_') && !TRACKING_PARAMS.has(k.toLowerCase()))
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const path = url.pathname.replace(/\/+$/, '') || '';
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const port = url.port ? `:${url.port}` : '';
  return `${host}${port}${path}${query}`;
}
