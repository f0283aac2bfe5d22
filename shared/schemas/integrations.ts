/**
 * What the integrations share (decision 039): the scopes of an API key, a key as the tenant sees it, and an
 * entry of the audit log with who did it (a person, an API key, a SCIM token, an LTI platform, or the server
 * itself on a schedule).
 */

import { z } from 'zod';
import { messageKey } from '../i18n/keys';
import { DateTime, Device, Id } from './common';
import { entities } from './entities';

/**
 * What an API key may do, one scope per kind of work: read or change seats (and the roadmaps assigned to
 * learners), read reports and their files, build and share assessments, import and edit questions, manage
 * integrations (their settings, and the activity log).
 */
export const API_SCOPES = [
  'seats:read',
  'seats:write',
  'reports:read',
  'assessments:write',
  'questions:write',
  'integrations:manage',
] as const;
export const ApiScope = z.enum(API_SCOPES, {
  error: `must be one of ${API_SCOPES.join(', ')}`,
});
entities.add(ApiScope, { id: 'ApiScope' });
export type ApiScope = z.infer<typeof ApiScope>;

/** What each scope lets a key do, in the portal's and the CLI's words. */
export const SCOPE_TEXT: Record<ApiScope, string> = {
  'seats:read': 'List learners and invitations, and read the roadmaps assigned to them',
  'seats:write': 'Add, invite and remove learners, and assign roadmaps to them',
  'reports:read': 'Read the statistics, reports and learner analytics, and download them as files',
  'assessments:write': 'Create, build and share assessments',
  'questions:write': 'Import and edit questions',
  'integrations:manage': 'Manage integrations and read the activity log',
};

/** `wm_` + a 12-character prefix (shown) + `_` + the 43-character secret (shown once). */
export const API_KEY_PATTERN = /^wm_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
/** How a key is shown after it was made: its prefix, never the secret. */
export const keyDisplay = (prefix: string) => `wm_${prefix}_…`;
/** How a SCIM token is shown after it was made: `wmscim_{prefix}_…`. */
export const scimTokenDisplay = (prefix: string) => `wmscim_${prefix}_…`;

export const ApiKey = z.object({
  _id: Id,
  name: z.string(),
  /** The visible part of the key: `wm_{prefix}_…`. */
  prefix: z.string(),
  scopes: z.array(ApiScope),
  createdAt: DateTime,
  /** null: never expires. */
  expiresAt: DateTime.nullable(),
  /** Within a minute: the last use is recorded at most once a minute. null: never used. */
  lastUsedAt: DateTime.nullable(),
  revokedAt: DateTime.nullable(),
  /** ACTIVE, EXPIRED or REVOKED, now. */
  status: z.enum(['ACTIVE', 'EXPIRED', 'REVOKED']),
});
entities.add(ApiKey, { id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

/** The longest an API key may live: two years. */
export const MAX_KEY_DAYS = 730;

export const CreateApiKeyInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Required')
    .max(100, 'must be at most 100 characters')
    .describe('What the key is for, as the key list shows it'),
  scopes: z
    .array(ApiScope)
    .min(1, messageKey('apiKeys.chooseScope'))
    .max(API_SCOPES.length)
    .describe('What the key may do: a key can do nothing its scopes do not name'),
  expiresInDays: z.coerce
    .number({ error: 'must be a number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1 day')
    .max(MAX_KEY_DAYS, `must be at most ${MAX_KEY_DAYS} days`)
    .nullable()
    .optional()
    .describe('Days until the key stops working; left out or null: it never expires'),
});
entities.add(CreateApiKeyInput, { id: 'CreateApiKeyInput' });
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

export const CreatedApiKey = ApiKey.extend({
  /** The whole key, `wm_{prefix}_{secret}`: shown once, never stored. */
  key: z.string(),
});
entities.add(CreatedApiKey, { id: 'CreatedApiKey' });

/** Who did something: the kinds of actor the audit log names. */
export const ACTOR_KINDS = ['person', 'apiKey', 'scimToken', 'ltiPlatform', 'system'] as const;
export const ActorKind = z.enum(ACTOR_KINDS);
entities.add(ActorKind, { id: 'ActorKind' });
export type ActorKind = z.infer<typeof ActorKind>;

export const AuditEntry = z.object({
  _id: Id,
  occurredAt: DateTime,
  actor: z.object({
    kind: ActorKind,
    /** The person's user id, the key's id, the token's, the platform registration's; null for Waymark itself. */
    id: z.string().nullable(),
    /** The person's name or e-mail address, the key's name and prefix, …, as they were then. */
    label: z.string(),
  }),
  /** A dotted name: `seat.added`, `apikey.created`, `award.revoked`, … */
  action: z.string(),
  target: z.object({ kind: z.string(), id: z.string().nullable() }),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
  /** Where the request came from (null for a scheduled change). */
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
entities.add(AuditEntry, { id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

/**
 * Every action the server records in the activity log (`recordAudit` takes no other). A new one is added
 * here and said in the portal's table (auditWords.ts) in every language, or TypeScript and its test fail.
 */
export const AUDIT_ACTIONS = [
  'seat.added',
  'seat.removed',
  'seat.invited',
  'seat.invitation_canceled',
  'seat.ended',
  'roadmap.assigned',
  'cohort.created',
  'cohort.renamed',
  'cohort.deleted',
  'cohort.member_added',
  'cohort.member_removed',
  'cohort.roadmap_assigned',
  'assessment.created',
  'assessment.shared',
  'assessment.question_added',
  'assessment.question_removed',
  'apikey.created',
  'apikey.revoked',
  'award.revoked',
  'lti.registered',
  'lti.updated',
  'lti.paused',
  'lti.resumed',
  'lti.removed',
  'lti.score_retried',
  'scim.token_created',
  'scim.token_rotated',
  'scim.token_revoked',
  'xapi.connected',
  'xapi.updated',
  'xapi.disconnected',
  'xapi.resent',
  'webhook.created',
  'webhook.updated',
  'webhook.disabled',
  'webhook.enabled',
  'webhook.removed',
  'webhook.secret_rotated',
  'webhook.redelivered',
  'sso.configured',
  'sso.updated',
  'sso.removed',
  'sso.domain_added',
  'sso.domain_removed',
  'sso.domain_verified',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * The groups of actions the activity log records, as its filter offers them (`action=seat` is every
 * `seat.*`): every action's group is one of them.
 */
export const AUDIT_ACTION_GROUPS = [
  { group: 'seat', label: messageKey('activityLog.group.seat') },
  { group: 'roadmap', label: messageKey('activityLog.group.roadmap') },
  { group: 'cohort', label: messageKey('activityLog.group.cohort') },
  { group: 'assessment', label: messageKey('activityLog.group.assessment') },
  { group: 'apikey', label: messageKey('activityLog.group.apikey') },
  { group: 'award', label: messageKey('activityLog.group.award') },
  { group: 'lti', label: messageKey('activityLog.group.lti') },
  { group: 'scim', label: messageKey('activityLog.group.scim') },
  { group: 'xapi', label: messageKey('activityLog.group.xapi') },
  { group: 'webhook', label: messageKey('activityLog.group.webhook') },
  { group: 'sso', label: messageKey('activityLog.group.sso') },
] as const;

/** A time a caller sends as ISO 8601 text, with its offset (`2026-03-02T09:30:00Z`). */
const IsoTime = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 time such as 2026-03-02T09:30:00Z' })
  .max(40, 'must be an ISO 8601 time such as 2026-03-02T09:30:00Z');

/** The audit log's filters (all optional): the action (or its group, `seat`), the kind of actor, days. */
export const AuditQuery = z.object({
  action: z
    .string()
    .trim()
    .max(60)
    .regex(/^[a-z]+(\.[a-z_]+)?$/, 'must be an action such as seat.added, or a group such as seat')
    .optional()
    .describe('An action (seat.added) or a group of actions (seat)'),
  actorKind: ActorKind.optional().describe('Only what this kind of actor did'),
  actorId: z.string().trim().max(100).optional().describe('Only what this actor (a user id, a key id) did'),
  from: IsoTime.optional().describe('From this time (ISO 8601), included'),
  to: IsoTime.optional().describe('Until this time (ISO 8601), excluded'),
});

// ---- SCIM provisioning (issue 28 item 2; decision 043)

/** A tenant's SCIM token as the portal lists it: never the secret. */
export const ScimToken = z.object({
  _id: Id,
  name: z.string(),
  /** The visible part of the token: `wmscim_{prefix}_…`. */
  prefix: z.string(),
  createdAt: DateTime,
  /** Within a minute: the last use is recorded at most once a minute. null: never used. */
  lastUsedAt: DateTime.nullable(),
  revokedAt: DateTime.nullable(),
  status: z.enum(['ACTIVE', 'REVOKED']),
});
entities.add(ScimToken, { id: 'ScimToken' });
export type ScimToken = z.infer<typeof ScimToken>;

export const CreateScimTokenInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Required')
    .max(100, 'must be at most 100 characters')
    .describe('Which directory uses the token (Okta, Entra ID, …), as the token list shows it'),
  replaces: Id.optional().describe(
    'Rotation: the id of an active token this one replaces; the old token stops working at once',
  ),
});
entities.add(CreateScimTokenInput, { id: 'CreateScimTokenInput' });
export type CreateScimTokenInput = z.input<typeof CreateScimTokenInput>;

export const CreatedScimToken = ScimToken.extend({
  /** The whole token, `wmscim_{prefix}_{secret}`: shown once, never stored. */
  token: z.string(),
  /** Where the directory sends SCIM requests (Okta's "SCIM connector base URL", Entra ID's "Tenant URL"). */
  baseUrl: z.string(),
});
entities.add(CreatedScimToken, { id: 'CreatedScimToken' });

/** The SCIM settings the portal shows: the base URL and the tokens. */
export const ScimSettings = z.object({
  baseUrl: z.string(),
  tokens: z.array(ScimToken),
});
entities.add(ScimSettings, { id: 'ScimSettings' });

// ---- single sign-on (issue 28 item 1; decision 043)

export const SsoConnection = z.object({
  protocol: z.enum(['oidc', 'saml']),
  /** The organisation's name as the sign-in page says it. */
  displayName: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  /** Whether a client secret is kept (sealed; it is never shown again). */
  hasClientSecret: z.boolean(),
  /** SAML: the identity provider's entity id and sign-in URL, where its metadata was read, its signing certificates. */
  idpEntityId: z.string().nullable(),
  idpSsoUrl: z.string().nullable(),
  idpMetadataUrl: z.string().nullable(),
  idpCertificates: z.array(z.object({ sha256: z.string(), subject: z.string(), notAfter: DateTime })),
  enabled: z.boolean(),
  /** Addresses on the verified domains may sign in only through the organisation's provider. */
  requireSso: z.boolean(),
  updatedAt: DateTime,
});
entities.add(SsoConnection, { id: 'SsoConnection' });

export const SsoDomain = z.object({
  _id: Id,
  domain: z.string(),
  /** The TXT record that proves the domain: its name and its value. */
  txtName: z.string(),
  txtValue: z.string(),
  status: z.enum(['PENDING', 'VERIFIED']),
  verifiedBy: z.enum(['DNS', 'EMAIL']).nullable(),
  verifiedAt: DateTime.nullable(),
  /** Where the last verification code went. */
  mailedTo: z.string().nullable(),
});
entities.add(SsoDomain, { id: 'SsoDomain' });
export type SsoDomain = z.infer<typeof SsoDomain>;
export type SsoConnection = z.infer<typeof SsoConnection>;

export const SsoSettings = z.object({
  /** What the identity provider is given as the redirect (sign-in redirect) URI. */
  callbackUrl: z.string(),
  /** What a SAML identity provider is given: Waymark's entity id, ACS URL, NameID format and metadata URL. */
  saml: z.object({
    entityId: z.string(),
    acsUrl: z.string(),
    nameIdFormat: z.string(),
    metadataUrl: z.string(),
  }),
  connection: SsoConnection.nullable(),
  domains: z.array(SsoDomain),
});
entities.add(SsoSettings, { id: 'SsoSettings' });
export type SsoSettings = z.infer<typeof SsoSettings>;

export const SaveSsoInput = z.object({
  displayName: z.string().trim().min(1, 'Required').max(100, 'must be at most 100 characters'),
  issuer: z
    .string()
    .trim()
    .url('must be a URL (the issuer your identity provider shows)')
    .max(500, 'must be at most 500 characters'),
  clientId: z.string().trim().min(1, 'Required').max(300, 'must be at most 300 characters'),
  clientSecret: z
    .string()
    .min(1, 'Required')
    .max(500, 'must be at most 500 characters')
    .optional()
    .describe('Required the first time; leave out to keep the one kept'),
  enabled: z.boolean().default(true),
  requireSso: z.boolean().default(false),
});
entities.add(SaveSsoInput, { id: 'SaveSsoInput' });

export const SaveSamlSsoInput = z.object({
  displayName: z.string().trim().min(1, 'Required').max(100, 'must be at most 100 characters'),
  metadataXml: z
    .string()
    .trim()
    .max(200_000, 'must be at most 200,000 characters')
    .optional()
    .describe("The identity provider's SAML metadata (EntityDescriptor), pasted"),
  metadataUrl: z
    .string()
    .trim()
    .url('must be a URL (where your identity provider publishes its metadata)')
    .max(500, 'must be at most 500 characters')
    .optional()
    .describe('Or where it is published; read now. Leave both out to keep the identity provider kept'),
  enabled: z.boolean().default(true),
  requireSso: z.boolean().default(false),
});
entities.add(SaveSamlSsoInput, { id: 'SaveSamlSsoInput' });

export const AddSsoDomainInput = z.object({
  domain: z.string().trim().min(1, 'Required').max(253, 'must be at most 253 characters'),
});
entities.add(AddSsoDomainInput, { id: 'AddSsoDomainInput' });

export const MailSsoCodeInput = z.object({
  mailbox: z
    .enum(['admin', 'administrator', 'hostmaster', 'postmaster', 'webmaster'], {
      error: 'must be admin, administrator, hostmaster, postmaster or webmaster',
    })
    .describe('The code goes to this address on the domain'),
});
entities.add(MailSsoCodeInput, { id: 'MailSsoCodeInput' });

export const VerifySsoDomainInput = z.object({
  code: z
    .string()
    .trim()
    .max(6, 'must be the six digits we mailed')
    .regex(/^\d{6}$/, 'must be the six digits we mailed')
    .optional()
    .describe('The mailed code; leave out to check the DNS TXT record instead'),
});
entities.add(VerifySsoDomainInput, { id: 'VerifySsoDomainInput' });

export const SsoStartInput = z.object({
  email: z.string().trim().toLowerCase().email('must be an e-mail address').max(254),
  device: Device.default('WEB_APP'),
});
entities.add(SsoStartInput, { id: 'SsoStartInput' });

export const SsoStart = z.object({
  organisation: z.string(),
  /** Where to send the browser: the organisation's sign-in. */
  redirectUrl: z.string(),
});
entities.add(SsoStart, { id: 'SsoStart' });

export const SsoFinishInput = z.object({
  handoff: z.string().min(20, 'is not a sign-in code').max(100, 'is not a sign-in code'),
});
entities.add(SsoFinishInput, { id: 'SsoFinishInput' });
