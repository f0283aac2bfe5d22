/**
 * The learner's figures, read from the rollups: per UTC day, per resource (paged), the current resource
 * cards, the learning days (heatmap and streaks) and the time per subject and topic. One user at a time; the learner's dashboard calls them for the caller, a mentor's analytics can
 * call them for a learner of theirs.
 */
import type { LearningDays, SubjectTime } from '@shared/contract/activity';
import type { TimeRange } from '@shared/rules/date-ranges';
import { daysOf } from '@shared/rules/date-ranges';
import { heatmapRange, isoDayOf, LEARNING_DAY_SECONDS, streaksOf } from '@shared/rules/learning-days';
import type { DashboardCard } from '@shared/schemas/activity';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';

/** How many dashboard cards at most. */
export const MAX_CARDS = 6;

const seconds = (ms: number | string) => Math.round(Number(ms) / 1000);

/** Seconds learnt on each UTC day of the range, zero included. */
export async function timeByDay(db: Db, userId: string, query: TimeRange) {
  const rows = rowsOf<{ day: string; ms: string | number }>(
    await db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day, sum(ms) as ms from activity_daily
      where user_id = ${userId} and day between ${isoDayOf(query.startTime * 1000)} and ${isoDayOf(query.endTime * 1000)}
      group by day`),
  );
  const byDay = new Map(rows.map((r) => [r.day, seconds(r.ms)]));
  const data = daysOf(query).map((day) => ({ date: day, timespent: byDay.get(isoDayOf(day * 1000)) ?? 0 }));
  return data;
}

/**
 * The current resource cards (most recently studied of ongoing roadmaps, then the first of one not started),
 * each with when its resource test can be retaken when a failure holds it back (RETAKE_COOLDOWN_HOURS).
 */
export async function currentResources(db: Db, userId: string, cooldownMs: number): Promise<DashboardCard[]> {
  const rows = rowsOf<{
    assigned_id: string;
    roadmap_name: string;
    section_id: string;
    resource_id: string;
    title: string;
    url: string;
    type: 'WATCH' | 'READ';
    ms: string | number | null;
    last_at: string | number | null;
  }>(
    await db.execute(sql`
      select ar.id as assigned_id, rm.name as roadmap_name, s.section_id, r.id as resource_id,
             coalesce(r.user_title, r.actual_title) as title, r.url, r.type, t.ms, t.last_at
      from assigned_roadmaps ar
      join roadmaps rm on rm.id = ar.roadmap_id
      join assigned_sections s on s.assigned_roadmap_id = ar.id
      join section_resources sr on sr.section_id = s.section_id
      join resources r on r.id = sr.resource_id
      left join activity_resource_totals t on t.user_id = ar.user_id and t.resource_id = r.id
      where ar.user_id = ${userId} and ar.status = 'ONGOING'
      order by ar.created_at, s.position, sr.position`),
  );
  const card = (r: (typeof rows)[number]): DashboardCard => ({
    roadmapName: r.roadmap_name,
    resourceName: r.title,
    resourceUrl: r.url,
    resourceType: r.type,
    latestTimestamp: Math.floor(Number(r.last_at ?? 0) / 1000),
    totalTimeSpent: seconds(r.ms ?? 0),
    roadmapId: r.assigned_id,
    sectionId: r.section_id,
    resourceId: r.resource_id,
  });
  const studied = rows
    .filter((r) => Number(r.last_at ?? 0) > 0)
    .sort((a, b) => Number(b.last_at) - Number(a.last_at));
  const cards: DashboardCard[] = [];
  const seen = new Set<string>();
  for (const r of studied) {
    if (cards.length >= MAX_CARDS) break;
    if (seen.has(r.resource_id)) continue;
    seen.add(r.resource_id);
    cards.push(card(r));
  }
  // an ongoing roadmap not started yet shows its first resource: what to study next
  const started = new Set(cards.map((c) => c.roadmapId));
  for (const r of rows) {
    if (cards.length >= MAX_CARDS) break;
    if (started.has(r.assigned_id) || seen.has(r.resource_id)) continue;
    started.add(r.assigned_id);
    seen.add(r.resource_id);
    cards.push(card(r));
  }
  return withRetakes(db, userId, cards, cooldownMs);
}

/** The cards' retake times: the latest failure of each card's resource test still in its cool-down. */
async function withRetakes(
  db: Db,
  userId: string,
  cards: DashboardCard[],
  cooldownMs: number,
): Promise<DashboardCard[]> {
  if (cards.length === 0 || cooldownMs <= 0) return cards.map((c) => ({ ...c, retakeAt: null }));
  const since = new Date(Date.now() - cooldownMs).toISOString();
  const failed = rowsOf<{ key: string; at: string | Date }>(
    await db.execute(sql`
      select test_key as key, max(completed_at) as at from test_links
      where user_id = ${userId} and status = 'NO_ENOUGH_MARKS' and completed_at > ${since}
        and test_key like 'RESOURCE:%'
      group by test_key`),
  );
  const opens = new Map(failed.map((f) => [f.key, new Date(new Date(f.at).getTime() + cooldownMs)]));
  return cards.map((c) => ({
    ...c,
    retakeAt: opens.get(`RESOURCE:${c.resourceId}`)?.toISOString() ?? null,
  }));
}

/** Seconds per resource over the range, most first; `skip` is the page number. */
export async function timeByResource(
  db: Db,
  userId: string,
  range: TimeRange & { skip: number; limit: number },
) {
  const offset = (range.skip - 1) * range.limit;
  const rows = rowsOf<{
    total: string | number;
    resource_id: string | null;
    ms: string | number | null;
    title: string | null;
  }>(
    await db.execute(sql`
      with agg as (
        select resource_id, sum(ms) as ms from activity_daily
        where user_id = ${userId} and day between ${isoDayOf(range.startTime * 1000)} and ${isoDayOf(range.endTime * 1000)}
        group by resource_id having sum(ms) > 0
      )
      select c.total, p.resource_id, p.ms, coalesce(r.user_title, r.actual_title) as title
      from (select count(*) as total from agg) c
      left join lateral (
        select resource_id, ms from agg order by ms desc, resource_id limit ${range.limit} offset ${offset}
      ) p on true
      left join resources r on r.id = p.resource_id
      order by p.ms desc nulls last, p.resource_id`),
  );
  return {
    totalCount: Number(rows[0]?.total ?? 0),
    timeSpentOnResource: rows
      .filter((r) => r.resource_id)
      .map((r) => ({
        resource: { _id: r.resource_id!, userTitle: r.title ?? 'Resource' },
        timespent: seconds(r.ms ?? 0),
      })),
  };
}

const unixDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

/** The heatmap of the last 12 months and the streaks, from the daily totals (one read of them all). */
export async function learningDays(db: Db, userId: string, now = new Date()): Promise<LearningDays> {
  const today = isoDayOf(now.getTime());
  const range = heatmapRange(today);
  const rows = rowsOf<{ day: string; ms: string | number }>(
    await db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day, sum(ms) as ms from activity_daily
      where user_id = ${userId} and day <= ${today}
      group by day having sum(ms) > 0`),
  );
  const days: { date: number; timespent: number }[] = [];
  const learning: string[] = [];
  let learningInRange = 0;
  let totalSeconds = 0;
  for (const r of rows) {
    const s = seconds(r.ms);
    if (s >= LEARNING_DAY_SECONDS) learning.push(r.day);
    if (r.day < range.from || s <= 0) continue;
    days.push({ date: unixDay(r.day), timespent: s });
    totalSeconds += s;
    if (s >= LEARNING_DAY_SECONDS) learningInRange++;
  }
  days.sort((a, b) => a.date - b.date);
  const streaks = streaksOf(learning, today);
  return {
    from: unixDay(range.from),
    to: unixDay(range.to),
    thresholdSeconds: LEARNING_DAY_SECONDS,
    days,
    learningDays: learningInRange,
    totalSeconds,
    currentStreak: streaks.current,
    currentStreakEnd: streaks.currentEnd ? unixDay(streaks.currentEnd) : null,
    longestStreak: streaks.longest,
    longestStreakEnd: streaks.longestEnd ? unixDay(streaks.longestEnd) : null,
  };
}

/**
 * Seconds per subject and topic over the range. A resource counts for the roadmap its section belongs to;
 * a resource in several roadmaps counts once, for the learner's own roadmap first, else the oldest.
 */
export async function timeByTopic(db: Db, userId: string, range: TimeRange): Promise<SubjectTime[]> {
  const rows = rowsOf<{
    subject_id: string | null;
    subject: string | null;
    topic_id: string | null;
    topic: string | null;
    ms: string | number;
  }>(
    await db.execute(sql`
      with t as (
        select resource_id, sum(ms) as ms from activity_daily
        where user_id = ${userId} and day between ${isoDayOf(range.startTime * 1000)} and ${isoDayOf(range.endTime * 1000)}
        group by resource_id having sum(ms) > 0
      ), mine as (
        select s.section_id from assigned_roadmaps ar
        join assigned_sections s on s.assigned_roadmap_id = ar.id
        where ar.user_id = ${userId}
      ), m as (
        select distinct on (t.resource_id) t.resource_id, t.ms, rm.subject_id, rm.topic_id
        from t
        left join section_resources sr on sr.resource_id = t.resource_id
        left join sections sc on sc.id = sr.section_id
        left join roadmaps rm on rm.id = sc.roadmap_id
        order by t.resource_id, (sc.id in (select section_id from mine)) desc nulls last,
                 rm.created_at nulls last, rm.id
      )
      select m.subject_id, sub.name as subject, m.topic_id, tp.name as topic, sum(m.ms) as ms
      from m
      left join subjects sub on sub.id = m.subject_id
      left join topics tp on tp.id = m.topic_id
      group by m.subject_id, sub.name, m.topic_id, tp.name`),
  );
  const bySubject = new Map<string, SubjectTime>();
  for (const r of rows) {
    const key = r.subject_id ?? '';
    const entry = bySubject.get(key) ?? {
      subject: r.subject_id && r.subject ? { _id: r.subject_id, name: r.subject } : null,
      timespent: 0,
      topics: [],
    };
    const s = seconds(r.ms);
    entry.timespent += s;
    entry.topics.push({
      topic: r.topic_id && r.topic ? { _id: r.topic_id, name: r.topic } : null,
      timespent: s,
    });
    bySubject.set(key, entry);
  }
  const byName = (a: { name: string } | null, b: { name: string } | null) =>
    (a?.name ?? '\uffff').localeCompare(b?.name ?? '\uffff');
  const out = [...bySubject.values()].filter((s) => s.timespent > 0);
  for (const s of out) {
    s.topics = s.topics.filter((t) => t.timespent > 0);
    s.topics.sort((a, b) => b.timespent - a.timespent || byName(a.topic, b.topic));
  }
  return out.sort((a, b) => b.timespent - a.timespent || byName(a.subject, b.subject));
}
