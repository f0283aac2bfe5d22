/**
 * The system's calls (shared/contract/system.ts): health (with the read replica's state), the portal's
 * settings, the local mailbox.
 */
import { systemRouter } from '@shared/contract/system';
import type { FastifyInstance } from 'fastify';
import type { IdentityAdapter } from '../adapters/identity';
import type { MailService } from '../adapters/mail';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Replica } from '../db/replica';
import { forbidden, notFound } from '../http/errors';
import { ok, serve } from '../http/routes';
import { healthOf } from './health';
import { mailboxEntries, mailboxFor } from './mailbox';

export function systemRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; identity: IdentityAdapter; mail: MailService; replica: Replica | null },
) {
  const { db, config, identity, mail, replica } = deps;
  serve(app, systemRouter, {
    health: async () => ok(await healthOf(db, replica)),
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
