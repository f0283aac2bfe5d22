/**
 * The payments adapter (per-seat subscriptions): one interface, two implementations.
 *
 * - sandbox (default): no outside service. A checkout session is a row of ours; the browser goes to the
 *   sandbox checkout page this server renders (/sandbox-checkout/{id}); Pay there makes the sandbox send
 *   Stripe-format events (customer.subscription.created/updated, checkout.session.completed), signed
 *   exactly as Stripe signs them, to our own webhook endpoint. Its plan is the plans as sold: 75 rupees
 *   per seat per month, billed annually — a yearly price of 900 rupees per seat.
 * - Stripe (STRIPE_SECRET_KEY set): Checkout Sessions, prices and subscriptions through Stripe's REST API
 *   with fetch (form-encoded, Bearer key, idempotency keys), webhooks signed with STRIPE_WEBHOOK_SECRET.
 *
 * Both verify webhooks with the same code (`verifyStripeSignature`, in stripe-wire.ts with the rest of
 * Stripe's wire format): Stripe-Signature `t=…,v1=…`, where v1
 * is hex HMAC-SHA256 of `${t}.${raw body}` keyed with the endpoint secret, compared in constant time, and
 * `t` at most 300 s away from now.
 */
import { randomBytes } from 'node:crypto';
import type { PeriodType } from '@shared/rules/seats';
import {
  formEncode,
  fromStripeSubscription,
  type ProviderSubscription,
  parseEvent,
  periodOf,
  type StripeEvent,
  StripeSubscription,
  signStripePayload,
  verifyStripeSignature,
} from './stripe-wire';

// ---------------------------------------------------------------------------------------------------------
// the interface

export interface PlanPrice {
  id: string;
  /** One seat for one period, minor units. */
  unitAmount: number;
  currency: string;
  periodType: PeriodType;
  productName: string;
}

export interface CheckoutRequest {
  kind: 'SUBSCRIBE' | 'ADD_SEATS';
  tenantId: string;
  tenantEmail: string;
  customerId: string | null;
  price: PlanPrice;
  /** SUBSCRIBE: paid seats of the new subscription; ADD_SEATS: seats added. */
  quantity: number;
  /** ADD_SEATS: what one added seat costs for the rest of the period, minor units. */
  proratedUnitAmount: number;
  /** Stripe coupon of the tenant's offer, if any. */
  couponId: string | null;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

export interface CreatedCheckout {
  id: string;
  url: string;
}

export interface PaymentsAdapter {
  readonly kind: 'sandbox' | 'stripe';
  /** The plan's price (the single fixed price id). */
  plan(): Promise<PlanPrice>;
  createCheckout(req: CheckoutRequest): Promise<CreatedCheckout>;
  /** The subscription as the provider has it now, or null when the provider cannot say (sandbox). */
  retrieveSubscription(subscriptionId: string): Promise<ProviderSubscription | null>;
  /** Sets the paid seats of a subscription, without proration (added seats were paid at checkout). */
  setQuantity(sub: { subscriptionId: string; itemId: string | null }, quantity: number): Promise<void>;
  /** Verifies a webhook and parses its event; throws WebhookSignatureError. */
  verifyWebhook(payload: Buffer, header: string | undefined, now?: number): StripeEvent;
}

// ---------------------------------------------------------------------------------------------------------
// sandbox

/** The Enterprise plan as sold (mentor §1, §9): 75 rupees per user per month, billed annually. */
export const SANDBOX_PLAN: PlanPrice = {
  id: 'price_sandbox_enterprise_seat_yearly',
  unitAmount: 75 * 12 * 100,
  currency: 'inr',
  periodType: 'year',
  productName: 'Waymark Enterprise seat',
};

/** Ids in Stripe's form (`cs_test_…`, `sub_…`), unguessable. */
export const sandboxId = (prefix: string) =>
  `${prefix}_${randomBytes(18).toString('base64url').replace(/[-]/g, 'x')}`;

export class SandboxPayments implements PaymentsAdapter {
  readonly kind = 'sandbox' as const;
  constructor(
    /** Signs and verifies the sandbox's webhooks. */
    readonly webhookSecret: string,
    private readonly publicUrl: string,
  ) {}

  async plan(): Promise<PlanPrice> {
    return SANDBOX_PLAN;
  }

  async createCheckout(_req: CheckoutRequest): Promise<CreatedCheckout> {
    const id = sandboxId('cs_test');
    return { id, url: `${this.publicUrl}/sandbox-checkout/${id}` };
  }

  async retrieveSubscription(): Promise<ProviderSubscription | null> {
    // the sandbox sends customer.subscription.created before checkout.session.completed
    return null;
  }

  async setQuantity(): Promise<void> {
    // the sandbox holds no subscription of its own: our row is the only record
  }

  sign(payload: string, now = Math.floor(Date.now() / 1000)): string {
    return signStripePayload(payload, this.webhookSecret, now);
  }

  verifyWebhook(payload: Buffer, header: string | undefined, now?: number): StripeEvent {
    verifyStripeSignature(payload, header, this.webhookSecret, { now });
    return parseEvent(payload);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Stripe

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  apiBase?: string;
  fetch?: typeof fetch;
}

export class StripePayments implements PaymentsAdapter {
  readonly kind = 'stripe' as const;
  private cachedPlan: { plan: PlanPrice; at: number } | null = null;
  private readonly apiBase: string;
  private readonly http: typeof fetch;

  constructor(private readonly settings: StripeSettings) {
    this.apiBase = (settings.apiBase ?? 'https://api.stripe.com').replace(/\/$/, '');
    this.http = settings.fetch ?? fetch;
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<T> {
    const res = await this.http(`${this.apiBase}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.settings.secretKey}`,
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: body ? formEncode(body) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    const json = (await res.json().catch(() => ({}))) as { error?: { message?: string } } & T;
    if (!res.ok) {
      throw new PaymentProviderError(json.error?.message ?? `Stripe answered ${res.status}`, res.status);
    }
    return json;
  }

  async plan(): Promise<PlanPrice> {
    if (this.cachedPlan && Date.now() - this.cachedPlan.at < 3600_000) return this.cachedPlan.plan;
    const price = await this.call<{
      id: string;
      unit_amount: number | null;
      currency: string;
      recurring: { interval: string; interval_count?: number | null } | null;
      product: string | { name?: string };
      nickname: string | null;
    }>('GET', `/v1/prices/${encodeURIComponent(this.settings.priceId)}?expand[]=product`);
    const period = price.recurring ? periodOf(price.recurring) : null;
    if (!price.recurring || price.unit_amount == null || !period) {
      throw new PaymentProviderError(
        'STRIPE_PRICE_ID must be a recurring price with a unit amount, billed every day, week, month or year (the plans are sold billed annually: interval year).',
        500,
      );
    }
    const plan: PlanPrice = {
      id: price.id,
      unitAmount: price.unit_amount,
      currency: price.currency,
      periodType: period,
      productName:
        (typeof price.product === 'object' ? price.product.name : undefined) ?? price.nickname ?? 'Seat',
    };
    this.cachedPlan = { plan, at: Date.now() };
    return plan;
  }

  async createCheckout(req: CheckoutRequest): Promise<CreatedCheckout> {
    const common = {
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      client_reference_id: req.tenantId,
      metadata: req.metadata,
      expires_at: Math.floor(req.expiresAt.getTime() / 1000),
      ...(req.customerId ? { customer: req.customerId } : { customer_email: req.tenantEmail }),
    };
    const body =
      req.kind === 'SUBSCRIBE'
        ? {
            ...common,
            mode: 'subscription',
            line_items: [{ price: req.price.id, quantity: req.quantity }],
            subscription_data: { metadata: { tenantId: req.tenantId } },
            ...(req.couponId ? { discounts: [{ coupon: req.couponId }] } : {}),
          }
        : {
            ...common,
            mode: 'payment',
            line_items: [
              {
                quantity: req.quantity,
                price_data: {
                  currency: req.price.currency,
                  unit_amount: req.proratedUnitAmount,
                  product_data: { name: `${req.price.productName} (rest of the current period)` },
                },
              },
            ],
          };
    const session = await this.call<{ id: string; url: string | null }>(
      'POST',
      '/v1/checkout/sessions',
      body,
      `checkout-${req.tenantId}-${req.metadata.attempt ?? randomBytes(8).toString('hex')}`,
    );
    if (!session.url) throw new PaymentProviderError('Stripe gave no checkout URL.', 502);
    return { id: session.id, url: session.url };
  }

  async retrieveSubscription(subscriptionId: string): Promise<ProviderSubscription | null> {
    const raw = await this.call<unknown>('GET', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`);
    return fromStripeSubscription(StripeSubscription.parse(raw));
  }

  async setQuantity(sub: { subscriptionId: string; itemId: string | null }, quantity: number): Promise<void> {
    let itemId = sub.itemId;
    if (!itemId) itemId = (await this.retrieveSubscription(sub.subscriptionId))?.itemId ?? null;
    if (!itemId) throw new PaymentProviderError('The subscription has no item.', 502);
    await this.call(
      'POST',
      `/v1/subscriptions/${encodeURIComponent(sub.subscriptionId)}`,
      { items: [{ id: itemId, quantity }], proration_behavior: 'none' },
      `quantity-${sub.subscriptionId}-${quantity}-${randomBytes(6).toString('hex')}`,
    );
  }

  verifyWebhook(payload: Buffer, header: string | undefined, now?: number): StripeEvent {
    verifyStripeSignature(payload, header, this.settings.webhookSecret, { now });
    return parseEvent(payload);
  }
}

export interface PaymentsSettings {
  stripe: { secretKey: string; webhookSecret: string; priceId: string; apiBase: string } | null;
  sandboxWebhookSecret: string;
  publicUrl: string;
}

export function createPayments(settings: PaymentsSettings): PaymentsAdapter {
  if (settings.stripe) return new StripePayments(settings.stripe);
  return new SandboxPayments(settings.sandboxWebhookSecret, settings.publicUrl);
}
