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
import { defineCall } from './define';

export const TrackedResource = z.object({
  resourceId: Id,
  /** The resource's address; the extension compares addresses with `trackingKey` (shared/rules/heartbeats). */
  url: z.string(),
  title: z.string(),
});
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
export type HeartbeatBatch = z.infer<typeof HeartbeatBatch>;

export const IGNORED_REASONS = ['NOT_ASSIGNED', 'URL_MISMATCH', 'TOO_OLD', 'IN_FUTURE'] as const;
export const HeartbeatReceipt = z.object({
  /** Heartbeats stored now. */
  accepted: z.number().int(),
  /** Heartbeats already stored (a resent batch): counted once. */
  duplicates: z.number().int(),
  /**
   * Heartbeats refused and not stored, with why: the resource is not assigned to the learner, the address
   * is not the resource's, older than 30 days, or more than 5 minutes ahead of the server's clock.
   * Sending them again changes nothing; the extension drops them.
   */
  ignored: z.array(z.object({ id: z.string(), reason: z.enum(IGNORED_REASONS) })),
});
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
