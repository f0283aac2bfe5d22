/**
 * Settings come from the environment and are validated at boot; each wrong one gets its own message.
 * Secrets are never in the repository: JWT_SECRET comes from the environment, and only outside production
 * is one generated and kept in DATA_DIR when it is missing.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { Env, list } from './config-env';
import { defaultSigners } from './credentials/signers';
import { createdOnce } from './lib/created-once';

export type Config = ReturnType<typeof toConfig>;
type Settings = z.infer<typeof Env>;

function toConfig(env: Settings, jwtSecret: string, sealing: string) {
  const dataDir = resolve(env.DATA_DIR);
  const publicUrl = (
    env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${env.PORT}`
  ).replace(/\/$/, '');
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    publicUrl,
    corsOrigins: [
      new URL(publicUrl).origin,
      ...env.CORS_ORIGINS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ],
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    /** The read replica and how far behind it may be read (decision 035). */
    replica: env.DATABASE_REPLICA_URL
      ? { url: env.DATABASE_REPLICA_URL, maxLagMs: env.DATABASE_REPLICA_MAX_LAG_MS }
      : null,
    /** Days the raw activity (heartbeats, erasures) is kept: whole day partitions dropped past it. */
    activityRetentionDays: env.ACTIVITY_RETENTION_DAYS,
    /** How many server processes `server/main.ts` runs on the port (WEB_CONCURRENCY). */
    processes: env.WEB_CONCURRENCY,
    pgliteDir: join(dataDir, 'pglite'),
    firebase: {
      projectId: env.FIREBASE_PROJECT_ID,
      apiKey: env.FIREBASE_API_KEY,
      authDomain: env.FIREBASE_AUTH_DOMAIN ?? `${env.FIREBASE_PROJECT_ID}.firebaseapp.com`,
      emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST ?? null,
    },
    jwtSecret,
    /** Whether the signing secret was generated into DATA_DIR (no JWT_SECRET): state of this DATA_DIR. */
    jwtSecretGenerated: !env.JWT_SECRET,
    accessTokenTtl: env.ACCESS_TOKEN_TTL,
    refreshTokenTtl: env.REFRESH_TOKEN_TTL,
    rateLimit: {
      auth: env.RATE_LIMIT_AUTH,
      strict: env.RATE_LIMIT_STRICT,
      notFound: env.RATE_LIMIT_NOT_FOUND,
      apiKey: env.RATE_LIMIT_API_KEY,
      scimToken: env.RATE_LIMIT_SCIM_TOKEN,
      scimAddress: env.RATE_LIMIT_SCIM_ADDRESS,
    },
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    /**
     * The local mailbox (GET /api/dev/mailbox, the /mailbox page) exists only in the embedded development
     * setup — a demo-* project on the Auth emulator, not production, no SMTP — and answers only requests
     * made on this machine (server/http/loopback.ts).
     */
    devMailbox: env.FIREBASE_PROJECT_ID.startsWith('demo-') && env.NODE_ENV !== 'production' && !env.SMTP_URL,
    mailRetry: { limit: env.MAIL_RETRY_LIMIT, delaySeconds: env.MAIL_RETRY_DELAY },
    jobs: { work: env.JOB_WORKERS },
    supportEmail: env.SUPPORT_EMAIL,
    extension: { chromeStoreUrl: env.CHROME_STORE_URL, firefoxStoreUrl: env.FIREFOX_STORE_URL },
    seedDemo: env.SEED_DEMO,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    staticDir: resolve(env.STATIC_DIR),
    deletionGraceDays: env.DELETION_GRACE_DAYS,
    /** How long a failed test waits before a retake, in milliseconds. */
    retakeCooldownMs: Math.round(env.RETAKE_COOLDOWN_HOURS * 3600_000),
    /** Months a subject test's certificate stays valid; null: no end (decision 037). */
    subjectTestValidityMonths: env.SUBJECT_TEST_VALIDITY_MONTHS ?? null,
    /** When the server sheds load with 503 + Retry-After. */
    shed: {
      // 0 never sheds; nor does the test setup, where the machine's load is not the server's
      eventLoopDelayMs: env.NODE_ENV === 'test' ? 0 : env.SHED_EVENT_LOOP_DELAY_MS,
      // requests queued for the database pool (PostgreSQL): an exam-day server waits there, not on its loop
      poolWaitMs: env.SHED_POOL_WAIT_MS ?? (env.NODE_ENV === 'test' ? 0 : 1000),
      // work queued for the event loop's turn or before its handler: what the loop's mean delay misses
      queueMs: env.SHED_QUEUE_MS ?? (env.NODE_ENV === 'test' ? 0 : 500),
      retryAfterSeconds: env.SHED_RETRY_AFTER,
    },
    payments: paymentsSettings(env, jwtSecret),
    credentials: {
      signingKey: env.CREDENTIAL_SIGNING_KEY ?? null,
      /** Where the keys generated outside production are kept. */
      keyFile: join(dataDir, 'secrets', 'credential-keys.json'),
      previousKeys: list(env.CREDENTIAL_PREVIOUS_KEYS),
      withdrawnKeys: list(env.CREDENTIAL_WITHDRAWN_KEYS),
      fetch: env.CREDENTIALS_FETCH,
      signers: env.CREDENTIAL_SIGNERS ?? defaultSigners(),
      platformStaff: list(env.PLATFORM_STAFF_EMAILS).map((e) => e.toLowerCase()),
    },
    integrations: {
      /** The key that seals secrets integrations keep (32 bytes), and the earlier ones that still open them. */
      sealingKey: Buffer.from(sealing, 'base64'),
      previousSealingKeys: list(env.INTEGRATIONS_PREVIOUS_SECRET_KEYS).map((k) => Buffer.from(k, 'base64')),
      /** Whether the sealing key was generated into DATA_DIR (no INTEGRATIONS_SECRET_KEY). */
      sealingKeyGenerated: !env.INTEGRATIONS_SECRET_KEY,
      auditRetentionDays: env.AUDIT_RETENTION_DAYS,
      /** The DNS servers a domain's TXT record is read from; empty: the system's. */
      dnsServers: list(env.DNS_SERVERS),
    },
    lti: {
      keyRotationDays: env.LTI_KEY_ROTATION_DAYS,
      devLoopback: env.LTI_DEV_LOOPBACK && env.NODE_ENV !== 'production',
    },
    storage: storageSettings(env, dataDir, jwtSecret),
  };
}

/** The payments adapter's settings: Stripe's when all three STRIPE_* are set, and the sandbox's secret. */
function paymentsSettings(env: Settings, jwtSecret: string) {
  return {
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET && env.STRIPE_PRICE_ID
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            priceId: env.STRIPE_PRICE_ID,
            apiBase: env.STRIPE_API_BASE,
          }
        : null,
    /** Signs the sandbox's webhooks. */
    sandboxWebhookSecret: `whsec_${createHmac('sha256', jwtSecret).update('waymark sandbox payment webhooks').digest('base64url')}`,
  };
}

/** Where uploads go (a folder of DATA_DIR, or S3-compatible storage), how their addresses are signed. */
function storageSettings(env: Settings, dataDir: string, jwtSecret: string) {
  return {
    dir: join(dataDir, 'files'),
    secret:
      env.STORAGE_SECRET ??
      createHmac('sha256', jwtSecret).update('waymark storage upload urls').digest('base64url'),
    uploadTtlSeconds: env.UPLOAD_URL_TTL,
    s3: env.S3_BUCKET
      ? {
          endpoint: env.S3_ENDPOINT ?? `https://s3.${env.S3_REGION}.amazonaws.com`,
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
          secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
          publicUrl: env.S3_PUBLIC_URL ?? null,
          pathStyle: env.S3_PATH_STYLE,
        }
      : null,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the settings; throws ConfigError listing every wrong one. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'} ${i.message}`));
  }
  const env = parsed.data;
  const jwtSecret = env.JWT_SECRET ?? localSecret(resolve(env.DATA_DIR));
  const sealing = env.INTEGRATIONS_SECRET_KEY?.trim() ?? localSealingKey(resolve(env.DATA_DIR));
  return toConfig(env, jwtSecret, sealing);
}

/** The problems loadConfig would report for these settings (none when they are valid). */
export function configProblems(source: Record<string, string | undefined>): string[] {
  try {
    loadConfig(source);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

/** Outside production a missing JWT_SECRET is generated once and kept beside the data. */
export function localSecret(dataDir: string): string {
  // every process starting at once on this DATA_DIR signs with the same secret (the first one's)
  return createdOnce(join(dataDir, 'secrets', 'jwt-secret'), () => randomBytes(48).toString('base64url'), {
    dirMode: 0o700,
  }).trim();
}

/** Outside production a missing INTEGRATIONS_SECRET_KEY is generated once and kept beside the data. */
export function localSealingKey(dataDir: string): string {
  // every process starting at once on this DATA_DIR seals with the same key (the first one's)
  return createdOnce(join(dataDir, 'secrets', 'integrations-key'), () => randomBytes(32).toString('base64'), {
    dirMode: 0o700,
  }).trim();
}
