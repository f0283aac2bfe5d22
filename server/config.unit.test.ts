/** Mail settings at boot: a production server says where mail goes, and the local mailbox is development only. */
import { describe, expect, it } from 'vitest';
import { configProblems, loadConfig } from './config';
import { TEST_SIGNING_KEY } from './credentials/test-keys';

const base = {
  NODE_ENV: 'development',
  FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
  JWT_SECRET: 'x'.repeat(40),
  DATA_DIR: '.tmp/config-test',
};
const production = {
  ...base,
  NODE_ENV: 'production',
  PAYMENTS_SANDBOX: 'true',
  CREDENTIAL_SIGNING_KEY: TEST_SIGNING_KEY,
  INTEGRATIONS_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
};
const problems = configProblems;

describe('where mail goes', () => {
  it('refuses to start in production without SMTP_URL, saying what is not delivered and how to accept it', () => {
    expect(problems(production)).toEqual([
      'SMTP_URL is required in production: without it invitations, test links and contact messages are not delivered; set MAIL_OUTBOX_ONLY=true to keep them undelivered in the database (table outbox) instead',
    ]);
    expect(problems({ ...production, SMTP_URL: 'smtps://user:pass@smtp.example.com:465' })).toEqual([]);
    const outboxOnly = loadConfig({ ...production, MAIL_OUTBOX_ONLY: 'true' });
    expect(outboxOnly.smtpUrl).toBeUndefined();
    expect(outboxOnly.devMailbox).toBe(false);
  });

  it('opens the local mailbox only in the development setup: a demo project, not production, no SMTP', () => {
    expect(loadConfig(base).devMailbox).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).devMailbox).toBe(true);
    expect(loadConfig({ ...production, MAIL_OUTBOX_ONLY: 'true' }).devMailbox).toBe(false);
    expect(loadConfig({ ...base, SMTP_URL: 'smtp://127.0.0.1:2525' }).devMailbox).toBe(false);
    expect(
      loadConfig({ ...base, FIREBASE_PROJECT_ID: 'waymark-live', FIREBASE_AUTH_EMULATOR_HOST: '' })
        .devMailbox,
    ).toBe(false);
  });
});

describe('WEB_CONCURRENCY', () => {
  const pg = { ...base, DATABASE_URL: 'postgres://waymark@127.0.0.1:5432/waymark' };
  it('runs one process unless told otherwise, and as many as asked on PostgreSQL', () => {
    expect(loadConfig(pg).processes).toBe(1);
    expect(loadConfig({ ...pg, WEB_CONCURRENCY: '4' }).processes).toBe(4);
  });

  it('refuses more than one process on the embedded database, saying what to set', () => {
    expect(problems({ ...base, WEB_CONCURRENCY: '2' })).toEqual([
      'WEB_CONCURRENCY must be 1 on the embedded database (PGlite is one process): set DATABASE_URL to a PostgreSQL server to run more',
    ]);
    expect(problems({ ...base, WEB_CONCURRENCY: '1' })).toEqual([]);
  });

  it('names the setting when it is not a whole number of processes from 1 to 64', () => {
    expect(problems({ ...pg, WEB_CONCURRENCY: 'two' })).toEqual([
      'WEB_CONCURRENCY must be a number of processes',
    ]);
    expect(problems({ ...pg, WEB_CONCURRENCY: '1.5' })).toEqual([
      'WEB_CONCURRENCY must be a whole number of processes',
    ]);
    expect(problems({ ...pg, WEB_CONCURRENCY: '0' })).toEqual(['WEB_CONCURRENCY must be at least 1']);
    expect(problems({ ...pg, WEB_CONCURRENCY: '65' })).toEqual(['WEB_CONCURRENCY must be at most 64']);
  });
});

describe('the read replica and the raw activity retention (decision 035)', () => {
  const pg = { ...base, DATABASE_URL: 'postgres://waymark@127.0.0.1:5432/waymark' };
  it('reads no replica unless one is set, and bounds its lag at 5 s unless told otherwise', () => {
    expect(loadConfig(pg).replica).toBeNull();
    expect(
      loadConfig({ ...pg, DATABASE_REPLICA_URL: 'postgres://waymark@10.0.0.2:5432/waymark' }).replica,
    ).toEqual({
      url: 'postgres://waymark@10.0.0.2:5432/waymark',
      maxLagMs: 5000,
    });
  });

  it('refuses a replica without a primary, or a lag bound that is not one, naming the setting', () => {
    expect(problems({ ...base, DATABASE_REPLICA_URL: 'postgres://waymark@10.0.0.2/waymark' })).toEqual([
      'DATABASE_REPLICA_URL needs DATABASE_URL: a replica follows a PostgreSQL server (PGlite has none)',
    ]);
    expect(problems({ ...pg, DATABASE_REPLICA_URL: 'mysql://x' })).toEqual([
      'DATABASE_REPLICA_URL must be a postgres:// or postgresql:// URL',
    ]);
    expect(problems({ ...pg, DATABASE_REPLICA_MAX_LAG_MS: '50' })).toEqual([
      'DATABASE_REPLICA_MAX_LAG_MS must be at least 100',
    ]);
  });

  it('keeps raw activity 31 days by default, and never less than a late heartbeat needs', () => {
    expect(loadConfig(base).activityRetentionDays).toBe(31);
    expect(loadConfig({ ...base, ACTIVITY_RETENTION_DAYS: '90' }).activityRetentionDays).toBe(90);
    expect(problems({ ...base, ACTIVITY_RETENTION_DAYS: '30' })).toEqual([
      'ACTIVITY_RETENTION_DAYS must be at least 31 (a late heartbeat may be 30 days old)',
    ]);
  });
});

describe('the integrations: sealing key and activity log retention', () => {
  it('requires INTEGRATIONS_SECRET_KEY in production, and checks it is 32 bytes of base64', () => {
    const { INTEGRATIONS_SECRET_KEY: _, ...without } = production;
    expect(problems({ ...without, MAIL_OUTBOX_ONLY: 'true' })).toEqual([
      'INTEGRATIONS_SECRET_KEY is required in production: it seals the secrets integrations keep; must be 32 random bytes in base64 (openssl rand -base64 32)',
    ]);
    expect(problems({ ...base, INTEGRATIONS_SECRET_KEY: Buffer.alloc(16).toString('base64') })).toEqual([
      'INTEGRATIONS_SECRET_KEY must be 32 random bytes in base64 (openssl rand -base64 32)',
    ]);
    expect(problems({ ...base, INTEGRATIONS_PREVIOUS_SECRET_KEYS: 'nope' })).toEqual([
      'INTEGRATIONS_PREVIOUS_SECRET_KEYS each key must be 32 random bytes in base64 (openssl rand -base64 32), comma separated',
    ]);
    const key = Buffer.alloc(32, 9).toString('base64');
    const config = loadConfig({
      ...base,
      INTEGRATIONS_SECRET_KEY: key,
      INTEGRATIONS_PREVIOUS_SECRET_KEYS: key,
    });
    expect(config.integrations.sealingKey).toEqual(Buffer.alloc(32, 9));
    expect(config.integrations.previousSealingKeys).toEqual([Buffer.alloc(32, 9)]);
    expect(config.integrations.sealingKeyGenerated).toBe(false);
  });

  it('generates the sealing key into DATA_DIR outside production, once: every process reads the same', () => {
    const dir = `.tmp/config-test-sealing-${process.pid}-${Date.now()}`;
    const first = loadConfig({ ...base, DATA_DIR: dir });
    const second = loadConfig({ ...base, DATA_DIR: dir });
    expect(first.integrations.sealingKey).toHaveLength(32);
    expect(second.integrations.sealingKey).toEqual(first.integrations.sealingKey);
    expect(first.integrations.sealingKeyGenerated).toBe(true);
  });

  it('keeps activity log entries at least a year: 400 days unless told, never fewer than 365', () => {
    expect(loadConfig(base).integrations.auditRetentionDays).toBe(400);
    expect(loadConfig({ ...base, AUDIT_RETENTION_DAYS: '730' }).integrations.auditRetentionDays).toBe(730);
    expect(problems({ ...base, AUDIT_RETENTION_DAYS: '90' })).toEqual([
      'AUDIT_RETENTION_DAYS must be at least 365 days: the activity log is kept at least a year',
    ]);
  });

  it('reads the DNS servers of the domain proof: IP addresses with optional ports, the system’s when unset', () => {
    expect(loadConfig(base).integrations.dnsServers).toEqual([]);
    expect(
      loadConfig({ ...base, DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[2001:db8::53]:53,2001:db8::54' })
        .integrations.dnsServers,
    ).toEqual(['1.1.1.1', '127.0.0.1:5353', '[2001:db8::53]:53', '2001:db8::54']);
    expect(problems({ ...base, DNS_SERVERS: 'dns.example.com' })).toEqual([
      'DNS_SERVERS must be IP addresses with optional ports, comma separated (e.g. 1.1.1.1,8.8.8.8:53)',
    ]);
  });
});
