/**
 * Credentials over HTTP: the issuer's DID document (/.well-known/did.json), an award's credential and its
 * status, the status lists, verification of any credential, revocation, and the achievement image the
 * credentials point at — each a call to the credential service (service.ts) or to awards.ts.
 */
import { credentialsRouter } from '@shared/contract/credentials';
import { credentialFromText, unreadReport } from '@shared/credentials/text';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { StorageAdapter } from '../adapters/storage';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { notFound } from '../http/errors';
import { created, ok, serve, withJsonText } from '../http/routes';
import { achievementImage, awardStatus, noCredential, revokeAward } from './awards';
import { type CredentialService, STATUS_MAX_AGE_S } from './service';

export const VC_MEDIA_TYPE = 'application/vc+ld+json';

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
  const awards = () => ({ db, config, credentials: current() });

  serve(app, credentialsRouter, {
    async getCredential({ params, reply }) {
      const row = await current().publicCopy(params.id);
      if (!row) throw await noCredential(db, params.id);
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

    credentialStatus: async ({ params, caller }) =>
      ok({ data: await awardStatus(awards(), params.id, caller) }),

    async verifyCredential({ body }) {
      // an object is bounded by the schema (depth, size); text is read here, with the same bounds
      let credential: unknown = body.credential;
      if (typeof credential === 'string') {
        const read = credentialFromText(credential);
        if (!read.ok) return ok({ data: unreadReport(read.said) });
        credential = read.credential;
      }
      return ok({ data: await current().verify(credential) });
    },

    async revokeCredential({ params, body, caller }) {
      const { data, already } = await revokeAward(awards(), params.id, body.reason, caller);
      return already ? ok({ data, message: 'This award was already revoked.' }) : created({ data });
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
      const image = await achievementImage(db, deps.storage, id);
      if ('address' in image)
        return reply.header('cache-control', 'public, max-age=3600').redirect(image.address, 302);
      return reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=300')
        .header('access-control-allow-origin', '*')
        .send(image.svg);
    },
  });
}
