/**
 * The platforms a tenant registered (decision 044): by hand (the five values an LMS administrator has) or by
 * LTI Dynamic Registration 1.0 (a one-time address the mentor pastes into the LMS; Waymark reads the
 * platform's OpenID configuration and registers itself with it). Listed, paused, resumed and removed by the
 * tenant; every change is in the activity log.
 */

import { createHash, randomBytes } from 'node:crypto';
import { localMessage } from '@shared/i18n/message';
import type { LtiRegistration, LtiToolConfig as LtiToolConfigSchema } from '@shared/schemas/lti';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { inTx, rowsOf } from '../../db/helpers';
import { badRequest, conflict, notFound } from '../../http/errors';
import { SaidError } from '../../lib/i18n';
import { recordAudit } from '../core/audit';
import type { Actor } from '../core/principal';
import { LTI, PlatformError, type Platforms, SCOPES } from './platform';
import { ltiRegistrationInvites, ltiRegistrations, ltiScoreDeliveries } from './tables';

type Row = typeof ltiRegistrations.$inferSelect;

/** How long a Dynamic Registration address works. */
export const INVITE_TTL_MS = 7 * 86_400_000;

/** The scopes Waymark asks a platform for: post scores to line items it made, read memberships. */
export const TOOL_SCOPES = [SCOPES.lineItem, SCOPES.score, SCOPES.resultRead, SCOPES.memberships] as const;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Waymark's addresses a platform needs (all under PUBLIC_URL). */
export function toolConfig(publicUrl: string): z.infer<typeof LtiToolConfigSchema> {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    clientName: 'Waymark',
    domain: new URL(base).host,
    loginUrl: `${base}/lti/login`,
    launchUrl: `${base}/lti/launch`,
    redirectUrls: [`${base}/lti/launch`],
    jwksUrl: `${base}/lti/jwks`,
    deepLinkingUrl: `${base}/lti/launch`,
    scopes: [...TOOL_SCOPES],
    customParameters: '',
  };
}

export async function toRegistrations(db: Db, rows: Row[]): Promise<LtiRegistration[]> {
  const counts = new Map<string, { pending: number; failed: number; delivered: number }>();
  if (rows.length) {
    const grouped = rowsOf<{ registration_id: string; status: string; n: number }>(
      await db.execute(sql`
        select registration_id, status, count(*)::int as n from ${ltiScoreDeliveries}
        where registration_id in (${sql.join(
          rows.map((r) => sql`${r.id}`),
          sql`, `,
        )})
        group by registration_id, status`),
    );
    for (const g of grouped) {
      const c = counts.get(g.registration_id) ?? { pending: 0, failed: 0, delivered: 0 };
      if (g.status === 'DELIVERED') c.delivered += g.n;
      else if (g.status === 'GAVE_UP') c.failed += g.n;
      else c.pending += g.n;
      counts.set(g.registration_id, c);
    }
  }
  return rows.map((r) => {
    const platform = (r.details.platform ?? {}) as { product?: unknown; version?: unknown };
    return {
      _id: r.id,
      label: r.label,
      issuer: r.issuer,
      clientId: r.clientId,
      deploymentIds: r.deploymentIds,
      authLoginUrl: r.authLoginUrl,
      tokenUrl: r.tokenUrl,
      jwksUrl: r.jwksUrl,
      authServer: r.authServer,
      status: r.status,
      via: r.via,
      emailsVerified: r.emailsVerified,
      attemptPolicy: r.attemptPolicy,
      scopes: r.scopes,
      platform: {
        product: typeof platform.product === 'string' ? platform.product : null,
        version: typeof platform.version === 'string' ? platform.version : null,
      },
      createdAt: r.createdAt.toISOString(),
      deliveries: counts.get(r.id) ?? { pending: 0, failed: 0, delivered: 0 },
    };
  });
}

export async function registrationsOf(db: Db, tenantId: string) {
  return db
    .select()
    .from(ltiRegistrations)
    .where(eq(ltiRegistrations.tenantId, tenantId))
    .orderBy(desc(ltiRegistrations.createdAt));
}

async function ownRegistration(db: Db, tenantId: string, id: string) {
  const [row] = await db.select().from(ltiRegistrations).where(eq(ltiRegistrations.id, id)).limit(1);
  // another tenant's platform is as absent as one that never was
  if (!row || row.tenantId !== tenantId) throw notFound(localMessage('errors.lti.notRegistered'));
  return row;
}

/** An issuer as platforms send it in `iss`: no trailing slash is added or taken away, only spaces. */
const issuerOf = (s: string) => s.trim();

export interface NewRegistration {
  label: string;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  authLoginUrl: string;
  tokenUrl: string;
  jwksUrl: string;
  authServer?: string | null;
  emailsVerified: boolean;
  attemptPolicy: 'BEST' | 'LATEST';
  via: 'DYNAMIC' | 'MANUAL';
  scopes: string[];
  details?: Record<string, unknown>;
}

export async function createRegistration(db: Db, tenantId: string, actor: Actor, input: NewRegistration) {
  return inTx(db, async (tx) => {
    const [row] = await tx
      .insert(ltiRegistrations)
      .values({
        tenantId,
        label: input.label,
        issuer: issuerOf(input.issuer),
        clientId: input.clientId.trim(),
        deploymentIds: [...new Set(input.deploymentIds.map((d) => d.trim()))],
        authLoginUrl: input.authLoginUrl,
        tokenUrl: input.tokenUrl,
        jwksUrl: input.jwksUrl,
        authServer: input.authServer ?? null,
        emailsVerified: input.emailsVerified,
        attemptPolicy: input.attemptPolicy,
        via: input.via,
        scopes: input.scopes,
        details: input.details ?? {},
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      throw conflict(localMessage('errors.lti.registeredAlready'), { field: 'clientId' });
    }
    await recordAudit(tx, actor, {
      tenantId,
      action: 'lti.registered',
      target: { kind: 'lti_registration', id: row.id },
      summary: `Registered the LMS platform ${row.label} (${row.issuer})`,
      details: {
        label: row.label,
        issuer: row.issuer,
        via: row.via,
        clientId: row.clientId,
        deploymentIds: row.deploymentIds,
      },
    });
    return row;
  });
}

export async function updateRegistration(
  db: Db,
  tenantId: string,
  actor: Actor,
  id: string,
  patch: Partial<Pick<Row, 'label' | 'status' | 'emailsVerified' | 'attemptPolicy' | 'deploymentIds'>>,
) {
  const before = await ownRegistration(db, tenantId, id);
  return inTx(db, async (tx) => {
    const [row] = await tx
      .update(ltiRegistrations)
      .set(patch)
      .where(and(eq(ltiRegistrations.id, id), eq(ltiRegistrations.tenantId, tenantId)))
      .returning();
    if (!row) throw notFound(localMessage('errors.lti.notRegistered'));
    const action =
      patch.status && patch.status !== before.status
        ? patch.status === 'PAUSED'
          ? 'lti.paused'
          : 'lti.resumed'
        : 'lti.updated';
    await recordAudit(tx, actor, {
      tenantId,
      action,
      target: { kind: 'lti_registration', id },
      summary: `${{ 'lti.paused': 'Paused', 'lti.resumed': 'Resumed', 'lti.updated': 'Changed' }[action]} the LMS platform ${row.label}`,
      details: { label: row.label, changes: patch },
    });
    return row;
  });
}

export async function removeRegistration(db: Db, tenantId: string, actor: Actor, id: string) {
  const row = await ownRegistration(db, tenantId, id);
  await inTx(db, async (tx) => {
    await tx.delete(ltiRegistrations).where(eq(ltiRegistrations.id, id));
    await recordAudit(tx, actor, {
      tenantId,
      action: 'lti.removed',
      target: { kind: 'lti_registration', id },
      summary: `Removed the LMS platform ${row.label} (${row.issuer})`,
      details: { label: row.label, issuer: row.issuer },
    });
  });
}

/** A one-time Dynamic Registration address for the tenant. */
export async function createInvite(db: Db, tenantId: string, label: string, publicUrl: string, now: Date) {
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
  await db.insert(ltiRegistrationInvites).values({ tenantId, tokenHash: sha256(token), label, expiresAt });
  return { url: `${publicUrl.replace(/\/+$/, '')}/lti/register?invite=${token}`, expiresAt };
}

/**
 * Why a Dynamic Registration could not finish, in the words shown to the administrator: a message of the
 * catalogues (`said`), said in the page's language; `message` is the English (logs).
 */
export class RegistrationFailed extends SaidError {
  override name = 'RegistrationFailed';
}

interface PlatformConfiguration {
  issuer?: unknown;
  authorization_endpoint?: unknown;
  token_endpoint?: unknown;
  jwks_uri?: unknown;
  registration_endpoint?: unknown;
  authorization_server?: unknown;
  scopes_supported?: unknown;
  [LTI.platformConfiguration]?: {
    product_family_code?: unknown;
    version?: unknown;
    messages_supported?: unknown;
  };
}

/** What a platform's configuration may lack (the message's select). */
type ConfigPart = 'issuer' | 'registration' | 'authorisation' | 'token' | 'keys';

const str = (v: unknown, what: ConfigPart) => {
  if (typeof v !== 'string' || !/^https?:\/\//.test(v)) {
    throw new RegistrationFailed('errors.lti.register.configLacks', { what });
  }
  return v;
};

/**
 * Waymark's client registration as Dynamic Registration posts it to the platform (an OpenID Connect client
 * registration with the LTI tool configuration): its addresses, key set, scopes and the two messages it takes.
 */
function clientRegistrationRequest(tool: ReturnType<typeof toolConfig>, scopes: string[]) {
  return {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: tool.loginUrl,
    redirect_uris: tool.redirectUrls,
    client_name: 'Waymark',
    jwks_uri: tool.jwksUrl,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: scopes.join(' '),
    [LTI.toolConfiguration]: {
      domain: tool.domain,
      target_link_uri: tool.launchUrl,
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      messages: [
        { type: 'LtiResourceLinkRequest', target_link_uri: tool.launchUrl, label: 'Waymark' },
        {
          type: 'LtiDeepLinkingRequest',
          target_link_uri: tool.deepLinkingUrl,
          label: 'Waymark',
          placements: ['ContentArea'],
          supported_types: ['ltiResourceLink'],
        },
      ],
    },
  };
}

/**
 * LTI Dynamic Registration 1.0 §3: reads the platform's OpenID configuration (its issuer must be on the
 * configuration's own host, §3.5.1), posts Waymark's client registration (with the registration token when
 * the platform gave one), and records the platform with the client id and deployment it answered. The
 * invite is used in the same transaction, so it registers one platform once.
 */
export async function dynamicRegistration(
  db: Db,
  platforms: Platforms,
  publicUrl: string,
  input: { invite: string; openidConfiguration: string; registrationToken?: string },
  now: Date,
  from: { ip: string | null; userAgent: string | null },
) {
  const hash = sha256(input.invite);
  const [invite] = await db
    .select()
    .from(ltiRegistrationInvites)
    .where(
      and(
        eq(ltiRegistrationInvites.tokenHash, hash),
        isNull(ltiRegistrationInvites.usedAt),
        gt(ltiRegistrationInvites.expiresAt, now),
      ),
    )
    .limit(1);
  if (!invite) {
    throw new RegistrationFailed('errors.lti.register.inviteGone');
  }
  let configUrl: URL;
  try {
    configUrl = new URL(input.openidConfiguration);
  } catch {
    throw new RegistrationFailed('errors.lti.register.noConfigAddress');
  }
  let config: PlatformConfiguration;
  try {
    config = (
      await platforms.json<PlatformConfiguration>(configUrl.toString(), {
        headers: { accept: 'application/json' },
      })
    ).body;
  } catch (err) {
    throw new RegistrationFailed('errors.lti.register.configUnread', { reason: (err as Error).message });
  }
  const issuer = str(config.issuer, 'issuer');
  if (new URL(issuer).host !== configUrl.host) {
    throw new RegistrationFailed('errors.lti.register.issuerHost');
  }
  const registrationEndpoint = str(config.registration_endpoint, 'registration');
  const tool = toolConfig(publicUrl);
  const offered = Array.isArray(config.scopes_supported) ? (config.scopes_supported as string[]) : null;
  const scopes = TOOL_SCOPES.filter((s) => !offered || offered.includes(s));
  const request = clientRegistrationRequest(tool, scopes);
  let answer: { client_id?: unknown; [LTI.toolConfiguration]?: { deployment_id?: unknown } };
  try {
    answer = (
      await platforms.json<typeof answer>(registrationEndpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(input.registrationToken ? { authorization: `Bearer ${input.registrationToken}` } : {}),
        },
        body: JSON.stringify(request),
      })
    ).body;
  } catch (err) {
    const reason = err instanceof PlatformError ? err.message : (err as Error).message;
    throw new RegistrationFailed('errors.lti.register.refused', { reason });
  }
  if (typeof answer.client_id !== 'string' || !answer.client_id) {
    throw new RegistrationFailed('errors.lti.register.noClientId');
  }
  const deployment = answer[LTI.toolConfiguration]?.deployment_id;
  const platformConfig = config[LTI.platformConfiguration] ?? {};
  const clientId = answer.client_id;
  const actor: Actor = { kind: 'ltiPlatform', id: null, label: issuer, ...from };
  return inTx(db, async (tx) => {
    const used = await tx
      .update(ltiRegistrationInvites)
      .set({ usedAt: now })
      .where(and(eq(ltiRegistrationInvites.id, invite.id), isNull(ltiRegistrationInvites.usedAt)))
      .returning({ id: ltiRegistrationInvites.id });
    if (!used.length) throw new RegistrationFailed('errors.lti.register.inviteUsed');
    let row: Row;
    try {
      row = await createRegistration(tx, invite.tenantId, actor, {
        label: invite.label,
        issuer,
        clientId,
        deploymentIds: typeof deployment === 'string' && deployment ? [deployment] : [],
        authLoginUrl: str(config.authorization_endpoint, 'authorisation'),
        tokenUrl: str(config.token_endpoint, 'token'),
        jwksUrl: str(config.jwks_uri, 'keys'),
        authServer: typeof config.authorization_server === 'string' ? config.authorization_server : null,
        emailsVerified: false,
        attemptPolicy: 'LATEST',
        via: 'DYNAMIC',
        scopes,
        details: {
          platform: {
            product:
              typeof platformConfig.product_family_code === 'string'
                ? platformConfig.product_family_code
                : null,
            version: typeof platformConfig.version === 'string' ? platformConfig.version : null,
          },
          registered: request,
        },
      });
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 409) {
        throw new RegistrationFailed('errors.lti.register.registeredAlready');
      }
      throw err;
    }
    await tx
      .update(ltiRegistrationInvites)
      .set({ registrationId: row.id })
      .where(eq(ltiRegistrationInvites.id, invite.id));
    return row;
  });
}

/** A registration as a launch finds it: by issuer and client id (or by issuer alone when it is the only one). */
export async function registrationFor(db: Db, issuer: string, clientId: string | undefined) {
  const rows = await db
    .select()
    .from(ltiRegistrations)
    .where(
      clientId
        ? and(eq(ltiRegistrations.issuer, issuer), eq(ltiRegistrations.clientId, clientId))
        : eq(ltiRegistrations.issuer, issuer),
    )
    .limit(2);
  return rows.length === 1 ? rows[0]! : null;
}

export function assertDeployments(ids: string[] | undefined) {
  if (ids && new Set(ids).size !== ids.length)
    throw badRequest('must not repeat a deployment id', 'deploymentIds');
}
