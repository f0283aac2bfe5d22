/**
 * Single sign-on per organisation (issue 28 item 1; decision 043): the tenant's identity provider as a
 * Firebase Authentication (Identity Platform) provider — `oidc.*` or `saml.*` — and the e-mail domains the
 * tenant proved it owns (a DNS TXT record, or a code mailed to an address on the domain). A verified domain
 * belongs to one tenant: its addresses are sent to that tenant's provider, and, when the tenant requires
 * it, may sign in no other way.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A tenant's identity provider (one per tenant). */
export const ssoConnections = pgTable(
  'sso_connections',
  {
    tenantId: uuid('tenant_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    protocol: text('protocol', { enum: ['oidc', 'saml'] }).notNull(),
    /** The Firebase provider id: `oidc.wm-…` or `saml.wm-…`, what ID tokens name in firebase.sign_in_provider. */
    providerId: text('provider_id').notNull(),
    /** The organisation's name as the sign-in page says it. */
    displayName: text('display_name').notNull(),
    /**
     * What the provider needs: OIDC issuer and client id; SAML IdP entity id, sign-in URL and certificate.
     * The OIDC client secret is sealed (`clientSecretSealed`, services.secrets) and never shown again.
     */
    settings: jsonb('settings').$type<Record<string, string>>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Addresses on the verified domains may sign in only through this provider. */
    requireSso: boolean('require_sso').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sso_connections_provider_key').on(t.providerId)],
);

/** An e-mail domain a tenant claims, and its proof. */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lower-case, without a trailing dot. */
    domain: text('domain').notNull(),
    /** What the TXT record says: `waymark-verification=…`. */
    token: text('token').notNull(),
    /** The address the verification code was mailed to, the code's hash, when it stops, tries left. */
    mailedTo: text('mailed_to'),
    codeHash: text('code_hash'),
    codeExpiresAt: ts('code_expires_at'),
    codeAttempts: integer('code_attempts').notNull().default(0),
    verifiedAt: ts('verified_at'),
    verifiedBy: text('verified_by', { enum: ['DNS', 'EMAIL'] }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sso_domains_tenant_domain_key').on(t.tenantId, t.domain),
    // a domain is verified for one tenant at most
    uniqueIndex('sso_domains_verified_key').on(t.domain).where(sql`${t.verifiedAt} is not null`),
    index('sso_domains_domain_idx').on(t.domain),
  ],
);

/**
 * One sign-in through an organisation's provider, from "Continue with your organisation" to the session:
 * the state, nonce and PKCE verifier of the authorization request (RFC 6749, RFC 7636, OIDC Core §3.1.2),
 * used once (`consumedAt`); then, after the callback, a one-time handoff code the sign-in page exchanges for
 * Waymark's tokens — tokens never travel in a URL. Kept in the database, so the callback may reach any process.
 */
export const ssoLogins = pgTable(
  'sso_logins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the `state` sent to the provider (SAML: of the AuthnRequest's ID; nonce and verifier empty). */
    stateHash: text('state_hash').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** The address typed on the sign-in page (login_hint). */
    email: text('email').notNull(),
    device: text('device').notNull().default('WEB_APP'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
    /** After the callback: who signed in, and the handoff code's hash (used once, within two minutes). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    handoffHash: text('handoff_hash'),
    handoffExpiresAt: ts('handoff_expires_at'),
    handedOffAt: ts('handed_off_at'),
  },
  (t) => [
    uniqueIndex('sso_logins_state_key').on(t.stateHash),
    uniqueIndex('sso_logins_handoff_key').on(t.handoffHash),
    index('sso_logins_expires_idx').on(t.expiresAt),
  ],
);

/**
 * SAML assertions already used, by their ID (SAML 2.0 Profiles §4.1.4.5: an assertion consumer keeps the IDs
 * of the bearer assertions it accepted until they expire, and refuses one seen again). Kept in the database,
 * so a replay at another process is refused too; rows past `expiresAt` are of no use and may be deleted.
 */
export const samlAssertions = pgTable(
  'saml_assertions',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saml_assertions_key').on(t.tenantId, t.assertionId),
    index('saml_assertions_expires_idx').on(t.expiresAt),
  ],
);
