/** The webhook endpoints' calls (shared/contract/webhooks.ts): a person or a key with integrations:manage. */
import { webhooksRouter } from '@shared/contract/webhooks';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { badRequest } from '../../http/errors';
import { answer, created, ok, serve } from '../../http/routes';
import type { JobQueue } from '../../jobs/queue';
import type { SecretBox } from '../core/sealed';
import { WEBHOOKS_QUEUE, type WebhookSender } from './deliver';
import {
  createEndpoint,
  deliveriesPage,
  endpointsOf,
  queueTest,
  redeliverFailed,
  redeliverOne,
  removeEndpoint,
  rotateSecret,
  toDelivery,
  toEndpoint,
  updateEndpoint,
} from './service';

/** Asks for the endpoint's deliveries to be sent now (one job waiting per endpoint at most). */
export const wakeEndpoint = (jobs: JobQueue, endpointId: string) =>
  jobs.send(WEBHOOKS_QUEUE, { endpointId }, { singletonKey: endpointId });

export function webhookRoutes(
  app: FastifyInstance,
  deps: { db: Db; secrets: SecretBox; jobs: JobQueue; webhooks: WebhookSender },
) {
  const { db, jobs } = deps;
  const endpoints = { db, secrets: deps.secrets, outbound: deps.webhooks.outbound };
  serve(app, webhooksRouter, {
    async webhookList({ caller }) {
      return ok({ data: (await endpointsOf(db, caller.id)).map((r) => toEndpoint(r)) });
    },

    async createWebhook({ body, caller }) {
      const { row, secret } = await createEndpoint(endpoints, caller.id, caller.actor, body);
      return created({
        data: { ...toEndpoint(row), secret },
        message: 'Copy the signing secret now: it is shown this once.',
      });
    },

    async updateWebhook({ params, body, caller }) {
      return ok({
        data: toEndpoint(await updateEndpoint(endpoints, caller.id, params.id, caller.actor, body)),
      });
    },

    async removeWebhook({ params, caller }) {
      await removeEndpoint(db, caller.id, params.id, caller.actor);
      return ok({ data: { ok: true } });
    },

    async rotateWebhookSecret({ params, caller }) {
      const { row, secret } = await rotateSecret(endpoints, caller.id, params.id, caller.actor);
      return ok({
        data: { ...toEndpoint(row), secret },
        message:
          'Copy the new signing secret now: it is shown this once. The previous one also signs for 24 hours.',
      });
    },

    async testWebhook({ params, caller }) {
      const row = await queueTest(db, caller.id, params.id);
      await wakeEndpoint(jobs, params.id);
      return answer(202, { data: toDelivery(row), message: 'The test event is on its way.' });
    },

    async webhookDeliveries({ params, query, caller }) {
      const { cursor, limit, ...filter } = query;
      const page = await deliveriesPage(db, caller.id, params.id, filter, { cursor, limit });
      if (!page) throw badRequest('cursor: is not a cursor of this list', 'cursor');
      return ok({ data: page });
    },

    async redeliverWebhook({ params, caller }) {
      const row = await redeliverOne(db, caller.id, params.id, params.deliveryId, caller.actor);
      await wakeEndpoint(jobs, params.id);
      return ok({ data: toDelivery(row) });
    },

    async redeliverFailedWebhooks({ params, body, caller }) {
      const redelivered = await redeliverFailed(db, caller.id, params.id, body, caller.actor);
      if (redelivered) await wakeEndpoint(jobs, params.id);
      return ok({ data: { redelivered } });
    },
  });
}
