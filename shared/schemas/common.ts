import { z } from 'zod';
import { entities } from './entities';

export const ROLES = ['USER', 'TENANT'] as const;
export const Role = z.enum(ROLES);
entities.add(Role, { id: 'Role' });
export type Role = z.infer<typeof Role>;

export const DEVICES = ['WEB_APP', 'CHROME_EXTENSION', 'FIREFOX_EXTENSION', 'CLI'] as const;
export const Device = z.enum(DEVICES);
entities.add(Device, { id: 'Device' });
export type Device = z.infer<typeof Device>;
export const EXTENSION_DEVICES = ['CHROME_EXTENSION', 'FIREFOX_EXTENSION'] as const;

/** Identifiers are UUIDs, exposed as `_id`. */
export const Id = z.uuid({ message: 'must be a valid id' });
entities.add(Id, { id: 'Id' });

/** An ISO date-time string as the API sends it. */
export const DateTime = z.string().describe('ISO 8601 date-time');
entities.add(DateTime, { id: 'DateTime' });
/** Unix seconds. */
export const UnixSeconds = z.number().int().nonnegative();
entities.add(UnixSeconds, { id: 'UnixSeconds' });

/**
 * The last second of the year 9999, UTC: no time a caller sends is later. Times past it are not dates a
 * person means, and much past it JavaScript's Date gives up ('Invalid time value').
 */
export const LATEST_UNIX_SECONDS = 253_402_300_799;
const secondsMessage = 'must be unix seconds';
/** A time a caller sends as unix seconds, in a query string or JSON (a number string is read as a number). */
export const UnixSecondsInput = z.coerce
  .number({ error: secondsMessage })
  .int(secondsMessage)
  .nonnegative(secondsMessage)
  .max(LATEST_UNIX_SECONDS, 'must be unix seconds before the year 10000');
entities.add(UnixSecondsInput, { id: 'UnixSecondsInput' });
/** A time a caller sends as unix milliseconds, in JSON; `error` for a value that is not one. */
export const unixMillisInput = (error = 'must be unix milliseconds') =>
  z
    .number({ error })
    .int(error)
    .nonnegative(error)
    .max(LATEST_UNIX_SECONDS * 1000 + 999, 'must be unix milliseconds before the year 10000');
export const UnixMillisInput = unixMillisInput();
entities.add(UnixMillisInput, { id: 'UnixMillisInput' });

/** The largest page number any paged call takes. */
export const MAX_PAGE = 100_000;
/** A page number from 1 (skip, page). */
export const PageNumber = z.coerce
  .number({ error: 'must be a page number from 1' })
  .int('must be a page number from 1')
  .min(1, { message: 'must be a page number from 1' })
  .max(MAX_PAGE, { message: `must be at most ${MAX_PAGE}` });
entities.add(PageNumber, { id: 'PageNumber' });

/** Text a caller sends, at most `max` characters. */
export const Text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** Every success body is `{ data, message? }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data, message: z.string().optional() });
}

/** The one shape of every error body. */
export const ErrorBody = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  /** 11000 for a duplicate key, 'ERR001' for a refused name change, … */
  code: z.union([z.number(), z.string()]).optional(),
  /** LINK_EXPIRED, TEST_COMPLETED, ASSESSMENT_NOT_YET_STARTED, EMAIL_NOT_VERIFIED, NOT_REGISTERED, … */
  errorCode: z.string().optional(),
  /** The field the error is about, as the request named it. */
  field: z.string().optional(),
  /** RETAKE_COOLDOWN: when a new link for the failed test can be asked for (ISO 8601, UTC). */
  opensAt: z.string().optional(),
  /** For a duplicate key: the key that collided, e.g. `{ phoneNumber: 1 }`. */
  keyPattern: z.record(z.string(), z.number()).optional(),
  /** Every invalid field with its message, for bad input. */
  fields: z.record(z.string(), z.string()).optional(),
  /**
   * Bad input: each field's message by code (decision 052), for a page that says it in its reader's
   * language — the message key (`forms.tooLong`, `auth.emailInvalid`) and the values it names.
   */
  fieldCodes: z
    .record(
      z.string(),
      z.object({
        code: z.string(),
        params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      }),
    )
    .optional(),
  /** ALREADY_SHARED: the learners who already have a test of the assessment, and when it was made. */
  alreadyShared: z.array(z.object({ _id: z.string(), email: z.string(), sharedAt: z.string() })).optional(),
});
entities.add(ErrorBody, { id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Standard error responses a call may give, to spread into `responses`. */
export const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
} as const;

export const Ok = envelope(z.object({ ok: z.boolean() }));
entities.add(Ok, { id: 'Ok' });

/** Page of a paged list: `skip` carries the page number (1-based) as the specification says. */
export const PageQuery = z.object({
  skip: PageNumber.default(1),
  limit: z.coerce.number().int().min(1).max(100, { message: 'must be at most 100' }).default(5),
});

/** A UTC time range in unix seconds. */
export const TimeRangeQuery = z
  .object({
    startTime: UnixSecondsInput,
    endTime: UnixSecondsInput,
  })
  .refine((q) => q.endTime >= q.startTime, { message: 'must not be before startTime', path: ['endTime'] })
  .refine((q) => q.endTime - q.startTime <= 400 * 86400, {
    message: 'the range may span at most 400 days',
    path: ['endTime'],
  });
