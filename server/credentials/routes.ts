/**
 * Credentials over HTTP: the issuer's DID document (/.well-known/did.json), an award's credential and its
 * status, the status lists, verification of any credential, revocation, and the achievement image the
 * credentials point at.
 */
import { credentialsRouter } from '@shared/contract/credentials';
import { credentialFromText, unreadReport } from '@shared/credentials/text';
import { awardKindOf } from '@shared/rules/test-status';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { StorageAdapter } from '../adapters/storage';
import { findLink } from '../assessments/engine/link-life';
import type { LinkRow } from '../assessments/tables';
import { certificateKey, earnedAward } from '../awards/info';
import { assignedRoadmaps } from '../catalogue/tables';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { forbidden, notFound } from '../http/errors';
import type { Caller } from '../http/routes';
import { created, ok, serve, withJsonText } from '../http/routes';
import { credentialUrl, verifyPageUrl } from './build';
import { emblemSvg } from './emblem';
import { AwardNotFound, type CredentialService, STATUS_MAX_AGE_S } from './service';

export const VC_MEDIA_TYPE = 'application/vc+ld+json';
const NO_AWARD = 'There is no award with this id.';

/** Who may revoke an award: platform staff, or the mentor who assigned the roadmap the test was on. */
async function revokerRole(db: Db, config: Config, link: LinkRow, caller: Caller | null) {
  if (!caller) return null;
  if (
    caller.user.emailVerified &&
    config.credentials.platformStaff.includes(caller.user.email.toLowerCase())
  ) {
    return 'PLATFORM' as const;
  }
  if (caller.user.role !== 'TENANT' || !link.assignedRoadmapId) return null;
  const [assigned] = await db
    .select({ by: assignedRoadmaps.assignedBy, source: assignedRoadmaps.source })
    .from(assignedRoadmaps)
    .where(eq(assignedRoadmaps.id, link.assignedRoadmapId))
    .limit(1);
  return assigned?.source === 'TENANT' && assigned.by === caller.id ? ('MENTOR' as const) : null;
}

export interface CredentialDeps {
  db: Db;
  config: Config;
  credentials: CredentialService;
  storage: StorageAdapter;
}

export function credentialRoutes(app: FastifyInstance, deps: CredentialDeps) {
  const { db, config } = deps;
  const current = () => deps.credentials;

  const asVc = (reply: FastifyReply) => reply.type(VC_MEDIA_TYPE);

  async function awardLink(id: string): Promise<LinkRow> {
    const link = await findLink(db, id);
    if (!link || !earnedAward(link) || !awardKindOf(link.type)) throw notFound(NO_AWARD);
    return link;
  }

  serve(app, credentialsRouter, {
    async getCredential({ params, reply }) {
      const row = await current().publicCopy(params.id);
      if (!row) throw notFound(NO_AWARD);
      asVc(reply).header('cache-control', 'public, max-age=300');
      // the same document object while the process's copy lasts: serialized once, not on every read
      return ok(withJsonText(row.document));
    },

    async credentialStatusList({ params, reply }) {
      const found = await current().statusList(params.list);
      if (!found) throw notFound('There is no such status list.');
      asVc(reply)
        .header('cache-control', `public, max-age=${STATUS_MAX_AGE_S}`)
        .header('last-modified', found.updatedAt.toUTCString());
      return ok(withJsonText(found.document));
    },

    async credentialStatus({ params, caller }) {
      const link = await awardLink(params.id);
      const revocation = await current().revocationOf(link.linkId);
      const role = await revokerRole(db, config, link, caller);
      const isOwner = caller !== null && caller.id === link.userId;
      return ok({
        data: {
          awardId: link.linkId,
          credentialUrl: credentialUrl(config.publicUrl, link.linkId),
          verifyUrl: verifyPageUrl(config.publicUrl, link.linkId),
          issuer: current().did,
          status: revocation ? ('revoked' as const) : ('active' as const),
          revokedAt: revocation?.revokedAt.toISOString() ?? null,
          reason: revocation && (isOwner || role) ? revocation.reason : null,
          canRevoke: role !== null && !revocation,
        },
      });
    },

    async verifyCredential({ body }) {
      // an object is bounded by the schema (depth, size); text is read here, with the same bounds
      let credential: unknown = body.credential;
      if (typeof credential === 'string') {
        const read = credentialFromText(credential);
        if (!read.ok) return ok({ data: unreadReport(read.problem) });
        credential = read.credential;
      }
      return ok({ data: await current().verify(credential) });
    },

    async revokeCredential({ params, body, caller }) {
      const link = await awardLink(params.id);
      const role = await revokerRole(db, config, link, caller);
      if (!role) {
        throw forbidden(
          'Only the mentor who assigned the roadmap this test was on, or platform staff, can revoke this award.',
        );
      }
      try {
        const { revocation, already } = await current().revoke(
          link.linkId,
          { id: caller.id, as: role, actor: caller.actor },
          body.reason,
        );
        const data = {
          awardId: revocation.awardId,
          revokedAt: revocation.revokedAt.toISOString(),
          reason: revocation.reason,
          revokedAs: revocation.revokedAs,
        };
        return already ? ok({ data, message: 'This award was already revoked.' }) : created({ data });
      } catch (err) {
        if (err instanceof AwardNotFound) throw notFound(NO_AWARD);
        throw err;
      }
    },
  });

  // the issuer's DID document (did:web): the keys that sign, and every earlier one
  app.get('/.well-known/did.json', async (_request, reply) => {
    const doc = await current().keys.didDocument();
    return reply
      .type('application/did+json')
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send(doc);
  });
  // a PUBLIC_URL with a path makes a did:web with a path, whose document is {path}/did.json
  const path = new URL(config.publicUrl).pathname.replace(/\/$/, '');
  if (path) {
    app.get(`${path}/did.json`, async (_request, reply) =>
      reply
        .type('application/did+json')
        .header('access-control-allow-origin', '*')
        .send(await current().keys.didDocument()),
    );
  }

  // the achievement image a credential names: the award's stored image once generated, else its emblem
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/credentials/:id/image',
    handler: async (request, reply) => {
      const { id } = request.params as { id: string };
      const link = /^[A-Za-z0-9_-]{10,64}$/.test(id) ? await findLink(db, id) : null;
      const kind = link && earnedAward(link) ? awardKindOf(link.type) : null;
      if (!link || !kind) throw notFound(NO_AWARD);
      if (link.certificateGenerated && link.certificatePath) {
        const { storage } = deps;
        const url = storage.publicUrl(link.certificatePath ?? certificateKey(link.linkId));
        return reply.header('cache-control', 'public, max-age=3600').redirect(url, 302);
      }
      return reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=300')
        .header('access-control-allow-origin', '*')
        .send(emblemSvg(kind));
    },
  });
}
