/**
 * Learning time: what the extension tracks and sends, the learner's dashboard reports (learner §7) and the
 * uninstall feedback. Times are unix seconds with UTC day bounds unless a field says milliseconds.
 * The extension's calls accept only the extension's own tokens (devices CHROME_EXTENSION and
 * FIREFOX_EXTENSION, from GET /login/socket-token).
 */
import { z } from 'zod';
import { MAX_BATCH } from '../rules/heartbeats';
import {
  DailyTime,
  DashboardCard,
  Heartbeat,
  ResourceTime,
  UninstallFeedbackInput,
} from '../schemas/activity';
import {
  DateTime,
  EXTENSION_DEVICES,
  envelope,
  errors,
  Id,
  Ok,
  PageQuery,
  TimeRangeQuery,
  UnixSeconds,
  UnixSecondsInput,
} from '../schemas/common';
import { entities } from '../schemas/entities';
import { FileBody } from '../schemas/file';
import { ReportRange } from '../schemas/report-range';
import { defineCall, defineRouter } from './define';

export const TrackedResource = z.object({
  resourceId: Id,
  /** The resource's address; the extension compares addresses with `trackingKey` (shared/rules/heartbeats). */
  url: z.string(),
  title: z.string(),
});
entities.add(TrackedResource, { id: 'TrackedResource' });
export type TrackedResource = z.infer<typeof TrackedResource>;

export const trackedResources = defineCall({
  method: 'GET',
  path: '/activity/tracked-resources',
  summary:
    "The resources of the learner's assigned roadmaps: the only addresses the extension tracks. Extension tokens only.",
  tags: ['activity'],
  access: ['USER'],
  devices: EXTENSION_DEVICES,
  responses: {
    200: envelope(
      z.object({
        user: z.object({ _id: Id, name: z.string().nullable(), email: z.string() }),
        resources: z.array(TrackedResource),
      }),
    ),
    ...errors,
  },
});

export const HeartbeatBatch = z.object({
  heartbeats: z
    .array(Heartbeat, { error: 'heartbeats must be a list' })
    .min(1, 'send at least one heartbeat')
    .max(MAX_BATCH, `at most ${MAX_BATCH} heartbeats a batch`),
});
entities.add(HeartbeatBatch, { id: 'HeartbeatBatch' });
export type HeartbeatBatch = z.infer<typeof HeartbeatBatch>;

export const IGNORED_REASONS = ['NOT_ASSIGNED', 'URL_MISMATCH', 'TOO_OLD', 'IN_FUTURE', 'ERASED'] as const;
export const HeartbeatReceipt = z.object({
  /** Heartbeats stored now. */
  accepted: z.number().int(),
  /** Heartbeats already stored (a resent batch): counted once. */
  duplicates: z.number().int(),
  /**
   * Heartbeats refused and not stored, with why: the resource is not assigned to the learner, the address
   * is not the resource's, older than 30 days, more than 5 minutes ahead of the server's clock, or inside
   * a stretch the learner deleted on "What was tracked" (ERASED).
   * Sending them again changes nothing; the extension drops them.
   */
  ignored: z.array(z.object({ id: z.string(), reason: z.enum(IGNORED_REASONS) })),
});
entities.add(HeartbeatReceipt, { id: 'HeartbeatReceipt' });
export type HeartbeatReceipt = z.infer<typeof HeartbeatReceipt>;

export const sendHeartbeats = defineCall({
  method: 'POST',
  path: '/activity/heartbeats',
  summary:
    'A batch of up to 100 heartbeats from the extension. Idempotent by heartbeat id; a bad batch is refused whole (400 naming the field).',
  tags: ['activity'],
  access: ['USER'],
  devices: EXTENSION_DEVICES,
  body: HeartbeatBatch,
  responses: { 200: envelope(HeartbeatReceipt), ...errors },
});

export const TodayQuery = z.object({
  /** The start of the learner's day (local midnight), unix seconds; UTC midnight when absent. */
  startTime: UnixSecondsInput.optional(),
});
export const TodaySummary = z.object({
  user: z.object({ _id: Id, name: z.string().nullable(), email: z.string() }),
  startTime: UnixSeconds,
  /** Seconds learnt since startTime. */
  totalSeconds: z.number().nonnegative(),
  resources: z.array(z.object({ resourceId: Id, title: z.string(), seconds: z.number().nonnegative() })),
});
entities.add(TodaySummary, { id: 'TodaySummary' });
export type TodaySummary = z.infer<typeof TodaySummary>;

export const todaySummary = defineCall({
  method: 'GET',
  path: '/activity/today',
  summary:
    "The learner's time today (since startTime, at most 36 hours back) in total and per resource, for the extension's popup.",
  tags: ['activity'],
  access: ['USER'],
  query: TodayQuery,
  responses: { 200: envelope(TodaySummary), ...errors },
});

export const timeSpentByUserDaywise = defineCall({
  method: 'GET',
  path: '/reports/dashboard/time-spent-by-user-daywise',
  summary: 'Seconds learnt per UTC day from startTime to endTime, one entry per day (zero included).',
  tags: ['reports'],
  access: ['USER'],
  query: TimeRangeQuery,
  responses: { 200: envelope(z.array(DailyTime)), ...errors },
});

export const getCurrentResource = defineCall({
  method: 'GET',
  path: '/reports/dashboard/get-current-resource',
  summary:
    "The dashboard cards: the most recently studied resources of the learner's ongoing roadmaps (and the first resource of an ongoing roadmap not started yet), with total seconds. roadmapId is the assigned roadmap's id.",
  tags: ['reports'],
  access: ['USER'],
  responses: { 200: envelope(z.array(DashboardCard)), ...errors },
});

export const ResourceTimePage = z.object({
  timeSpentOnResource: z.array(ResourceTime),
  totalCount: z.number().int(),
});
entities.add(ResourceTimePage, { id: 'ResourceTimePage' });

export const timeSpentOnResourceByUser = defineCall({
  method: 'GET',
  path: '/reports/dashboard/time-spent-on-resource-by-user',
  summary:
    'Seconds learnt per resource from startTime to endTime, most first; skip is the page number (from 1), limit the page size.',
  tags: ['reports'],
  access: ['USER'],
  query: TimeRangeQuery.safeExtend(PageQuery.shape),
  responses: { 200: envelope(ResourceTimePage), ...errors },
});

/** The calendar heatmap and the streaks (shared/rules/learning-days.ts). Days are UTC midnights, unix seconds. */
export const LearningDays = z.object({
  /** The heatmap's first day: the day after the same date a year before today. */
  from: UnixSeconds,
  /** Today. */
  to: UnixSeconds,
  /** A day with at least this many seconds is a learning day. */
  thresholdSeconds: z.number().int(),
  /** Seconds learnt on each day of the heatmap with any learning (days without are left out). */
  days: z.array(DailyTime),
  /** Learning days in the heatmap's range. */
  learningDays: z.number().int(),
  /** Seconds learnt in the heatmap's range. */
  totalSeconds: z.number().nonnegative(),
  /** Learning days in a row up to today, or up to yesterday while today has none yet. */
  currentStreak: z.number().int(),
  currentStreakEnd: UnixSeconds.nullable(),
  /** The longest run of learning days ever. */
  longestStreak: z.number().int(),
  longestStreakEnd: UnixSeconds.nullable(),
});
entities.add(LearningDays, { id: 'LearningDays' });
export type LearningDays = z.infer<typeof LearningDays>;

export const learningDays = defineCall({
  method: 'GET',
  path: '/reports/dashboard/learning-days',
  summary:
    "The learner's calendar heatmap of the last 12 months (seconds per UTC day, from the daily totals), the current and the longest streak of learning days (a day with at least a minute).",
  tags: ['reports'],
  access: ['USER'],
  responses: { 200: envelope(LearningDays), ...errors },
});

/** Time per subject and, within it, per topic; a resource counts for the roadmap its section belongs to. */
export const SubjectTime = z.object({
  subject: z.object({ _id: Id, name: z.string() }).nullable(),
  timespent: z.number().nonnegative(),
  topics: z.array(
    z.object({
      /** Null for roadmaps without a topic. */
      topic: z.object({ _id: Id, name: z.string() }).nullable(),
      timespent: z.number().nonnegative(),
    }),
  ),
});
entities.add(SubjectTime, { id: 'SubjectTime' });
export type SubjectTime = z.infer<typeof SubjectTime>;

export const timeSpentByTopic = defineCall({
  method: 'GET',
  path: '/reports/dashboard/time-spent-by-topic',
  summary:
    "Seconds learnt per subject and topic from startTime to endTime (UTC days), most first. A resource's time counts for the subject and topic of the roadmap its section belongs to (the learner's own roadmap first).",
  tags: ['reports'],
  access: ['USER'],
  query: ReportRange,
  responses: { 200: envelope(z.array(SubjectTime)), ...errors },
});

// ---- what was tracked

/** One span of credited time (shared/rules/spans.ts). */
export const TrackedSpan = z.object({
  _id: Id,
  resource: z.object({ _id: Id, title: z.string(), url: z.string() }),
  /** When it began and ended (UTC); for time recorded before spans were kept, the day only (timesKnown false). */
  start: DateTime,
  end: DateTime,
  seconds: z.number().nonnegative(),
  /** True: the tab was in front and the learner active; false: the tab only played media. */
  tabActive: z.boolean(),
  /** False for time recorded before spans were kept: the day's total per resource, no time of day. */
  timesKnown: z.boolean(),
});
entities.add(TrackedSpan, { id: 'TrackedSpan' });
export type TrackedSpan = z.infer<typeof TrackedSpan>;

export const TrackedDay = z.object({
  /** UTC midnight, unix seconds. */
  date: UnixSeconds,
  /** 'YYYY-MM-DD' (UTC), as DELETE /activity/tracked/days/{day} takes it. */
  day: z.string(),
  seconds: z.number().nonnegative(),
  spans: z.array(TrackedSpan),
});
entities.add(TrackedDay, { id: 'TrackedDay' });
export type TrackedDay = z.infer<typeof TrackedDay>;

export const trackedDays = defineCall({
  method: 'GET',
  path: '/activity/tracked',
  summary:
    "What was tracked: every span of the learner's learning time (resource, start, end, seconds, tab in front or media playing), by UTC day, newest day first; skip is the page number (from 1), limit the days a page (at most 31).",
  tags: ['activity'],
  access: ['USER'],
  devices: ['WEB_APP', 'CLI'],
  query: z.object({
    skip: PageQuery.shape.skip,
    limit: z.coerce.number().int().min(1).max(31, { message: 'must be at most 31' }).default(7),
  }),
  responses: {
    200: envelope(
      z.object({ totalDays: z.number().int(), totalSeconds: z.number(), days: z.array(TrackedDay) }),
    ),
    ...errors,
  },
});

export const Deleted = z.object({
  /** The UTC day, 'YYYY-MM-DD'. */
  day: z.string(),
  /** Seconds deleted. */
  seconds: z.number().nonnegative(),
  /** Seconds left on that day. */
  daySeconds: z.number().nonnegative(),
});
entities.add(Deleted, { id: 'Deleted' });

export const deleteTrackedSpan = defineCall({
  method: 'DELETE',
  path: '/activity/tracked/spans/{id}',
  summary:
    "Deletes one span of the learner's time: the dashboard's and the mentor's figures lose it at once, the heartbeats behind it are deleted, and none arriving later may fill that stretch again.",
  tags: ['activity'],
  access: ['USER'],
  devices: ['WEB_APP', 'CLI'],
  params: z.object({ id: Id }),
  responses: { 200: envelope(Deleted), ...errors },
});

export const TrackedDayParam = z.object({
  day: z
    .string()
    .length(10, 'must be a day as YYYY-MM-DD')
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day as YYYY-MM-DD')
    .refine(
      (d) =>
        !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      {
        message: 'is not a day of the calendar',
      },
    )
    .refine((d) => d >= '2000-01-01' && d <= '2099-12-31', {
      message: 'must be between 2000-01-01 and 2099-12-31',
    }),
});

export const deleteTrackedDay = defineCall({
  method: 'DELETE',
  path: '/activity/tracked/days/{day}',
  summary:
    "Deletes all of the learner's time on one UTC day (YYYY-MM-DD), as deleting each of its spans would.",
  tags: ['activity'],
  access: ['USER'],
  devices: ['WEB_APP', 'CLI'],
  params: TrackedDayParam,
  responses: { 200: envelope(Deleted), ...errors },
});

export const EXPORT_FORMATS = ['json', 'csv'] as const;

export const exportActivity = defineCall({
  method: 'GET',
  path: '/activity/export',
  summary:
    "All of the learner's learning time as a file: every span (day, start, end, seconds, resource, address, tab in front or media playing) — JSON (with the daily totals per resource) or CSV (UTF-8 with a byte-order mark). Streamed.",
  tags: ['activity'],
  access: ['USER'],
  devices: ['WEB_APP', 'CLI'],
  query: z.object({ format: z.enum(EXPORT_FORMATS, { error: 'must be json or csv' }).default('json') }),
  download: { contentTypes: ['application/json', 'text/csv'] },
  responses: { 200: FileBody, ...errors },
});

export const createFeedback = defineCall({
  method: 'POST',
  path: '/feedback/create',
  summary: 'Uninstall feedback ("Sorry to see you go"). Anyone may send it; rate limited.',
  tags: ['feedback'],
  access: 'optional',
  rateLimit: 'strict',
  body: UninstallFeedbackInput,
  responses: { 201: Ok, ...errors },
});

/** Every call of this module, served by server/activity/routes.ts. */
export const activityRouter = defineRouter({
  trackedResources,
  sendHeartbeats,
  todaySummary,
  timeSpentByUserDaywise,
  getCurrentResource,
  timeSpentOnResourceByUser,
  learningDays,
  timeSpentByTopic,
  trackedDays,
  deleteTrackedSpan,
  deleteTrackedDay,
  exportActivity,
  createFeedback,
});
