/**
 * The time ranges a report may be asked for: TimeRangeQuery's rules (unix seconds, the end not before the
 * start, at most 400 days) within years a report can mean — from 2000 to 2099 — so an absurd time is a
 * 400 naming its field, never a date the server cannot represent.
 */
import { z } from 'zod';
import { TimeRangeQuery } from './common';
import { entities } from './entities';

/** 2000-01-01T00:00:00Z. */
export const EARLIEST_REPORT_TIME = 946_684_800;
/** 2099-12-31T23:59:59Z. */
export const LATEST_REPORT_TIME = 4_102_444_799;
export const MAX_RANGE_DAYS = 400;

const bounded = (field: 'startTime' | 'endTime') =>
  TimeRangeQuery.shape[field]
    .min(EARLIEST_REPORT_TIME, { message: 'must be unix seconds from 2000-01-01' })
    .max(LATEST_REPORT_TIME, { message: 'must be unix seconds before 2100-01-01' });

const ordered = <T extends { startTime?: number; endTime?: number }>(q: T) =>
  q.startTime === undefined || q.endTime === undefined || q.endTime >= q.startTime;
const short = <T extends { startTime?: number; endTime?: number }>(q: T) =>
  q.startTime === undefined || q.endTime === undefined || q.endTime - q.startTime <= MAX_RANGE_DAYS * 86_400;

/** A required range. */
export const ReportRange = z
  .object({ startTime: bounded('startTime'), endTime: bounded('endTime') })
  .refine(ordered, { message: 'must not be before startTime', path: ['endTime'] })
  .refine(short, { message: `the range may span at most ${MAX_RANGE_DAYS} days`, path: ['endTime'] });
entities.add(ReportRange, { id: 'ReportRange' });

/** A range that may be left out (then: all time), but not half given. */
export const OptionalReportRange = z
  .object({ startTime: bounded('startTime').optional(), endTime: bounded('endTime').optional() })
  .refine((q) => (q.startTime === undefined) === (q.endTime === undefined), {
    message: 'give both startTime and endTime, or neither',
    path: ['endTime'],
  })
  .refine(ordered, { message: 'must not be before startTime', path: ['endTime'] })
  .refine(short, { message: `the range may span at most ${MAX_RANGE_DAYS} days`, path: ['endTime'] });
entities.add(OptionalReportRange, { id: 'OptionalReportRange' });
