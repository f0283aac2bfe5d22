/**
 * The database schema (Drizzle, PostgreSQL). Migrations are generated from this file by drizzle-kit
 * (`npm run db:generate`), committed under server/db/migrations, and applied at start.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { LOCALES } from '../../shared/i18n/locales';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firebaseUid: text('firebase_uid').notNull(),
    email: text('email').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    signInProvider: text('sign_in_provider'),
    role: text('role', { enum: ['USER', 'TENANT'] }).notNull(),
    name: text('name'),
    picture: text('picture'),
    isProfileCompleted: boolean('is_profile_completed').notNull().default(false),
    isFirstLogin: boolean('is_first_login').notNull().default(true),
    phoneNumber: text('phone_number'),
    countrycode: text('countrycode'),
    phoneCountry: text('phone_country'),
    linkedIn: text('linked_in'),
    iam: text('iam', { enum: ['PARENT', 'MENTOR', 'MANAGER'] }),
    tShirtSize: text('t_shirt_size', { enum: ['S', 'M', 'L', 'XL'] }),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    country: text('country'),
    state: text('state'),
    city: text('city'),
    pincode: text('pincode'),
    /** The language the person reads Waymark in: its pages, its mail, its award images (decision 040). */
    language: text('language', { enum: LOCALES }).notNull().default('en'),
    /** How many times the name was changed after it was first set. One change is allowed. */
    nameChanges: integer('name_changes').notNull().default(0),
    isDeleted: boolean('is_deleted').notNull().default(false),
    deleteReason: text('delete_reason'),
    deletionRequestedAt: timestamp('deletion_requested_at', { withTimezone: true, mode: 'date' }),
    /** The tenant whose invitation this learner accepted, if any. */
    invitedByTenantId: uuid('invited_by_tenant_id'),
    /**
     * A sandbox's demo learner: the tenant whose sandbox it is (server/sandbox/, decision 041). Such an
     * account never signs in, holds no seat and is never billed; it goes with its tenant.
     */
    sandboxOf: uuid('sandbox_of').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_firebase_uid_key').on(t.firebaseUid),
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_phone_number_key').on(t.countrycode, t.phoneNumber),
    index('users_deletion_idx').on(t.deletionRequestedAt).where(sql`${t.deletionRequestedAt} is not null`),
    index('users_sandbox_idx').on(t.sandboxOf).where(sql`${t.sandboxOf} is not null`),
  ],
);

/**
 * A session: one sign-in on one device, and every refresh token rotated from it (its family). Access tokens
 * name it (`fam`); revoking it — logout, reuse of a rotated refresh token, account deletion — stops its
 * refresh tokens and its access tokens at once, because every authenticated request reads `revoked_at`.
 * It is also the row a refresh locks, so simultaneous refreshes of one session run one after another.
 */
export const tokenFamilies = pgTable(
  'token_families',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    device: text('device', { enum: ['WEB_APP', 'CHROME_EXTENSION', 'FIREFOX_EXTENSION', 'CLI'] }).notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /**
     * A session opened by an LTI launch (decision 044): the tenant it is limited to. Such a session makes only
     * the calls declared `lti` (a learner's, within that tenant); null for every other session.
     */
    ltiTenantId: uuid('lti_tenant_id'),
  },
  (t) => [index('token_families_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** All tokens descended from one sign-in share a family; reuse of a rotated token revokes the family. */
    familyId: uuid('family_id').notNull(),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    device: text('device', { enum: ['WEB_APP', 'CHROME_EXTENSION', 'FIREFOX_EXTENSION', 'CLI'] }).notNull(),
    deviceInfo: jsonb('device_info'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true, mode: 'date' }),
    /**
     * Set with the family's revocation (token_families.revoked_at is what counts); kept so a process of the
     * release before token_families, during a rolling upgrade, still sees revoked tokens as revoked.
     */
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

export const cliLogins = pgTable(
  'cli_logins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceCodeHash: text('device_code_hash').notNull(),
    userCode: text('user_code').notNull(),
    deviceInfo: text('device_info'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }),
    collectedAt: timestamp('collected_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('cli_logins_device_code_key').on(t.deviceCodeHash),
    uniqueIndex('cli_logins_user_code_key').on(t.userCode),
  ],
);

export const subjects = pgTable(
  'subjects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('subjects_name_key').on(t.name)],
);

export const topics = pgTable(
  'topics',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subjectId: uuid('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('topics_subject_name_key').on(t.subjectId, t.name)],
);

export const languages = pgTable(
  'languages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('languages_name_key').on(t.name)],
);

/** A learner seat of a tenant. */
export const tenantUsers = pgTable(
  'tenant_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    learnerId: uuid('learner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    isDisabled: boolean('is_disabled').notNull().default(false),
    /** A removed seat of a subscribed tenant stays until the end of the billing cycle. */
    accessUntil: timestamp('access_until', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tenant_users_pair_key').on(t.tenantId, t.learnerId),
    index('tenant_users_learner_idx').on(t.learnerId),
  ],
);

/**
 * Mail the product sends; the local mailbox reads it, the SMTP adapter delivers it. With SMTP a row is
 * QUEUED with a delivery job in the same transaction; the job claims it (SENDING, claimed_at) before
 * talking to the server, so no two workers deliver one message.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** Where replies go (the contact form's sender). */
    replyTo: text('reply_to'),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['QUEUED', 'SENDING', 'SENT', 'FAILED'] })
      .notNull()
      .default('QUEUED'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** When a delivery job last claimed the message (a claim older than the lease is in doubt). */
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_status_idx').on(t.status, t.createdAt)],
);

/**
 * The identity provider's mails (the Auth emulator's verification, sign-in and reset links) as the local
 * mailbox first listed them: the emulator keeps no time, so the first listing dates each one.
 */
export const identityMail = pgTable('identity_mail', {
  oobCode: text('oob_code').primaryKey(),
  email: text('email').notNull(),
  requestType: text('request_type').notNull(),
  firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Singleton rows the server keeps for itself (seed version, …). */
export const systemState = pgTable(
  'system_state',
  {
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.key] })],
);

/**
 * Rate-limit counts, shared by every server process (fixed windows per route and client address; an
 * unlogged table on PostgreSQL: counts need not survive a crash). Expired rows are swept by a job.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').notNull(),
    count: integer('count').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key] }), index('rate_limit_counters_window_idx').on(t.windowEndsAt)],
);

/**
 * The server processes running on this database, each refreshing its row while it runs. A process that
 * keeps state in its own DATA_DIR (local files, a generated signing secret) refuses to start beside a live
 * process whose DATA_DIR is another one (server/system/processes.ts).
 */
export const serverProcesses = pgTable('server_processes', {
  id: uuid('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  /** Where its files live: `local:{id of DATA_DIR}` or `s3:{endpoint}/{bucket}`. */
  files: text('files').notNull(),
  /** A fingerprint of the secret that signs tokens and upload URLs (never the secret itself). */
  signing: text('signing').notNull(),
  /** Whether that secret came from JWT_SECRET or was generated into DATA_DIR. */
  signingFrom: text('signing_from', { enum: ['env', 'generated'] }).notNull(),
  /** `{env|generated}:{fingerprint}` of the key sealing integrations' secrets (null: an older release). */
  sealing: text('sealing'),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
