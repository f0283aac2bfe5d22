/** The system's calls (shared/contract/system.ts): health, the portal's settings, the local mailbox. */
import { systemRouter } from '@shared/contract/system';
import type { FastifyInstance } from 'fastify';
import type { IdentityAdapter } from '../adapters/identity';
import type { MailService } from '../adapters/mail';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { forbidden, notFound } from '../http/errors';
import { ok, serve } from '../http/routes';
import { assertDatabase } from './health';
import { mailboxEntries, mailboxFor } from './mailbox';

export function systemRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; identity: IdentityAdapter; mail: MailService },
) {
  const { db, config, identity, mail } = deps;
  serve(app, systemRouter, {
    async health() {
      await assertDatabase(db);
      return ok({ status: 'ok', uptime: Math.round(process.uptime()) });
    },
    async config({ request }) {
      return ok({
        data: {
          publicUrl: config.publicUrl,
          firebase: {
            apiKey: config.firebase.apiKey,
            authDomain: config.firebase.authDomain,
            projectId: config.firebase.projectId,
            emulatorHost: config.firebase.emulatorHost,
          },
          extension: config.extension,
          mailbox: mailboxFor(config, mail, request) === 'open',
        },
      });
    },
    async mailbox({ query, request }) {
      const state = mailboxFor(config, mail, request);
      if (state === 'off') throw notFound(`No such call: GET ${request.url.split('?')[0]}`);
      if (state === 'remote')
        throw forbidden('The local mailbox answers only requests made on this machine.');
      return ok({ data: await mailboxEntries(db, identity, query.to) });
    },
  });
}
