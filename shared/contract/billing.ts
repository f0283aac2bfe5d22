/**
 * Billing, served by server/billing: a tenant's subscription info, the offer code, checkout sessions that
 * buy seats, and the payment provider's webhook. The /tenant/* calls are for TENANT callers only.
 *
 * Checkout: POST /tenant/stripe/create-subscription answers `{ id, url }`; send the browser to `url` (the
 * sandbox checkout page of this server, or Stripe Checkout). It comes back to
 * /portal/users?stripe-status=success or ?stripe-status=failed. GET /tenant/stripe/checkout-session/{id}
 * reads a session again (its url and status). The payment provider calls POST /stripe/webhook.
 */
import { z } from 'zod';
import { ErrorBody, envelope, errors } from '../schemas/common';
import {
  CheckoutSession,
  CreateSubscriptionInput,
  OfferApplied,
  OfferCodeInput,
  SubscriptionInfo,
} from '../schemas/tenant';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;

export const tenantSubscriptionInfo = defineCall({
  method: 'GET',
  path: '/tenant/subscription/info',
  summary:
    "The tenant's seats and subscription (see the fields). The Payment Required modal shows Now: totalAmount, and Next Due (subscriptionNextDue): nextDueAmount + planAmount. An API key managing seats reads it (how many are free); paying stays a person's.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read', 'seats:write'],
  responses: { 200: envelope(SubscriptionInfo), ...errors },
});

export const tenantApplyOfferCode = defineCall({
  method: 'POST',
  path: '/tenant/subscription/apply-offer-code',
  summary:
    "Applies a promo / offer code to the tenant's account: its discount applies to the subscription bought afterwards. 400 message 'inValid Offer Code' (field offerCode) for an unknown, expired or used-up code.",
  tags: ['tenant'],
  access: TENANT,
  body: OfferCodeInput,
  responses: { 200: envelope(OfferApplied), ...errors },
});

export const tenantCreateSubscription = defineCall({
  method: 'POST',
  path: '/tenant/stripe/create-subscription',
  summary:
    "Starts a checkout for seats: quantity is the seats the tenant will hold in total (free ones included), learnerId the learner to add once paid. Not subscribed: a subscription for quantity − 10 paid seats; subscribed: the extra seats for the rest of the current period. Answers the session id and the url to send the browser to. 400 when priceId is not the plan's or quantity adds no paid seat.",
  tags: ['tenant'],
  access: TENANT,
  rateLimit: 'strict',
  body: CreateSubscriptionInput,
  responses: { 200: envelope(CheckoutSession), ...errors, 502: ErrorBody },
});

export const tenantCheckoutSession = defineCall({
  method: 'GET',
  path: '/tenant/stripe/checkout-session/{id}',
  summary: "One of the tenant's checkout sessions: where to send the browser (url) and whether it is paid.",
  tags: ['tenant'],
  access: TENANT,
  params: z.object({
    id: z
      .string()
      .max(203, 'is not a checkout session id')
      .regex(/^cs_[A-Za-z0-9_]{8,200}$/, 'is not a checkout session id'),
  }),
  responses: { 200: envelope(CheckoutSession), ...errors },
});

/** The largest webhook body accepted. */
export const MAX_WEBHOOK_BYTES = 256 * 1024;

export const stripeWebhook = defineCall({
  method: 'POST',
  path: '/stripe/webhook',
  summary:
    'The payment provider\'s webhook (Stripe format): the raw JSON body signed in the Stripe-Signature header (t=…,v1=HMAC-SHA256(secret, "t.body")), at most 300 s old. Handles checkout.session.completed, checkout.session.expired, customer.subscription.created/updated/deleted and invoice.paid; each event id is applied once. 400 when the signature is missing, wrong or stale.',
  tags: ['billing'],
  access: 'public',
  rawBody: { contentTypes: ['application/json'], maxBytes: MAX_WEBHOOK_BYTES },
  responses: { 200: envelope(z.object({ received: z.literal(true), duplicate: z.boolean() })), ...errors },
});

/** Every call of this module, served by server/billing/routes.ts. */
export const billingRouter = defineRouter({
  tenantSubscriptionInfo,
  tenantApplyOfferCode,
  tenantCreateSubscription,
  tenantCheckoutSession,
  stripeWebhook,
});
