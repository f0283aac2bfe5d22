/**
 * A tenant's single sign-on settings (issue 28 item 1; decisions 043, 047): its OpenID Connect provider
 * (issuer, client id, the client secret sealed at rest) or its SAML one (saml-settings.ts), and the e-mail
 * domains it proved it owns — by a DNS TXT record (dns.ts), or a code mailed to one of the addresses a
 * domain's administrator reads (admin@, administrator@, hostmaster@, postmaster@, webmaster@: the addresses
 * certificate authorities accept, CA/B Forum BR 3.2.2.4.4). A domain is verified for one tenant at most.
 * Every change is in the activity log.
 */

import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { type LocalMessage, localMessage } from '@shared/i18n/message';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { MailService } from '../../adapters/mail';
import type { Db } from '../../db/client';
import { inTx } from '../../db/helpers';
import { users } from '../../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors';
import { SaidError } from '../../lib/i18n';
import { recordAudit } from '../core/audit';
import type { Actor } from '../core/principal';
import type { SecretBox } from '../core/sealed';
import type { TxtLookup } from './dns';
import { discover, type OidcEndpoints } from './oidc';
import { certificateOf, type SamlSettings } from './saml';
import { ssoConnections, ssoDomains } from './tables';

/** The addresses a verification code may be mailed to (CA/B Forum Baseline Requirements 3.2.2.4.4). */
export const DOMAIN_ADMIN_MAILBOXES = [
  'admin',
  'administrator',
  'hostmaster',
  'postmaster',
  'webmaster',
] as const;
/** The TXT record's name under the domain, and its value's prefix. */
export const TXT_LABEL = '_waymark-verification';
const CODE_TTL_MS = 30 * 60_000;
const CODE_TRIES = 5;

export const SECRET_CONTEXT = (tenantId: string) => `sso-client-secret:${tenantId}`;

type DomainRow = typeof ssoDomains.$inferSelect;
type ConnectionRow = typeof ssoConnections.$inferSelect;

export interface OidcSettings extends OidcEndpoints {
  issuer: string;
  clientId: string;
  clientSecretSealed: string;
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

export const toDomain = (row: DomainRow) => ({
  _id: row.id,
  domain: row.domain,
  txtName: `${TXT_LABEL}.${row.domain}`,
  txtValue: `waymark-verification=${row.token}`,
  status: row.verifiedAt ? ('VERIFIED' as const) : ('PENDING' as const),
  verifiedBy: row.verifiedBy,
  verifiedAt: row.verifiedAt?.toISOString() ?? null,
  mailedTo: row.mailedTo,
});

export const toConnection = (row: ConnectionRow) => {
  const saml = row.protocol === 'saml' ? (row.settings as unknown as SamlSettings) : null;
  return {
    protocol: row.protocol,
    displayName: row.displayName,
    issuer: row.settings.issuer ?? '',
    clientId: row.settings.clientId ?? '',
    hasClientSecret: Boolean(row.settings.clientSecretSealed),
    idpEntityId: saml?.idpEntityId ?? null,
    idpSsoUrl: saml?.idpSsoUrl ?? null,
    idpMetadataUrl: saml?.metadataUrl ?? null,
    idpCertificates: (saml?.idpCertificates ?? []).map(certificateOf),
    enabled: row.enabled,
    requireSso: row.requireSso,
    updatedAt: row.updatedAt.toISOString(),
  };
};

export async function ssoSettingsOf(db: Db, tenantId: string) {
  const [connection] = await db.select().from(ssoConnections).where(eq(ssoConnections.tenantId, tenantId));
  const domains = await db
    .select()
    .from(ssoDomains)
    .where(eq(ssoDomains.tenantId, tenantId))
    .orderBy(asc(ssoDomains.domain));
  return { connection: connection ? toConnection(connection) : null, domains: domains.map(toDomain) };
}

/**
 * Saves the tenant's OIDC provider: the issuer's discovery document is read (through the outbound guard)
 * and must name the same issuer, so a typing mistake is a 400 on `issuer`, not a failed sign-in later.
 */
export async function saveOidcConnection(
  deps: { db: Db; secrets: SecretBox; allowLoopbackHttp: boolean },
  tenantId: string,
  input: {
    displayName: string;
    issuer: string;
    clientId: string;
    clientSecret?: string;
    enabled: boolean;
    requireSso: boolean;
  },
  by: Actor,
) {
  const { db } = deps;
  const [current] = await db.select().from(ssoConnections).where(eq(ssoConnections.tenantId, tenantId));
  if (!input.clientSecret && (current?.protocol !== 'oidc' || !current.settings.clientSecretSealed))
    throw badRequest(localMessage('errors.sso.clientSecretRequired'), 'clientSecret');
  let endpoints: OidcEndpoints;
  try {
    endpoints = await discover(input.issuer, deps.allowLoopbackHttp);
  } catch (err) {
    throw badRequest(refusal(err, 'issuer'), 'issuer', {
      errorCode: 'SSO_DISCOVERY_FAILED',
    });
  }
  const settings: OidcSettings = {
    issuer: input.issuer,
    clientId: input.clientId,
    ...endpoints,
    clientSecretSealed: input.clientSecret
      ? deps.secrets.seal(input.clientSecret, SECRET_CONTEXT(tenantId))
      : current!.settings.clientSecretSealed!,
  };
  return storeConnection(db, tenantId, current, {
    protocol: 'oidc',
    displayName: input.displayName,
    settings: settings as unknown as Record<string, string>,
    enabled: input.enabled,
    requireSso: input.requireSso,
    by,
    summary: `${input.issuer}${input.clientSecret && current ? ', new client secret' : ''}`,
    details: {
      issuer: input.issuer,
      clientId: input.clientId,
      secretChanged: Boolean(input.clientSecret),
    },
  });
}

/**
 * A provider's settings refused, on `field`: a check of ours in the catalogue's words (said in the
 * request's language), or another's (the network's, a parser's) as it said it.
 */
export const refusal = (err: unknown, field: string): LocalMessage =>
  err instanceof SaidError
    ? err.said
    : localMessage('errors.sso.fieldProblem', { field, reason: (err as Error).message });

/** Writes a tenant's connection (either protocol) and its activity-log entry, in one transaction. */
export async function storeConnection(
  db: Db,
  tenantId: string,
  current: ConnectionRow | undefined,
  input: {
    protocol: ConnectionRow['protocol'];
    displayName: string;
    settings: Record<string, string>;
    enabled: boolean;
    requireSso: boolean;
    by: Actor;
    /** What the provider is, for the log's summary. */
    summary: string;
    details: Record<string, unknown>;
  },
) {
  const providerId = `${input.protocol}.wm-${tenantId.slice(0, 8)}`;
  const values = {
    protocol: input.protocol,
    providerId,
    displayName: input.displayName,
    settings: input.settings,
    enabled: input.enabled,
    requireSso: input.requireSso,
  };
  return inTx(db, async (tx) => {
    const [row] = await tx
      .insert(ssoConnections)
      .values({ tenantId, ...values })
      .onConflictDoUpdate({ target: ssoConnections.tenantId, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    await recordAudit(tx, input.by, {
      tenantId,
      action: current ? 'sso.updated' : 'sso.configured',
      target: { kind: 'ssoConnection', id: tenantId },
      summary: `Single sign-on (${input.protocol.toUpperCase()}) through ${input.displayName} (${input.summary}) ${
        current ? 'changed' : 'set up'
      }: ${input.enabled ? 'on' : 'off'}${input.requireSso ? ', required for the verified domains' : ''}`,
      details: {
        protocol: input.protocol,
        displayName: input.displayName,
        ...input.details,
        enabled: input.enabled,
        requireSso: input.requireSso,
      },
    });
    return toConnection(row!);
  });
}

export async function deleteConnection(db: Db, tenantId: string, by: Actor) {
  await inTx(db, async (tx) => {
    const [gone] = await tx.delete(ssoConnections).where(eq(ssoConnections.tenantId, tenantId)).returning();
    if (!gone) throw notFound(localMessage('errors.sso.notSetUp'));
    await recordAudit(tx, by, {
      tenantId,
      action: 'sso.removed',
      target: { kind: 'ssoConnection', id: tenantId },
      summary: `Single sign-on through ${gone.displayName} removed`,
      details: { displayName: gone.displayName, issuer: gone.settings.issuer ?? null },
    });
  });
}

const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** Domains anyone can have an address on: no organisation may claim them. */
const PUBLIC_MAIL = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'mail.com',
  'yandex.com',
  'zoho.com',
]);

export function normaliseDomain(input: string): string {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  if (!DOMAIN.test(domain)) throw badRequest(localMessage('errors.sso.notADomain'), 'domain');
  if (PUBLIC_MAIL.has(domain)) throw badRequest(localMessage('errors.sso.publicMail', { domain }), 'domain');
  return domain;
}

export async function addDomain(db: Db, tenantId: string, input: string, by: Actor) {
  const domain = normaliseDomain(input);
  return inTx(db, async (tx) => {
    const [taken] = await tx
      .select({ tenantId: ssoDomains.tenantId })
      .from(ssoDomains)
      .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)));
    if (taken && taken.tenantId !== tenantId)
      throw conflict(localMessage('errors.sso.verifiedElsewhere', { domain }), { field: 'domain' });
    const [row] = await tx
      .insert(ssoDomains)
      .values({ tenantId, domain, token: randomBytes(18).toString('base64url') })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(localMessage('errors.sso.alreadyListed', { domain }), { field: 'domain' });
    await recordAudit(tx, by, {
      tenantId,
      action: 'sso.domain_added',
      target: { kind: 'ssoDomain', id: row.id },
      summary: `Domain ${domain} claimed (not verified yet)`,
      details: { domain },
    });
    return toDomain(row);
  });
}

async function requireDomain(db: Db, tenantId: string, id: string): Promise<DomainRow> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound(localMessage('errors.sso.domainNotFound'));
  const [row] = await db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.tenantId, tenantId), eq(ssoDomains.id, id)));
  if (!row) throw notFound(localMessage('errors.sso.domainNotFound'));
  return row;
}

export async function removeDomain(db: Db, tenantId: string, id: string, by: Actor) {
  await inTx(db, async (tx) => {
    const row = await requireDomain(tx, tenantId, id);
    await tx.delete(ssoDomains).where(eq(ssoDomains.id, row.id));
    await recordAudit(tx, by, {
      tenantId,
      action: 'sso.domain_removed',
      target: { kind: 'ssoDomain', id },
      summary: `Domain ${row.domain} removed`,
      details: { domain: row.domain },
    });
  });
}

/** Mails a six-digit code to one of the domain's administrative addresses. */
export async function mailDomainCode(
  deps: { db: Db; mail: MailService },
  tenantId: string,
  id: string,
  mailbox: string,
) {
  const row = await requireDomain(deps.db, tenantId, id);
  if (row.verifiedAt) throw conflict(localMessage('errors.sso.verifiedAlready'));
  if (!(DOMAIN_ADMIN_MAILBOXES as readonly string[]).includes(mailbox))
    throw badRequest(
      localMessage('errors.sso.mailbox', { mailboxes: DOMAIN_ADMIN_MAILBOXES.join(', ') }),
      'mailbox',
    );
  const to = `${mailbox}@${row.domain}`;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await deps.db
    .update(ssoDomains)
    .set({
      mailedTo: to,
      codeHash: hash(`${row.id}:${code}`),
      codeExpiresAt: new Date(Date.now() + CODE_TTL_MS),
      codeAttempts: 0,
    })
    .where(eq(ssoDomains.id, row.id));
  const [tenant] = await deps.db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, tenantId));
  await deps.mail.send({
    to,
    kind: 'sso-domain-code',
    subject: `Waymark: your code to verify ${row.domain} is ${code}`,
    text: [
      `${tenant?.name ?? tenant?.email ?? 'Someone'} (${tenant?.email ?? ''}) asked to verify that their organisation owns ${row.domain} on Waymark, so that people with addresses on it can sign in through the organisation's identity provider.`,
      '',
      `If that is right, give them this code: ${code}`,
      'It works for 30 minutes. If you did not expect this, ignore this mail: nothing changes without the code.',
    ].join('\n'),
  });
  return toDomain({ ...row, mailedTo: to });
}

/**
 * Verifies a domain: with `code`, the code mailed to its administrator (five tries); without, the TXT record
 * `_waymark-verification.<domain>` holding `waymark-verification=<token>`.
 */
export async function verifyDomain(
  db: Db,
  tenantId: string,
  id: string,
  input: { code?: string },
  by: Actor,
  lookupTxt: TxtLookup,
) {
  const row = await requireDomain(db, tenantId, id);
  if (row.verifiedAt) return toDomain(row);
  let how: 'DNS' | 'EMAIL';
  if (input.code !== undefined) {
    if (!row.codeHash || !row.codeExpiresAt || row.codeExpiresAt < new Date())
      throw badRequest(localMessage('errors.sso.noCode'), 'code');
    if (row.codeAttempts >= CODE_TRIES) throw badRequest(localMessage('errors.sso.tooManyCodes'), 'code');
    const good = timingSafeEqual(
      Buffer.from(hash(`${row.id}:${input.code.trim()}`)),
      Buffer.from(row.codeHash),
    );
    if (!good) {
      await db
        .update(ssoDomains)
        .set({ codeAttempts: sql`${ssoDomains.codeAttempts} + 1` })
        .where(eq(ssoDomains.id, row.id));
      throw badRequest(localMessage('errors.sso.wrongCode'), 'code');
    }
    how = 'EMAIL';
  } else {
    const name = `${TXT_LABEL}.${row.domain}`;
    const records = await lookupTxt(name);
    if (records === 'UNAVAILABLE')
      throw new HttpError(503, localMessage('errors.sso.dnsUnavailable', { name }), {
        field: 'domain',
        errorCode: 'DNS_UNAVAILABLE',
      });
    const want = `waymark-verification=${row.token}`;
    if (!records.some((parts) => parts.join('') === want))
      throw new HttpError(400, localMessage('errors.sso.txtNotFound', { name, want }), {
        field: 'domain',
        errorCode: 'TXT_NOT_FOUND',
      });
    how = 'DNS';
  }
  try {
    return await inTx(db, async (tx) => {
      const [done] = await tx
        .update(ssoDomains)
        .set({ verifiedAt: sql`now()`, verifiedBy: how, codeHash: null, codeExpiresAt: null })
        .where(eq(ssoDomains.id, row.id))
        .returning();
      await recordAudit(tx, by, {
        tenantId,
        action: 'sso.domain_verified',
        target: { kind: 'ssoDomain', id },
        summary: `Domain ${row.domain} verified (${how === 'DNS' ? 'DNS TXT record' : `code mailed to ${row.mailedTo}`})`,
        details: { domain: row.domain, by: how, mailedTo: how === 'DNS' ? null : row.mailedTo },
      });
      return toDomain(done!);
    });
  } catch (err) {
    const code =
      (err as { code?: string; cause?: { code?: string } }).code ??
      (err as { cause?: { code?: string } }).cause?.code;
    if (code === '23505')
      throw conflict(localMessage('errors.sso.verifiedElsewhere', { domain: row.domain }), {
        field: 'domain',
      });
    throw err;
  }
}

/** The organisation whose verified domain an address is on, with its provider, if it has one. */
export async function organisationFor(db: Db, email: string) {
  const domain = email.trim().toLowerCase().split('@')[1];
  if (!domain) return null;
  const [row] = await db
    .select({ connection: ssoConnections })
    .from(ssoDomains)
    .innerJoin(ssoConnections, eq(ssoConnections.tenantId, ssoDomains.tenantId))
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)))
    .limit(1);
  return row?.connection ?? null;
}

/** The verified domains of a tenant. */
export async function verifiedDomainsOf(db: Db, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.tenantId, tenantId), isNotNull(ssoDomains.verifiedAt)));
  return rows.map((r) => r.domain);
}

/**
 * When an address must sign in through its organisation (the tenant requires SSO for its verified domain):
 * the organisation's name, for the refusal's message; otherwise null.
 */
export async function ssoRequiredFor(db: Db, email: string): Promise<string | null> {
  const connection = await organisationFor(db, email);
  return connection?.enabled && connection.requireSso ? connection.displayName : null;
}
