/**
 * Single sign-on's calls (shared/contract/integrations.ts): the tenant's provider and domains, made by the
 * mentor in person; the public start of a sign-in; and the provider's callback — a browser redirect, outside
 * the JSON API — which sends the browser on to the portal's sign-in page with a one-time code (or with the
 * reason it failed), and the code exchanged for the session's tokens (/login/sso/finish).
 */

import { ssoRouter } from '@shared/contract/integrations';
import { localMessage } from '@shared/i18n/message';
import type { Device } from '@shared/schemas/common';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MailService } from '../../adapters/mail';
import { toApiUser } from '../../auth/current-user';
import type { TokenService } from '../../auth/tokens';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { notFound, unauthorized } from '../../http/errors';
import { API_PREFIX, created, ok, serve } from '../../http/routes';
import type { SeatPlans } from '../../tenant/accounting';
import type { SecretBox } from '../core/sealed';
import { txtLookup } from './dns';
import {
  callbackUrl,
  finishCallback,
  finishSamlResponse,
  type SsoDeps,
  SsoRefused,
  startSso,
  takeHandoff,
} from './login';
import { serviceProvider, spMetadataXml } from './saml';
import { saveSamlConnection } from './saml-settings';
import {
  addDomain,
  deleteConnection,
  mailDomainCode,
  removeDomain,
  saveOidcConnection,
  ssoSettingsOf,
  verifyDomain,
} from './service';

export function ssoRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    config: Config;
    secrets: SecretBox;
    seatPlans: SeatPlans;
    mail: MailService;
    tokens: TokenService;
  },
) {
  const { db, config } = deps;
  const publicUrl = config.publicUrl.replace(/\/$/, '');
  // the provider's address is one a tenant typed: plain http to this machine only outside production
  const allowLoopbackHttp = config.env !== 'production';
  const sso: SsoDeps = { ...deps, publicUrl, allowLoopbackHttp };
  const lookupTxt = txtLookup(config.integrations.dnsServers);

  serve(app, ssoRouter, {
    async ssoSettings({ caller }) {
      const { entityId, acsUrl, nameIdFormat, metadataUrl } = serviceProvider(publicUrl, caller.id);
      return ok({
        data: {
          callbackUrl: callbackUrl(publicUrl),
          saml: { entityId, acsUrl, nameIdFormat, metadataUrl },
          ...(await ssoSettingsOf(db, caller.id)),
        },
      });
    },
    async saveSso({ body, caller }) {
      return ok({
        data: await saveOidcConnection(
          { db, secrets: deps.secrets, allowLoopbackHttp },
          caller.id,
          body,
          caller.actor,
        ),
      });
    },
    async saveSamlSso({ body, caller }) {
      return ok({ data: await saveSamlConnection({ db, allowLoopbackHttp }, caller.id, body, caller.actor) });
    },
    async removeSso({ caller }) {
      await deleteConnection(db, caller.id, caller.actor);
      return ok({ data: { ok: true } });
    },
    async addSsoDomain({ body, caller }) {
      return created({ data: await addDomain(db, caller.id, body.domain, caller.actor) });
    },
    async mailSsoDomainCode({ params, body, caller }) {
      return ok({ data: await mailDomainCode(deps, caller.id, params.id, body.mailbox) });
    },
    async verifySsoDomain({ params, body, caller }) {
      return ok({ data: await verifyDomain(db, caller.id, params.id, body, caller.actor, lookupTxt) });
    },
    async removeSsoDomain({ params, caller }) {
      await removeDomain(db, caller.id, params.id, caller.actor);
      return ok({ data: { ok: true } });
    },
    async ssoStart({ body }) {
      return ok({ data: await startSso(sso, body) });
    },
    async ssoFinish({ body }) {
      const { userId, device } = await takeHandoff(db, body.handoff);
      const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      if (!user || user.isDeleted) throw unauthorized('This account no longer exists.', 'USER_GONE');
      const issued = await deps.tokens.issue(user, device as Device);
      return ok({
        data: {
          user: toApiUser(user),
          token: issued.token,
          refreshToken: issued.refreshToken,
          deletionCanceled: false,
        },
      });
    },
  });

  const landing = landingPage(publicUrl);

  // the OpenID provider sends the browser back here (the redirect URI the tenant registers with it)
  app.get(`${API_PREFIX}/login/sso/callback`, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return landing(request, reply, () =>
      finishCallback(sso, { state: text(q.state), code: text(q.code), error: text(q.error) }),
    );
  });

  samlRoutes(app, db, sso, landing);
}

type Landing = ReturnType<typeof landingPage>;

/** Where the browser goes once the provider has answered: the sign-in page, with a code or the reason. */
function landingPage(publicUrl: string) {
  return (request: FastifyRequest, reply: FastifyReply, run: () => Promise<{ handoff: string }>) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return run().then(
      ({ handoff }) => reply.redirect(`${publicUrl}/login/sso#handoff=${encodeURIComponent(handoff)}`, 303),
      (err) => {
        if (!(err instanceof SsoRefused)) throw err;
        request.log.info({ reason: err.reason, detail: err.message }, 'single sign-on refused');
        const page = new URLSearchParams({
          error: err.reason,
          ...(err.organisation ? { organisation: err.organisation } : {}),
        });
        return reply.redirect(`${publicUrl}/login/sso?${page}`, 303);
      },
    );
  };
}

function samlRoutes(app: FastifyInstance, db: Db, sso: SsoDeps, landing: Landing) {
  const { publicUrl } = sso;
  // SAML: Waymark's metadata per organisation (its entity id), and the assertion consumer service, where the
  // identity provider's page POSTs the Response (HTTP-POST binding: a form, parsed in a scope of its own)
  const tenantOf = async (id: string) => {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const [row] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.id, id));
    return row?.role === 'TENANT' ? row.id : null;
  };
  app.get(`${API_PREFIX}/sso/saml/:tenant/metadata`, async (request, reply) => {
    const tenant = await tenantOf((request.params as { tenant: string }).tenant);
    if (!tenant) throw notFound(localMessage('errors.sso.noOrganisation'));
    return reply
      .header('cache-control', 'public, max-age=300')
      .type('application/samlmetadata+xml')
      .send(spMetadataXml(serviceProvider(publicUrl, tenant)));
  });
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 512 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.post(`${API_PREFIX}/sso/saml/:tenant/acs`, async (request, reply) => {
      const tenant = await tenantOf((request.params as { tenant: string }).tenant);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const response = typeof body.SAMLResponse === 'string' ? body.SAMLResponse : undefined;
      return landing(request, reply, async () => {
        if (!tenant) throw new SsoRefused('EXPIRED', null, 'no such organisation');
        return finishSamlResponse(sso, tenant, response);
      });
    });
  });
}
