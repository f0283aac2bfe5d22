/**
 * LTI 1.3 Advantage (issue 27; decision 044): the platforms a tenant registered, Waymark's own signing keys,
 * the launches in flight (state and nonce, single use, readable by every process), the resource links and
 * the gradebook columns they carry, the platforms' access tokens, and the score posts (deliveries from the
 * events outbox: one row per event and line item, claimed by one worker at a time).
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../../db/schema';
import { events } from '../core/tables';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A platform (an LMS's client registration) a tenant added: by Dynamic Registration or by hand. One
 * (issuer, client id) belongs to one tenant; its deployments are listed. A paused registration refuses
 * launches and posts nothing.
 */
export const ltiRegistrations = pgTable(
  'lti_registrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    deploymentIds: text('deployment_ids').array().notNull().default(sql`'{}'::text[]`),
    /** The platform's OIDC authorisation endpoint (where login initiation sends the browser). */
    authLoginUrl: text('auth_login_url').notNull(),
    tokenUrl: text('token_url').notNull(),
    jwksUrl: text('jwks_url').notNull(),
    /** The audience of the client assertion when the platform names one (`authorization_server`). */
    authServer: text('auth_server'),
    status: text('status', { enum: ['ACTIVE', 'PAUSED'] })
      .notNull()
      .default('ACTIVE'),
    via: text('via', { enum: ['DYNAMIC', 'MANUAL'] }).notNull(),
    /** Whether the platform's e-mail claims are trusted as verified (the mentor says so). */
    emailsVerified: boolean('emails_verified').notNull().default(false),
    /** Which attempt a later evaluation sends: the best so far, or the latest. */
    attemptPolicy: text('attempt_policy', { enum: ['BEST', 'LATEST'] })
      .notNull()
      .default('LATEST'),
    /** The scopes the platform granted (dynamic registration) or the tool asks for. */
    scopes: text('scopes').array().notNull().default(sql`'{}'::text[]`),
    /** What the platform said of itself and what was registered (shown to the mentor). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When the mentor was last told the seats ran out for a launch (at most once a day). */
    seatNoticeAt: ts('seat_notice_at'),
  },
  (t) => [
    uniqueIndex('lti_registrations_client_key').on(t.issuer, t.clientId),
    index('lti_registrations_tenant_idx').on(t.tenantId),
  ],
);

/**
 * A one-time address a mentor hands a platform for Dynamic Registration: it names the tenant, expires, and
 * is used once.
 */
export const ltiRegistrationInvites = pgTable('lti_registration_invites', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** SHA-256 of the token in the address. */
  tokenHash: text('token_hash').notNull().unique(),
  label: text('label').notNull(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  registrationId: uuid('registration_id').references(() => ltiRegistrations.id, { onDelete: 'set null' }),
});

/**
 * Waymark's own RS256 keys (the tool's key set): the private key sealed, the public one published. One is
 * current (retired_at null, at most one: the partial unique index); a retired key stays published until
 * everything it signed has expired (`published_until`).
 */
export const ltiToolKeys = pgTable(
  'lti_tool_keys',
  {
    kid: text('kid').primaryKey(),
    privateKey: text('private_key').notNull(),
    publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    retiredAt: ts('retired_at'),
    publishedUntil: ts('published_until'),
  },
  (t) => [uniqueIndex('lti_tool_keys_current').on(sql`(true)`).where(sql`${t.retiredAt} is null`)],
);

/**
 * A login initiation waiting for its launch: the state and nonce sent to the platform, single use (the
 * launch marks `used_at` in the statement that reads it), short-lived; any process finishes it.
 */
export const ltiStates = pgTable(
  'lti_states',
  {
    /** SHA-256 of the state value. */
    stateHash: text('state_hash').primaryKey(),
    nonce: text('nonce').notNull(),
    registrationId: uuid('registration_id')
      .notNull()
      .references(() => ltiRegistrations.id, { onDelete: 'cascade' }),
    targetLinkUri: text('target_link_uri').notNull(),
    /** The platform storage frame the state was put in (`lti_storage_target`), when it offered one. */
    storageTarget: text('storage_target'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('lti_states_expiry_idx').on(t.expiresAt)],
);

/**
 * A launch that passed every check: what it opens, for whom, with the platform's service endpoints. The
 * page it answers holds a one-time code (its hash here) that the page exchanges for the launch's session.
 */
export const ltiLaunches = pgTable(
  'lti_launches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    registrationId: uuid('registration_id')
      .notNull()
      .references(() => ltiRegistrations.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    deploymentId: text('deployment_id').notNull(),
    messageType: text('message_type', {
      enum: ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'],
    }).notNull(),
    role: text('role', { enum: ['LEARNER', 'INSTRUCTOR'] }).notNull(),
    subject: text('subject').notNull(),
    /** The Waymark account of a learner's launch (an instructor's is not signed in to an account). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    contextId: text('context_id'),
    contextTitle: text('context_title'),
    resourceLinkId: text('resource_link_id'),
    /** What it opens (`roadmap:…`, `test:…`, `subject:…`, `assessment:…`), or null for a deep-linking request. */
    target: text('target'),
    /** What the page shows: a test link id, an assigned roadmap id (filled in by the launch). */
    opens: jsonb('opens').$type<Record<string, unknown>>(),
    /** The deep-linking request's settings (return URL, data, accepted types). */
    deepLinking: jsonb('deep_linking').$type<Record<string, unknown>>(),
    /** The storage frame the state sits in (platform storage), when the page must read it back. */
    storageTarget: text('storage_target'),
    /** The state, for the page to compare with what platform storage holds (its SHA-256). */
    stateHash: text('state_hash'),
    codeHash: text('code_hash').notNull().unique(),
    codeUsedAt: ts('code_used_at'),
    /** The instructor's bearer for the picker and the course view (its SHA-256), issued with the code. */
    sessionHash: text('session_hash').unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('lti_launches_expiry_idx').on(t.expiresAt)],
);

/**
 * A course (LTI context) of a registration: its title and the membership and line-items addresses its
 * launches gave, for `Sync members`.
 */
export const ltiContexts = pgTable(
  'lti_contexts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    registrationId: uuid('registration_id')
      .notNull()
      .references(() => ltiRegistrations.id, { onDelete: 'cascade' }),
    contextId: text('context_id').notNull(),
    title: text('title'),
    membershipsUrl: text('memberships_url'),
    lineItemsUrl: text('line_items_url'),
    lastLaunchAt: ts('last_launch_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lti_contexts_key').on(t.registrationId, t.contextId)],
);

/** A learner of a course: seen in a launch from it, or added by its member sync (the instructor's view). */
export const ltiContextMembers = pgTable(
  'lti_context_members',
  {
    contextRowId: uuid('context_row_id')
      .notNull()
      .references(() => ltiContexts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.contextRowId, t.userId] })],
);

/**
 * Where a learner's result of a resource link goes: the line item, and what counts as an attempt of it
 * (`test_key`: the test, whichever of its links; or the assigned roadmap for a roadmap's progress).
 */
export const ltiGradeTargets = pgTable(
  'lti_grade_targets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    registrationId: uuid('registration_id')
      .notNull()
      .references(() => ltiRegistrations.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    resourceLinkId: text('resource_link_id').notNull(),
    lineItemUrl: text('line_item_url').notNull(),
    kind: text('kind', { enum: ['TEST', 'ROADMAP'] }).notNull(),
    /** A test's key (test_links.test_key) for TEST; null for ROADMAP. */
    testKey: text('test_key'),
    /** The learner's copy of the roadmap, for ROADMAP (and a roadmap's tests). */
    assignedRoadmapId: uuid('assigned_roadmap_id'),
    /** The tenant's assessment, for a custom test (each share is a link of its own). */
    tenantAssessmentId: uuid('tenant_assessment_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lti_grade_targets_key').on(t.registrationId, t.resourceLinkId, t.userId),
    index('lti_grade_targets_user_idx').on(t.userId),
  ],
);

/**
 * A score to post to a line item: one per (event, target), written by the trigger on `events` in the
 * transaction that wrote the event (migration 0027), its pg-boss job (`lti-score`) enqueued by the trigger of
 * migration 0029 in the same transaction. Claimed (SENDING) by one worker at a time; retried with backoff;
 * the mentor sees the failures and may send one again.
 */
export const ltiScoreDeliveries = pgTable(
  'lti_score_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    targetId: uuid('target_id')
      .notNull()
      .references(() => ltiGradeTargets.id, { onDelete: 'cascade' }),
    registrationId: uuid('registration_id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    status: text('status', { enum: ['PENDING', 'SENDING', 'DELIVERED', 'FAILED', 'GAVE_UP'] })
      .notNull()
      .default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    claimedAt: ts('claimed_at'),
    /** The claim's own token: only the worker holding it records the outcome (a stale one's is ignored). */
    claimToken: text('claim_token'),
    deliveredAt: ts('delivered_at'),
    /**
     * The score's body, made at the first claim and sent unchanged by every retry: the same timestamp, so a
     * platform that already has it keeps one (AGS §3.4.9: it never updates from a timestamp not later).
     */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    /** What was sent last (scoreGiven, scoreMaximum), and the platform's last answer. */
    scoreGiven: real('score_given'),
    scoreMaximum: real('score_maximum'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lti_score_deliveries_key').on(t.eventId, t.targetId),
    index('lti_score_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('PENDING', 'FAILED', 'SENDING')`),
    index('lti_score_deliveries_tenant_idx').on(t.tenantId, t.createdAt),
  ],
);

/** A platform's access token for its services, sealed, shared by every process until it expires. */
export const ltiPlatformTokens = pgTable(
  'lti_platform_tokens',
  {
    registrationId: uuid('registration_id')
      .notNull()
      .references(() => ltiRegistrations.id, { onDelete: 'cascade' }),
    /** The scopes asked for, sorted and joined. */
    scopes: text('scopes').notNull(),
    token: text('token').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [uniqueIndex('lti_platform_tokens_key').on(t.registrationId, t.scopes)],
);
