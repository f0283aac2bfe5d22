import { z } from 'zod';
import { envelope, errors } from '../schemas/common';
import { entities } from '../schemas/entities';
import { defineCall, defineRouter } from './define';

export const health = defineCall({
  method: 'GET',
  path: '/health',
  summary:
    'Answers 200 when the server is ready (database reachable); with a read replica set, whether this process reads the reports from it.',
  tags: ['system'],
  access: 'public',
  responses: {
    200: z.object({
      status: z.literal('ok'),
      uptime: z.number(),
      /**
       * The read replica (DATABASE_REPLICA_URL), when one is set: `in use`, or why the reports read the
       * primary instead (`lagging` past maxLagMs, `down`, `not a standby`; `starting` until the first check).
       */
      replica: z
        .object({
          state: z.enum(['starting', 'in use', 'lagging', 'down', 'not a standby']),
          lagMs: z.number().nullable(),
          maxLagMs: z.number(),
          checkedAt: z.string().nullable(),
        })
        .optional(),
    }),
    503: errors[400],
  },
});

export const PublicConfig = z.object({
  publicUrl: z.string(),
  firebase: z.object({
    apiKey: z.string(),
    authDomain: z.string(),
    projectId: z.string(),
    /** host:port of the Auth emulator, when the product runs on it. */
    emulatorHost: z.string().nullable(),
  }),
  extension: z.object({
    chromeStoreUrl: z.string(),
    firefoxStoreUrl: z.string(),
  }),
  /** Whether the local mailbox page is on (no SMTP server configured). */
  mailbox: z.boolean(),
});
entities.add(PublicConfig, { id: 'PublicConfig' });
export type PublicConfig = z.infer<typeof PublicConfig>;

export const config = defineCall({
  method: 'GET',
  path: '/config',
  summary: 'What the portal, widgets, CLI and extension need to know about this server.',
  tags: ['system'],
  access: 'public',
  responses: { 200: envelope(PublicConfig) },
});

export const MailboxEntry = z.object({
  _id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  createdAt: z.string(),
  source: z.enum(['outbox', 'identity']),
  link: z.string().nullable(),
});
entities.add(MailboxEntry, { id: 'MailboxEntry' });
export const mailbox = defineCall({
  method: 'GET',
  path: '/dev/mailbox',
  summary:
    "The local mailbox: mail the product would have sent, and the identity emulator's verification links. Only without SMTP.",
  tags: ['system'],
  access: 'public',
  query: z.object({ to: z.string().max(254).optional() }),
  responses: { 200: envelope(z.array(MailboxEntry)), ...errors },
});

/** Every call of this module, served by server/system/routes.ts. */
export const systemRouter = defineRouter({
  health,
  config,
  mailbox,
});
