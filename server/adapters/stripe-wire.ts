/**
 * Stripe's wire format, shared by both payments adapters (payments.ts) and the webhook handling: the
 * Stripe-Signature header (signing and verifying), the objects we read from Stripe as schemas, a
 * subscription as we keep it, and Stripe's form encoding.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
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

/** A webhook body as a Stripe event; throws WebhookSignatureError (malformed) when it is not one. */
export function parseEvent(payload: Buffer): StripeEvent {
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
