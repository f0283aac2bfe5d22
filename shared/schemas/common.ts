import { z } from 'zod';

export const ROLES = ['USER', 'TENANT'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const DEVICES = ['WEB_APP', 'CHROME_EXTENSION', 'FIREFOX_EXTENSION', 'CLI'] as const;
export const Device = z.enum(DEVICES);
export type Device = z.infer<typeof Device>;
export const EXTENSION_DEVICES = ['CHROME_EXTENSION', 'FIREFOX_EXTENSION'] as const;

/** Identifiers are UUIDs, exposed as `_id`. */
export const Id = z.uuid({ message: 'must be a valid id' });
export const IdParam = z.object({ id: Id });

/** An ISO date-time string as the API sends it. */
export const DateTime = z.string().describe('ISO 8601 date-time');
/** Unix seconds. */
export const UnixSeconds = z.number().int().nonnegative();

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
});
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

/** Page of a paged list: `skip` carries the page number (1-based) as the specification says. */
export const PageQuery = z.object({
  skip: z.coerce.number().int().min(1, { message: 'must be a page number from 1' }).default(1),
  limit: z.coerce.number().int().min(1).max(100, { message: 'must be at most 100' }).default(5),
});

/** A UTC time range in unix seconds. */
export const TimeRangeQuery = z
  .object({
    startTime: z.coerce.number().int().nonnegative({ message: 'must be unix seconds' }),
    endTime: z.coerce.number().int().nonnegative({ message: 'must be unix seconds' }),
  })
  .refine((q) => q.endTime >= q.startTime, { message: 'must not be before startTime', path: ['endTime'] })
  .refine((q) => q.endTime - q.startTime <= 400 * 86400, {
    message: 'the range may span at most 400 days',
    path: ['endTime'],
  });
