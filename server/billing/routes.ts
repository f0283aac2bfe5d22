/**
 * Billing calls: subscription info, offer code, checkout sessions, the provider's webhook, the sandbox
 * checkout page. The seat job (`billing.runSeatJob`, every 10 minutes) runs on the job queue (server/jobs/jobs.ts).
 */
import { billingRouter } from '@shared/contract/billing';
import type { FastifyInstance } from 'fastify';
import {
  createPayments,
  PaymentProviderError,
  type PaymentsAdapter,
  SandboxPayments,
  WebhookSignatureError,
} from '../adapters/payments';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { badRequest, HttpError } from '../http/errors';
import { ok, serve } from '../http/routes';
import { toCheckoutSession } from './checkout';
import { sandboxRoutes } from './sandbox';
import { Billing } from './service';

declare module '../app' {
  interface Services {
    billing?: Billing;
  }
}

/** The app's billing service (and payments adapter), created from the settings on first use. */
export function billingOf(
  app: FastifyInstance,
  opts: { payments?: PaymentsAdapter; now?: () => Date } = {},
): Billing {
  const services = app.services;
  services.billing ??= new Billing(
    services.database.db,
    opts.payments ??
      createPayments({
        stripe: services.config.payments.stripe,
        sandboxWebhookSecret: services.config.payments.sandboxWebhookSecret,
        publicUrl: services.config.publicUrl,
      }),
    { publicUrl: services.config.publicUrl, now: opts.now, log: app.log },
  );
  // seat accounting (tenant) reads the tenant's plan from billing through this
  services.seatPlans ??= services.billing;
  return services.billing;
}

const providerFailure = (err: unknown) =>
  err instanceof PaymentProviderError
    ? new HttpError(
        502,
        `The payment provider refused the checkout: ${err.message}. If this keeps happening, please contact us.`,
      )
    : err;

export function billingRoutes(app: FastifyInstance, _deps: { db: Db; config: Config }) {
  const billing = billingOf(app);

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
