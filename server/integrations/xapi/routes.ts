/** The learning record store's calls (shared/contract/xapi.ts): a person or a key with integrations:manage. */
import { xapiRouter } from '@shared/contract/xapi';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { badRequest } from '../../http/errors';
import { ok, serve } from '../../http/routes';
import type { JobQueue } from '../../jobs/queue';
import type { SecretBox } from '../core/sealed';
import { XAPI_QUEUE, type XapiSender } from './send';
import { connect, connectionOf, disconnect, queuePage, resendFailed, sendTest } from './service';

/** Asks for the tenant's statements to be sent now (one job waiting per tenant at most). */
export const wakeTenant = (jobs: JobQueue, tenantId: string) =>
  jobs.send(XAPI_QUEUE, { tenantId }, { singletonKey: tenantId });

export function xapiRoutes(
  app: FastifyInstance,
  deps: { db: Db; secrets: SecretBox; jobs: JobQueue; xapi: XapiSender },
) {
  const { db, jobs } = deps;
  serve(app, xapiRouter, {
    async xapiConnection({ caller }) {
      return ok({ data: await connectionOf(db, caller.id) });
    },

    async connectXapi({ body, caller }) {
      return ok({ data: await connect(deps, caller.id, caller.actor, body) });
    },

    async disconnectXapi({ caller }) {
      await disconnect(db, caller.id, caller.actor);
      return ok({ data: { ok: true } });
    },

    async testXapi({ caller }) {
      return ok({ data: await sendTest(deps, caller.id) });
    },

    async xapiStatementQueue({ query, caller }) {
      const { cursor, limit, status } = query;
      const page = await queuePage(db, caller.id, { status }, { cursor, limit });
      if (!page) throw badRequest('cursor: is not a cursor of this list', 'cursor');
      return ok({ data: page });
    },

    async resendXapiStatements({ caller }) {
      const resent = await resendFailed(db, caller.id, caller.actor);
      if (resent) await wakeTenant(jobs, caller.id);
      return ok({ data: { resent } });
    },
  });
}
