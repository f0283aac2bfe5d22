/**
 * Billing calls: subscription info, offer code, checkout sessions, the provider's webhook, the sandbox
 * checkout page. The seat job (`billing.runSeatJob`, every 10 minutes) runs on the job queue (server/jobs/jobs.ts).
 */
import { billingRouter } from '@shared/contract/billing';
import type { FastifyInstance } from 'fastify';
import { PaymentProviderError, SandboxPayments } from '../adapters/payments';
import { WebhookSignatureError } from '../adapters/stripe-wire';
import { badRequest, HttpError } from '../http/errors';
import { ok, serve } from '../http/routes';
import { toCheckoutSession } from './checkout';
import { sandboxRoutes } from './sandbox';
import type { Billing } from './service';

const providerFailure = (err: unknown) =>
  err instanceof PaymentProviderError
    ? new HttpError(
        502,
        `The payment provider refused the checkout: ${err.message}. If this keeps happening, please contact us.`,
      )
    : err;

export function billingRoutes(app: FastifyInstance, { billing }: { billing: Billing }) {
  serve(app, billingRouter, {
    async tenantSubscriptionInfo({ caller }) {
      return ok({ data: await billing.info(caller.id) });
    },
    async tenantApplyOfferCode({ body, caller }) {
      return ok({ data: await billing.applyOffer(caller.id, body.offerCode) });
    },
    async tenantCreateSubscription({ body, caller }) {
      try {
        const row = await billing.createCheckout({ id: caller.id, email: caller.user.email }, body);
        return ok({ data: toCheckoutSession(row) });
      } catch (err) {
        throw providerFailure(err);
      }
    },
    async tenantCheckoutSession({ params, caller }) {
      return ok({ data: toCheckoutSession(await billing.session(caller.id, params.id)) });
    },
    // the webhook reads its body raw (the contract's rawBody): the signature is over the exact bytes
    async stripeWebhook({ request }) {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('The webhook body is empty.', 'body');
      const header = request.headers['stripe-signature'];
      try {
        const result = await billing.webhook(body, Array.isArray(header) ? header.join(',') : header);
        return ok({ data: { received: true as const, duplicate: result.duplicate } });
      } catch (err) {
        if (err instanceof WebhookSignatureError) {
          throw new HttpError(400, err.message, {
            field: 'stripe-signature',
            errorCode: 'BAD_SIGNATURE',
          });
        }
        throw err;
      }
    },
  });

  if (billing.payments instanceof SandboxPayments) sandboxRoutes(app, billing, billing.payments);
}
