/**
 * The integrations' own calls (issue 28; decision 039): a tenant's API keys — made, listed and revoked by the
 * mentor in person, never by a key — and the activity log (the audit log), read and downloaded. Served by
 * server/integrations/keys and server/integrations/audit.
 */
import { z } from 'zod';
import { envelope, errors, Id, Ok } from '../schemas/common';
import { FileBody } from '../schemas/file';
import {
  AddSsoDomainInput,
  ApiKey,
  AuditEntry,
  AuditQuery,
  CreateApiKeyInput,
  CreatedApiKey,
  CreatedScimToken,
  CreateScimTokenInput,
  MailSsoCodeInput,
  SaveSamlSsoInput,
  SaveSsoInput,
  ScimSettings,
  ScimToken,
  SsoConnection,
  SsoDomain,
  SsoFinishInput,
  SsoSettings,
  SsoStart,
  SsoStartInput,
  VerifySsoDomainInput,
} from '../schemas/integrations';
import { SignInResult } from '../schemas/user';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;

// ---- API keys

export const apiKeyList = defineCall({
  method: 'GET',
  path: '/tenant/api-keys',
  summary:
    "The tenant's API keys, newest first: name, prefix, scopes, expiry, last use (to the minute) and status. Never a key's secret.",
  tags: ['integrations'],
  access: TENANT,
  responses: { 200: envelope(z.array(ApiKey)), ...errors },
});

export const createApiKey = defineCall({
  method: 'POST',
  path: '/tenant/api-keys',
  summary:
    'Makes an API key with a name, its scopes and an optional expiry. The answer holds the whole key (`key`, wm_{prefix}_{secret}) this once: only its hash is kept. A key acts as this tenant within its scopes (Authorization: Bearer wm_…); the activity log records its making.',
  tags: ['integrations'],
  access: TENANT,
  body: CreateApiKeyInput,
  responses: { 201: envelope(CreatedApiKey), ...errors },
});

export const revokeApiKey = defineCall({
  method: 'DELETE',
  path: '/tenant/api-keys/{id}',
  summary:
    'Revokes an API key: its next request is refused (401 API_KEY_REVOKED) on every server process. Revoking a revoked key changes nothing.',
  tags: ['integrations'],
  access: TENANT,
  params: z.object({ id: Id }),
  responses: { 200: envelope(ApiKey), ...errors },
});

// ---- the activity log

/** The largest page of the activity log. */
export const AUDIT_PAGE_MAX = 100;

export const auditLog = defineCall({
  method: 'GET',
  path: '/tenant/audit-log',
  summary:
    "The tenant's activity log, newest first: every change to seats, assignments, assessments and their sharing, API keys, integrations and award revocations, with who made it (a person, an API key, …), when and from where. Filter by action (or its group, `seat`), actor and time; `cursor` (the last answer's nextCursor) reads on. Entries cannot be changed or deleted; they are kept at least a year (AUDIT_RETENTION_DAYS).",
  tags: ['integrations'],
  access: TENANT,
  scopes: ['integrations:manage'],
  query: AuditQuery.safeExtend({
    cursor: z
      .string()
      .max(100)
      .regex(/^[A-Za-z0-9_-]+$/, 'is not a cursor of this log')
      .optional()
      .describe('Where to read on: the nextCursor of the page before'),
    limit: z.coerce
      .number({ error: 'must be a number from 1 to 100' })
      .int('must be a number from 1 to 100')
      .min(1, 'must be a number from 1 to 100')
      .max(AUDIT_PAGE_MAX, 'must be a number from 1 to 100')
      .default(50),
  }),
  responses: {
    200: envelope(z.object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() })),
    ...errors,
  },
});

/** CSV (UTF-8 with a BOM) or NDJSON, like every table to take away. */
export const AUDIT_FORMATS = ['csv', 'ndjson'] as const;

export const exportAuditLog = defineCall({
  method: 'GET',
  path: '/tenant/export/audit-log',
  summary:
    'The activity log as a file, newest first, with the same filters (Time, Action, Actor kind, Actor, Actor id, Target kind, Target id, Summary, IP address, User agent, Details). All the rows, streamed: CSV is UTF-8 with a byte-order mark, RFC 4180 quoting, and text cells starting with = + - @ prefixed with an apostrophe; NDJSON has one entry a line.',
  tags: ['integrations', 'reports'],
  access: TENANT,
  scopes: ['integrations:manage'],
  query: AuditQuery.safeExtend({
    format: z.enum(AUDIT_FORMATS, { error: 'must be csv or ndjson' }).default('csv'),
  }),
  download: { contentTypes: ['text/csv', 'application/x-ndjson'] },
  responses: { 200: FileBody, ...errors },
});

/** The keys' calls, served by server/integrations/keys/routes.ts. */
export const apiKeysRouter = defineRouter({ apiKeyList, createApiKey, revokeApiKey });

/** The activity log's calls, served by server/integrations/audit/routes.ts. */
export const auditRouter = defineRouter({ auditLog, exportAuditLog });

// ---- SCIM provisioning (issue 28 item 2; decision 043)

export const scimSettings = defineCall({
  method: 'GET',
  path: '/tenant/scim',
  summary:
    "Where the organisation's directory sends SCIM requests (baseUrl: Okta's SCIM connector base URL, Entra ID's Tenant URL) and the tenant's SCIM tokens, newest first. Never a token's secret.",
  tags: ['integrations'],
  access: TENANT,
  responses: { 200: envelope(ScimSettings), ...errors },
});

export const createScimToken = defineCall({
  method: 'POST',
  path: '/tenant/scim/tokens',
  summary:
    "Makes a SCIM token for the organisation's directory (or, with `replaces`, rotates one: the old token stops at once). The answer holds the whole token (`token`, wmscim_{prefix}_{secret}) this once: only its hash is kept. A token reaches only /scim/v2, as this tenant; the activity log names it as the actor of every change it makes.",
  tags: ['integrations'],
  access: TENANT,
  body: CreateScimTokenInput,
  responses: { 201: envelope(CreatedScimToken), ...errors },
});

export const revokeScimToken = defineCall({
  method: 'DELETE',
  path: '/tenant/scim/tokens/{id}',
  summary:
    'Revokes a SCIM token: its next request is refused (401) on every server process. Revoking a revoked token changes nothing.',
  tags: ['integrations'],
  access: TENANT,
  params: z.object({ id: Id }),
  responses: { 200: envelope(ScimToken), ...errors },
});

/** The SCIM settings' calls, served by server/integrations/scim/settings.ts. */
export const scimRouter = defineRouter({ scimSettings, createScimToken, revokeScimToken });

// ---- single sign-on (issue 28 item 1; decision 043)

export const ssoSettings = defineCall({
  method: 'GET',
  path: '/tenant/sso',
  summary:
    "The organisation's single sign-on: its OpenID Connect or SAML 2.0 provider (never the client secret), the e-mail domains it claims with their proof, the redirect URI to give an OpenID provider (callbackUrl), and what a SAML identity provider is given (saml: entity id, ACS URL, NameID format, metadata URL).",
  tags: ['integrations'],
  access: TENANT,
  responses: { 200: envelope(SsoSettings), ...errors },
});

export const saveSso = defineCall({
  method: 'PUT',
  path: '/tenant/sso',
  summary:
    "Sets up (or changes) the organisation's OpenID Connect provider: its issuer (whose discovery document is read now and must name the same issuer), the client id and secret Waymark was given (the secret sealed, never shown again), on or off, and whether addresses on the verified domains must sign in through it.",
  tags: ['integrations'],
  access: TENANT,
  body: SaveSsoInput,
  responses: { 200: envelope(SsoConnection), ...errors },
});

export const saveSamlSso = defineCall({
  method: 'PUT',
  path: '/tenant/sso/saml',
  summary:
    "Sets up (or changes) the organisation's SAML 2.0 identity provider from its metadata, pasted (metadataXml) or read now from its URL (metadataUrl): its entity id, sign-in URL (HTTP-Redirect binding) and signing certificates; on or off, and whether addresses on the verified domains must sign in through it. Waymark's side (entity id, ACS URL, metadata) is in GET /tenant/sso as `saml`.",
  tags: ['integrations'],
  access: TENANT,
  body: SaveSamlSsoInput,
  responses: { 200: envelope(SsoConnection), ...errors },
});

export const removeSso = defineCall({
  method: 'DELETE',
  path: '/tenant/sso',
  summary:
    "Removes the organisation's provider: its people sign in as before (their accounts and seats stay).",
  tags: ['integrations'],
  access: TENANT,
  responses: { 200: Ok, ...errors },
});

export const addSsoDomain = defineCall({
  method: 'POST',
  path: '/tenant/sso/domains',
  summary:
    "Claims an e-mail domain for the organisation. It counts once verified: by the TXT record the answer names (txtName, txtValue), or by a code mailed to the domain's administrator. Public mail domains cannot be claimed; a domain is verified for one organisation at most.",
  tags: ['integrations'],
  access: TENANT,
  body: AddSsoDomainInput,
  responses: { 201: envelope(SsoDomain), ...errors },
});

export const mailSsoDomainCode = defineCall({
  method: 'POST',
  path: '/tenant/sso/domains/{id}/mail-code',
  summary:
    "Mails a six-digit code (valid 30 minutes, five tries) to admin@, administrator@, hostmaster@, postmaster@ or webmaster@ the domain — the addresses certificate authorities accept as the domain's administrator.",
  tags: ['integrations'],
  access: TENANT,
  params: z.object({ id: Id }),
  body: MailSsoCodeInput,
  responses: { 200: envelope(SsoDomain), ...errors },
});

export const verifySsoDomain = defineCall({
  method: 'POST',
  path: '/tenant/sso/domains/{id}/verify',
  summary:
    'Verifies a claimed domain: with `code`, the code mailed to its administrator; without, the TXT record (400 TXT_NOT_FOUND while it is not there yet).',
  tags: ['integrations'],
  access: TENANT,
  params: z.object({ id: Id }),
  body: VerifySsoDomainInput,
  responses: { 200: envelope(SsoDomain), ...errors },
});

export const removeSsoDomain = defineCall({
  method: 'DELETE',
  path: '/tenant/sso/domains/{id}',
  summary: "Gives up a domain: its addresses no longer go to the organisation's provider.",
  tags: ['integrations'],
  access: TENANT,
  params: z.object({ id: Id }),
  responses: { 200: Ok, ...errors },
});

export const ssoStart = defineCall({
  method: 'POST',
  path: '/login/sso/start',
  summary:
    '"Continue with your organisation": for an address on a domain an organisation verified, where to send the browser (its identity provider\'s sign-in; for SAML, the AuthnRequest by HTTP-Redirect). The provider sends the browser back to /api/login/sso/callback (OpenID Connect) or POSTs the SAML Response to the organisation\'s ACS, /api/sso/saml/{tenant}/acs; either leads to the sign-in page with a one-time code for /login/sso/finish. 404 NO_SSO for an address no organisation signs in.',
  tags: ['login'],
  access: 'public',
  rateLimit: 'auth',
  body: SsoStartInput,
  responses: { 200: envelope(SsoStart), ...errors },
});

export const ssoFinish = defineCall({
  method: 'POST',
  path: '/login/sso/finish',
  summary:
    "Ends a sign-in through the organisation's identity provider: the one-time code the sign-in page was sent back with (valid two minutes, once) for Waymark tokens, as sign-in-with-firebase answers.",
  tags: ['login'],
  access: 'public',
  rateLimit: 'auth',
  body: SsoFinishInput,
  responses: { 200: envelope(SignInResult), ...errors },
});

/** The SSO settings' calls and the sign-in's start and end, served by server/integrations/sso/routes.ts. */
export const ssoRouter = defineRouter({
  ssoSettings,
  saveSso,
  saveSamlSso,
  removeSso,
  addSsoDomain,
  mailSsoDomainCode,
  verifySsoDomain,
  removeSsoDomain,
  ssoStart,
  ssoFinish,
});
