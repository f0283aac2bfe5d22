/**
 * xAPI to a learning record store (issue 29 item 3; decision 042): the tenant's LRS — its statement
 * endpoint, key and secret, how learners are named in it, and which statements it receives — and the queue
 * of what was sent, as the tenant sees it.
 */
import { z } from 'zod';
import type { MessageKey } from '../i18n/keys';
import { LRS_CODES } from '../rules/lrs-words';
import { DateTime, Id } from './common';
import { CodedWords } from './credential';
import { entities } from './entities';

/**
 * What a tenant may choose to send, each from one kind of event: `studied` — a resource studied
 * (`experienced`, per resource and day, from learning.day.closed); `assessments` — a test `attempted`, then
 * `passed` or `failed` (assessment.evaluated); `awards` — an award `earned` (award.issued); `roadmaps` — a
 * roadmap `completed` (roadmap.completed).
 */
export const XAPI_STATEMENT_KINDS = ['studied', 'assessments', 'awards', 'roadmaps'] as const;
export const XapiStatementKind = z.enum(XAPI_STATEMENT_KINDS, {
  error: `must be one of ${XAPI_STATEMENT_KINDS.join(', ')}`,
});
entities.add(XapiStatementKind, { id: 'XapiStatementKind' });
export type XapiStatementKind = z.infer<typeof XapiStatementKind>;

/** Each kind in the portal's and the CLI's words. */
export const XAPI_KIND_TEXT: Record<XapiStatementKind, MessageKey> = {
  studied: 'xapi.kind.studied',
  assessments: 'xapi.kind.assessments',
  awards: 'xapi.kind.awards',
  roadmaps: 'xapi.kind.roadmaps',
};

/** `account`: a stable pseudonym per tenant at this Waymark's address; `mbox`: the learner's e-mail address. */
export const XAPI_ACTOR_FORMATS = ['account', 'mbox'] as const;
export const XapiActorFormat = z.enum(XAPI_ACTOR_FORMATS, { error: 'must be account or mbox' });
entities.add(XapiActorFormat, { id: 'XapiActorFormat' });

export const XapiConnection = z.object({
  /** The LRS's statement endpoint: statements are sent to `{endpoint}statements`. */
  endpoint: z.string(),
  /** The LRS key (HTTP Basic user name); the secret is never shown. */
  username: z.string(),
  actorFormat: XapiActorFormat,
  statements: z.array(XapiStatementKind),
  enabled: z.boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
  /** When the LRS last accepted statements. */
  lastSentAt: DateTime.nullable(),
  /** The first failure since the LRS last accepted statements (null: not failing). */
  failingSince: DateTime.nullable(),
  /** Events waiting to be sent, sent, and given up on. */
  counts: z.object({ pending: z.number().int(), sent: z.number().int(), failed: z.number().int() }),
});
entities.add(XapiConnection, { id: 'XapiConnection' });
export type XapiConnection = z.infer<typeof XapiConnection>;

export const ConnectXapiInput = z.object({
  endpoint: z
    .string({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(2000, 'must be at most 2000 characters')
    .url('must be an address such as https://lrs.example.com/xapi/')
    .describe('The LRS’s statement endpoint, e.g. https://lrs.example.com/xapi/'),
  username: z
    .string({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(500, 'must be at most 500 characters')
    .describe('The LRS key (HTTP Basic user name)'),
  secret: z
    .string()
    .min(1, 'Required')
    .max(500, 'must be at most 500 characters')
    .optional()
    .describe('The LRS secret (HTTP Basic password): required to connect, left out to keep the current one'),
  actorFormat: XapiActorFormat.default('account').describe(
    'account: a stable pseudonym per learner (default); mbox: the learner’s e-mail address',
  ),
  statements: z
    .array(XapiStatementKind)
    .max(XAPI_STATEMENT_KINDS.length)
    .default([...XAPI_STATEMENT_KINDS])
    .describe('What is sent (all of them by default)'),
  enabled: z.boolean().default(true).describe('false: nothing is sent until it is enabled again'),
});
entities.add(ConnectXapiInput, { id: 'ConnectXapiInput' });
export type ConnectXapiInput = z.input<typeof ConnectXapiInput>;

export const XAPI_QUEUE_STATUSES = ['PENDING', 'SENDING', 'SENT', 'FAILED'] as const;
export const XapiQueueStatus = z.enum(XAPI_QUEUE_STATUSES, {
  error: `must be one of ${XAPI_QUEUE_STATUSES.join(', ')}`,
});
entities.add(XapiQueueStatus, { id: 'XapiQueueStatus' });

/** One event's statements on their way to the LRS. */
export const XapiQueueEntry = z.object({
  _id: Id,
  eventId: Id,
  eventType: z.string(),
  status: XapiQueueStatus,
  attempts: z.number().int(),
  createdAt: DateTime,
  lastAttemptAt: DateTime.nullable(),
  nextAttemptAt: DateTime.nullable(),
  sentAt: DateTime.nullable(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  errorParts: z
    .array(CodedWords)
    .nullable()
    .describe(
      '`error` by code, sentence by sentence (`deliveries.error.…`, `xapi.result.…`; their words joined by a space are `error`); null with no error, or for an error older than its codes.',
    ),
  /** The statements' ids (empty until first sent): a re-send is the same statements. */
  statementIds: z.array(z.string()),
});
entities.add(XapiQueueEntry, { id: 'XapiQueueEntry' });
export type XapiQueueEntry = z.infer<typeof XapiQueueEntry>;

/** What the LRS answered a test statement. */
export const XapiTestResult = z.object({
  ok: z.boolean(),
  status: z.number().int().nullable(),
  ms: z.number().int(),
  statementId: z.string(),
  message: z.string(),
  /** `message` by its code, its message key, and the values it names (decision 048). */
  code: z.enum(LRS_CODES),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
});
entities.add(XapiTestResult, { id: 'XapiTestResult' });
