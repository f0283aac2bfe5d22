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
 * Both verify webhooks with the same code (`verifyStripeSignature`): Stripe-Signature `t=…,v1=…`, where v1
 * is hex HMAC-SHA256 of `${t}.${raw body}` keyed with the endpoint secret, compared in constant time, and
 * `t` at most 300 s away from now.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PeriodType } from '@shared/rules/seats';
import { z } from 'zod';

/** Seconds a webhook's timestamp may be away from now (Stripe's default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

// ---------------------------------------------------------------------------------------------------------
// signatures

export class WebhookSignatureError extends Error {
  constructor(
    message: string,
    readonly reason: 'missing' | 'malformed' | 'stale' | 'mismatch',
  ) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** Hex HMAC-SHA256 of `${timestamp}.${payload}` keyed with the secret, as Stripe computes v1. */
export function stripeSignature(payload: string | Buffer, secret: string, timestamp: number): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`)
    .update(typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload)
    .digest('hex');
}

/** A Stripe-Signature header value for a payload: `t=…,v1=…`. */
export function signStripePayload(payload: string | Buffer, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${stripeSignature(payload, secret, timestamp)}`;
}

/**
 * Verifies a Stripe-Signature header against the raw body; throws WebhookSignatureError. Any one of the
 * v1 signatures may match (Stripe sends several while a secret is being rolled); other schemes are ignored.
 */
export function verifyStripeSignature(
  payload: string | Buffer,
  header: string | undefined,
  secret: string,
  opts: { now?: number; toleranceSeconds?: number } = {},
): void {
  if (!header) throw new WebhookSignatureError('The Stripe-Signature header is missing.', 'missing');
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1') signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0) {
    throw new WebhookSignatureError(
      'The Stripe-Signature header has no timestamp or no v1 signature.',
      'malformed',
    );
  }
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const tolerance = opts.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookSignatureError('The webhook is too old (or from the future).', 'stale');
  }
  const expected = Buffer.from(stripeSignature(payload, secret, timestamp), 'hex');
  const matches = signatures.some((s) => {
    if (!/^[0-9a-f]{64}$/i.test(s)) return false;
    const given = Buffer.from(s, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('The webhook signature does not match.', 'mismatch');
}

// ---------------------------------------------------------------------------------------------------------
// Stripe's objects, as far as we read them

const StripeItem = z.object({
  id: z.string(),
  quantity: z.number().int().nullish(),
  current_period_start: z.number().int().nullish(),
  current_period_end: z.number().int().nullish(),
  price: z.object({
    id: z.string(),
    unit_amount: z.number().int().nullish(),
    currency: z.string(),
    recurring: z.object({ interval: z.string(), interval_count: z.number().int().nullish() }).nullish(),
  }),
});

export const StripeSubscription = z.object({
  id: z.string(),
  object: z.literal('subscription').optional(),
  customer: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  status: z.string(),
  cancel_at_period_end: z.boolean().nullish(),
  start_date: z.number().int().nullish(),
  created: z.number().int().nullish(),
  // before API version 2025-03-31 the period is on the subscription; since, on its items
  current_period_start: z.number().int().nullish(),
  current_period_end: z.number().int().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  items: z.object({ data: z.array(StripeItem).min(1) }),
  discount: z.object({ coupon: z.object({ percent_off: z.number().nullish() }).nullish() }).nullish(),
});
export type StripeSubscription = z.infer<typeof StripeSubscription>;

export const StripeCheckoutSession = z.object({
  id: z.string(),
  object: z.literal('checkout.session').optional(),
  mode: z.string().nullish(),
  status: z.string().nullish(),
  payment_status: z.string().nullish(),
  customer: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  subscription: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  amount_total: z.number().int().nullish(),
});

export const StripeInvoice = z.object({
  id: z.string(),
  customer: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  subscription: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  starting_balance: z.number().int().nullish(),
  ending_balance: z.number().int().nullish(),
});

export const StripeEvent = z.object({
  id: z.string().min(1).max(255),
  object: z.literal('event').optional(),
  type: z.string().min(1).max(100),
  created: z.number().int(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type StripeEvent = z.infer<typeof StripeEvent>;

export const idOf = (v: string | { id: string } | null | undefined) =>
  v == null ? null : typeof v === 'string' ? v : v.id;

/** A subscription as we keep it, from Stripe's object. */
export interface ProviderSubscription {
  subscriptionId: string;
  customerId: string | null;
  itemId: string;
  status: 'ACTIVE' | 'TRIALING' | 'PAST_DUE' | 'INCOMPLETE' | 'UNPAID' | 'CANCELED';
  quantity: number;
  priceId: string;
  unitAmount: number;
  currency: string;
  periodType: PeriodType;
  percentOff: number;
  startDate: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  tenantId: string | null;
}

const STATUS: Record<string, ProviderSubscription['status']> = {
  active: 'ACTIVE',
  trialing: 'TRIALING',
  past_due: 'PAST_DUE',
  incomplete: 'INCOMPLETE',
  incomplete_expired: 'CANCELED',
  unpaid: 'UNPAID',
  canceled: 'CANCELED',
  paused: 'UNPAID',
};

/**
 * The billing period of a Stripe price's `recurring` (its interval, every `interval_count` of them), where
 * it is one we bill by: a day, a week, a month or a year (twelve months are a year); null otherwise.
 */
export function periodOf(recurring: { interval: string; interval_count?: number | null }): PeriodType | null {
  const count = recurring.interval_count ?? 1;
  const { interval } = recurring;
  if (interval === 'month' && count === 12) return 'year';
  if (count !== 1) return null;
  return interval === 'day' || interval === 'week' || interval === 'month' || interval === 'year'
    ? interval
    : null;
}

/** A subscription's period: its price's (a period we do not bill by is read as its interval). */
const asPeriod = (recurring: { interval: string; interval_count?: number | null } | null | undefined) =>
  recurring ? (periodOf(recurring) ?? periodOf({ interval: recurring.interval }) ?? 'month') : 'month';

export function fromStripeSubscription(sub: StripeSubscription): ProviderSubscription {
  const item = sub.items.data[0]!;
  const start = item.current_period_start ?? sub.current_period_start ?? sub.start_date ?? sub.created ?? 0;
  const end = item.current_period_end ?? sub.current_period_end ?? start;
  return {
    subscriptionId: sub.id,
    customerId: idOf(sub.customer),
    itemId: item.id,
    status: STATUS[sub.status] ?? 'INCOMPLETE',
    quantity: item.quantity ?? 0,
    priceId: item.price.id,
    unitAmount: item.price.unit_amount ?? 0,
    currency: item.price.currency,
    periodType: asPeriod(item.price.recurring),
    percentOff: Math.round(sub.discount?.coupon?.percent_off ?? 0),
    startDate: new Date((sub.start_date ?? sub.created ?? start) * 1000),
    currentPeriodStart: new Date(start * 1000),
    currentPeriodEnd: new Date(end * 1000),
    cancelAtPeriodEnd: sub.cancel_at_period_end ?? false,
    tenantId: sub.metadata?.tenantId ?? null,
  };
}

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

function parseEvent(payload: Buffer): StripeEvent {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    throw new WebhookSignatureError('The webhook body is not JSON.', 'malformed');
  }
  const parsed = StripeEvent.safeParse(json);
  if (!parsed.success)
    throw new WebhookSignatureError('The webhook body is not a Stripe event.', 'malformed');
  return parsed.data;
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

/** Stripe's form encoding: nested keys in brackets (`line_items[0][price]`). */
export function formEncode(value: Record<string, unknown>): string {
  const out = new URLSearchParams();
  const walk = (prefix: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) walk(`${prefix}[${i}]`, item);
    } else if (typeof v === 'object') {
      for (const [k, inner] of Object.entries(v as Record<string, unknown>)) walk(`${prefix}[${k}]`, inner);
    } else out.append(prefix, String(v));
  };
  for (const [k, v] of Object.entries(value)) walk(k, v);
  return out.toString();
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
