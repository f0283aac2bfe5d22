/**
 * The environment's settings as a schema (config.ts reads it at boot): each setting's type, default and
 * limits, and the rules between settings, every wrong one with its own message.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { BACK_DAYS } from './db/partitions';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => ['true', '1', 'yes'].includes(v));
const port = z.coerce
  .number({ error: 'must be a port number' })
  .int()
  .min(0)
  .max(65535, 'must be a port number');
const seconds = z.coerce.number({ error: 'must be a number of seconds' }).int().positive('must be positive');
const perMinute = z.coerce.number({ error: 'must be a number of requests per minute' }).int().positive();
/** `192.0.2.53`, `192.0.2.53:5353`, `2001:db8::53` or `[2001:db8::53]:5353`: what dns.setServers takes. */
const isDnsServer = (s: string) => {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(s);
  const host = m?.[1] ?? s;
  const portOk = !m?.[2] || (Number(m[2]) > 0 && Number(m[2]) < 65536);
  return isIP(host) !== 0 && portOk;
};
const SEALING_KEY_MESSAGE = 'must be 32 random bytes in base64 (openssl rand -base64 32)';
const sealingKey = z
  .string()
  .refine((v) => /^[A-Za-z0-9+/]{43}=$/.test(v.trim()) && Buffer.from(v.trim(), 'base64').length === 32, {
    message: SEALING_KEY_MESSAGE,
  });

export const Env = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: port.default(8080),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    PUBLIC_URL: z.url({ error: 'must be a URL such as https://waymark.example.com' }).optional(),
    /** Extra origins allowed to call the API from a browser (comma separated), for partner sites. */
    CORS_ORIGINS: z.string().default(''),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /**
     * A streaming replica of DATABASE_URL for the reads that may be a little behind (the mentor's reports
     * and exports, the public catalogue); decision 035.
     */
    DATABASE_REPLICA_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /** How far behind the primary (ms) the replica may be and still be read; past it the primary is read. */
    DATABASE_REPLICA_MAX_LAG_MS: z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(100, 'must be at least 100')
      .max(600_000, 'must be at most 600000 (10 minutes)')
      .default(5000),
    /**
     * Days the raw heartbeats (and the erased stretches that guard them) are kept before their day's
     * partition is dropped; the rollups and spans keep the time. At least 31: a late heartbeat may be 30
     * days old.
     */
    ACTIVITY_RETENTION_DAYS: z.coerce
      .number({ error: 'must be a number of days' })
      .int('must be a whole number of days')
      .min(BACK_DAYS, `must be at least ${BACK_DAYS} (a late heartbeat may be ${BACK_DAYS - 1} days old)`)
      .max(3650, 'must be at most 3650')
      .default(BACK_DAYS),
    /** Server processes started by this one on its port (Node's cluster), each with its own pool. */
    WEB_CONCURRENCY: z.coerce
      .number({ error: 'must be a number of processes' })
      .int('must be a whole number of processes')
      .min(1, 'must be at least 1')
      .max(64, 'must be at most 64')
      .default(1),
    FIREBASE_PROJECT_ID: z
      .string()
      .regex(/^[a-z0-9-]{4,40}$/, 'must be a Firebase project id (lower-case letters, digits, hyphens)')
      .default('demo-waymark'),
    FIREBASE_API_KEY: z.string().min(1).default('demo-api-key'),
    FIREBASE_AUTH_DOMAIN: z.string().optional(),
    FIREBASE_AUTH_EMULATOR_HOST: z
      .string()
      .regex(/^[\w.-]+:\d+$/, 'must be host:port of the Auth emulator, e.g. 127.0.0.1:9099')
      .optional(),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    ACCESS_TOKEN_TTL: seconds.default(15 * 60),
    REFRESH_TOKEN_TTL: seconds.default(30 * 24 * 3600),
    RATE_LIMIT_AUTH: perMinute.default(60),
    RATE_LIMIT_STRICT: perMinute.default(20),
    /** Unknown paths (404s, portal pages aside) per minute and address before 429: a scanner's burst stops. */
    RATE_LIMIT_NOT_FOUND: perMinute.default(60),
    /** Event-loop delay (ms) past which the server sheds requests with 503 and Retry-After; 0 never sheds. */
    SHED_EVENT_LOOP_DELAY_MS: z.coerce
      .number()
      .int('must be a whole number of milliseconds')
      .min(0, 'must be 0 (never shed) or more')
      .max(60_000, 'must be at most 60000')
      .default(2000),
    /**
     * Wait (ms) for a database connection past which the server sheds requests with 503 and Retry-After:
     * the oldest request still waiting for one of its pool's connections; 0 never sheds. Default 1000 (0 in
     * tests, which set it when they mean it).
     */
    /**
     * Time (ms) work may queue before it is served — a connection or a request waiting for the event loop's
     * turn, a request waiting between its first hook and its handler — past which the server sheds requests
     * with 503 and Retry-After (server/http/queueing.ts); 0 never sheds. Default 500 (0 in tests, which set
     * it when they mean it).
     */
    SHED_QUEUE_MS: z.coerce
      .number()
      .int('must be a whole number of milliseconds')
      .min(0, 'must be 0 (never shed) or more')
      .max(60_000, 'must be at most 60000')
      .optional(),
    SHED_POOL_WAIT_MS: z.coerce
      .number()
      .int('must be a whole number of milliseconds')
      .min(0, 'must be 0 (never shed) or more')
      .max(60_000, 'must be at most 60000')
      .optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** In production without SMTP_URL: keep mail in the outbox table, undelivered, instead of refusing to start. */
    MAIL_OUTBOX_ONLY: bool.default(false),
    MAIL_FROM: z.string().default('Waymark <no-reply@waymark.local>'),
    /** Retries of a failed SMTP delivery, and the wait before the first (each later one waits twice as long). */
    MAIL_RETRY_LIMIT: z.coerce
      .number({ error: 'must be a number of retries' })
      .int()
      .min(0)
      .max(20)
      .default(6),
    MAIL_RETRY_DELAY: seconds.max(86400, 'must be at most 86400 seconds').default(60),
    /** Run scheduled and queued jobs in this process (false for processes that only answer requests). */
    JOB_WORKERS: bool.default(true),
    SUPPORT_EMAIL: z.email({ error: 'must be an e-mail address' }).default('support@waymark.local'),
    CHROME_STORE_URL: z
      .url()
      .default('https://chromewebstore.google.com/detail/waymark/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'),
    FIREFOX_STORE_URL: z.url().default('https://addons.mozilla.org/firefox/addon/waymark/'),
    SEED_DEMO: bool.default(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: bool.default(false),
    /** Where the built portal and widgets are served from. */
    STATIC_DIR: z.string().default('./dist'),
    DELETION_GRACE_DAYS: z.coerce.number().int().min(1).default(90),
    /** Hours before a failed test can be taken again (0: at once); see docs/decisions/010. */
    RETAKE_COOLDOWN_HOURS: z.coerce
      .number({ error: 'must be a number of hours' })
      .min(0, 'must be 0 or more hours')
      .max(24 * 30, 'must be at most 720 hours (30 days)')
      .default(24),
    /**
     * Months a subject test's certificate stays valid (empty: no end). Certificates earned from when a server
     * first starts with a value keep it; earlier ones keep theirs (decision 037).
     */
    SUBJECT_TEST_VALIDITY_MONTHS: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce
        .number({ error: 'must be a number of months' })
        .int('must be a whole number of months')
        .min(1, 'must be at least 1 month')
        .max(120, 'must be at most 120 months')
        .optional(),
    ),
    /**
     * Load shedding (issue 15): past this event-loop delay the server answers 503 with Retry-After (the
     * test page's saver waits and sends again); SHED_RETRY_AFTER is the seconds it asks for.
     */
    SHED_RETRY_AFTER: z.coerce.number().int().min(1).max(600).default(10),
    /** Files (award and question images): S3-compatible storage when S3_BUCKET is set, else DATA_DIR/files. */
    S3_ENDPOINT: z.url({ error: 'must be a URL such as https://s3.eu-west-1.amazonaws.com' }).optional(),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
      .optional(),
    S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]{2,30}$/, 'must be a region such as eu-west-1')
      .default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_PUBLIC_URL: z.url({ error: 'must be a URL such as https://cdn.example.com' }).optional(),
    S3_PATH_STYLE: bool.optional(),
    /** Signs local upload URLs; derived from JWT_SECRET when unset. */
    STORAGE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    UPLOAD_URL_TTL: seconds.max(3600, 'must be at most 3600 seconds').default(300),
    /** Payments: Stripe when STRIPE_SECRET_KEY is set (with the webhook secret and the seat price), else the sandbox. */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{8,}$/, "must be the webhook endpoint's signing secret (whsec_…)")
      .optional(),
    STRIPE_PRICE_ID: z
      .string()
      .regex(/^price_[A-Za-z0-9]{4,}$/, 'must be a Stripe price id (price_…)')
      .optional(),
    STRIPE_API_BASE: z
      .url({ error: 'must be a URL such as https://api.stripe.com' })
      .default('https://api.stripe.com'),
    /** Allows the sandbox checkout (free seats for anyone who clicks Pay) when NODE_ENV=production. */
    PAYMENTS_SANDBOX: bool.default(false),
    /**
     * Credentials: the issuer's Ed25519 signing key (a Multikey secretKeyMultibase, `z…`); generated into
     * DATA_DIR outside production when unset; required in production.
     */
    CREDENTIAL_SIGNING_KEY: z
      .string()
      .regex(
        /^z[1-9A-HJ-NP-Za-km-z]{80,100}$/,
        'must be an Ed25519 Multikey secretKeyMultibase (z…); npm run credentials:key makes one',
      )
      .optional(),
    /** Public keys (publicKeyMultibase, comma separated) of earlier signing keys, kept in the DID document. */
    CREDENTIAL_PREVIOUS_KEYS: z.string().default(''),
    /** Public keys taken out of the DID document (a compromised key): credentials it signed no longer verify. */
    CREDENTIAL_WITHDRAWN_KEYS: z.string().default(''),
    /** Whether verifying may fetch other issuers' did:web documents and status lists over HTTPS. */
    CREDENTIALS_FETCH: bool.default(true),
    /** Threads that sign credentials and status lists, beside the event loop (default: the cores less one, 1–4). */
    CREDENTIAL_SIGNERS: z.coerce
      .number({ error: 'must be a number of threads' })
      .int('must be a whole number of threads')
      .min(1, 'must be at least 1')
      .max(32, 'must be at most 32')
      .optional(),
    /** E-mail addresses of platform staff, who may revoke any award (comma separated). */
    PLATFORM_STAFF_EMAILS: z.string().default(''),
    /**
     * Seals the secrets Waymark keeps for others (webhook and LRS secrets, LTI private keys): 32 bytes,
     * base64. Generated into DATA_DIR outside production when unset; required in production.
     */
    INTEGRATIONS_SECRET_KEY: sealingKey.optional(),
    /** Earlier sealing keys (comma separated): what they sealed still opens, and is sealed again when written. */
    INTEGRATIONS_PREVIOUS_SECRET_KEYS: z.string().default(''),
    /**
     * The DNS servers that check a domain's TXT record (single sign-on's domain proof), comma separated,
     * each an IP address with an optional port (`192.0.2.53`, `192.0.2.53:5353`, `[2001:db8::53]:53`).
     * Unset: the system's resolvers.
     */
    DNS_SERVERS: z
      .string()
      .default('')
      .refine(
        (v) =>
          v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
            .every(isDnsServer),
        { error: 'must be IP addresses with optional ports, comma separated (e.g. 1.1.1.1,8.8.8.8:53)' },
      ),
    /** Days the activity log keeps an entry: at least a year. */
    AUDIT_RETENTION_DAYS: z.coerce
      .number({ error: 'must be a number of days' })
      .int('must be a whole number of days')
      .min(365, 'must be at least 365 days: the activity log is kept at least a year')
      .max(36_500, 'must be at most 36500 days')
      .default(400),
    /** Days Waymark's LTI signing key is used before a new one replaces it (the old stays published a day). */
    LTI_KEY_ROTATION_DAYS: z.coerce
      .number({ error: 'must be a number of days' })
      .int('must be a whole number of days')
      .min(1, 'must be at least 1 day')
      .max(3650, 'must be at most 3650 days')
      .default(90),
    /**
     * Development only: LTI platforms on this machine over plain http (a platform on 127.0.0.1); ignored in
     * production, where every platform address must be public https (decision 030).
     */
    LTI_DEV_LOOPBACK: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('false')
      .transform((v) => v === 'true'),
    /** Requests per minute one API key may make, counted across every process. */
    RATE_LIMIT_API_KEY: perMinute.max(100_000, 'must be at most 100000').default(600),
    /**
     * Requests per minute one SCIM token may make, counted across every process: 3000 (50 a second) is twice
     * the 25 a second Microsoft asks a SCIM endpoint to take and more than a 10,000-user push in 5 minutes.
     */
    RATE_LIMIT_SCIM_TOKEN: perMinute.max(100_000, 'must be at most 100000').default(3000),
    /**
     * Requests per minute to /scim/v2 from one client address, counted before the token is checked: high,
     * since a directory's pushes for many organisations leave from a few shared addresses.
     */
    RATE_LIMIT_SCIM_ADDRESS: perMinute.max(1_000_000, 'must be at most 1000000').default(12_000),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_REPLICA_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_REPLICA_URL'],
        message: 'needs DATABASE_URL: a replica follows a PostgreSQL server (PGlite has none)',
      });
    }
    if (env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEB_CONCURRENCY'],
        message:
          'must be 1 on the embedded database (PGlite is one process): set DATABASE_URL to a PostgreSQL server to run more',
      });
    }
    if (env.FIREBASE_PROJECT_ID.startsWith('demo-') && !env.FIREBASE_AUTH_EMULATOR_HOST) {
      ctx.addIssue({
        code: 'custom',
        path: ['FIREBASE_AUTH_EMULATOR_HOST'],
        message: `is required with the demo project ${env.FIREBASE_PROJECT_ID}: start the Auth emulator (npm start does) or set FIREBASE_PROJECT_ID to a real project`,
      });
    }
    if (env.S3_BUCKET) {
      for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required with S3_BUCKET' });
      }
    }
    const stripeKeys = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID'] as const;
    if (stripeKeys.some((k) => env[k])) {
      for (const key of stripeKeys) {
        if (!env[key]) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `is required with ${stripeKeys.filter((k) => env[k]).join(', ')}`,
          });
        }
      }
    } else if (env.NODE_ENV === 'production' && !env.PAYMENTS_SANDBOX) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message:
          'is required in production (with STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID); set PAYMENTS_SANDBOX=true to run the sandbox checkout instead',
      });
    }
    if (env.NODE_ENV === 'production' && !env.SMTP_URL && !env.MAIL_OUTBOX_ONLY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message:
          'is required in production: without it invitations, test links and contact messages are not delivered; set MAIL_OUTBOX_ONLY=true to keep them undelivered in the database (table outbox) instead',
      });
    }
    if (env.NODE_ENV === 'production' && !env.CREDENTIAL_SIGNING_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['CREDENTIAL_SIGNING_KEY'],
        message: 'is required in production: npm run credentials:key prints a new key and what to set',
      });
    }
    const multibaseList = /^(z6Mk[1-9A-HJ-NP-Za-km-z]{40,50})?(\s*,\s*z6Mk[1-9A-HJ-NP-Za-km-z]{40,50})*$/;
    for (const key of ['CREDENTIAL_PREVIOUS_KEYS', 'CREDENTIAL_WITHDRAWN_KEYS'] as const) {
      if (!multibaseList.test(env[key].trim())) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'must be Ed25519 public keys (publicKeyMultibase, z6Mk…), comma separated',
        });
      }
    }
    if (env.NODE_ENV === 'production' && !env.INTEGRATIONS_SECRET_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['INTEGRATIONS_SECRET_KEY'],
        message: `is required in production: it seals the secrets integrations keep; ${SEALING_KEY_MESSAGE}`,
      });
    }
    const previous = list(env.INTEGRATIONS_PREVIOUS_SECRET_KEYS);
    if (previous.some((k) => !sealingKey.safeParse(k).success)) {
      ctx.addIssue({
        code: 'custom',
        path: ['INTEGRATIONS_PREVIOUS_SECRET_KEYS'],
        message: `each key ${SEALING_KEY_MESSAGE}, comma separated`,
      });
    }
    if (env.NODE_ENV === 'production' && !env.JWT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required in production' });
    }
  });

export const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
