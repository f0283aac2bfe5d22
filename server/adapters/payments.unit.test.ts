/**
 * The payments adapter's contract: the one webhook verification both implementations use accepts a
 * signature made exactly as Stripe documents it (hex HMAC-SHA256 keyed with the endpoint secret over
 * "{t}.{raw body}", in `Stripe-Signature: t=…,v1=…`) and refuses a tampered, stale, unsigned or
 * wrongly-keyed one; the Stripe implementation speaks Stripe's REST API (form encoding, Bearer key,
 * Checkout Sessions, subscription quantity without proration) — checked against a recording fetch, since
 * Stripe itself cannot be reached from here.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createPayments,
  PaymentProviderError,
  SANDBOX_PLAN,
  SandboxPayments,
  StripePayments,
} from './payments';
import {
  formEncode,
  fromStripeSubscription,
  periodOf,
  StripeSubscription,
  signStripePayload,
  verifyStripeSignature,
  WebhookSignatureError,
} from './stripe-wire';

const SECRET = 'whsec_test_6f1d2c3b4a5e6f708192a3b4c5d6e7f8';
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
const body = JSON.stringify({
  id: 'evt_1Test',
  object: 'event',
  type: 'checkout.session.completed',
  created: NOW,
  data: { object: { id: 'cs_test_abc' } },
});

/** Stripe's documented scheme, written independently of the adapter. */
const stripeHeader = (payload: string, secret: string, t: number) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`, 'utf8').digest('hex')}`;

const reason = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof WebhookSignatureError) return err.reason;
    throw err;
  }
  return 'accepted';
};

describe('webhook signatures (both adapters)', () => {
  const adapters = [
    new SandboxPayments(SECRET, 'http://127.0.0.1:8080'),
    new StripePayments({ secretKey: 'sk_test_x', webhookSecret: SECRET, priceId: 'price_x' }),
  ];

  it('accepts a signature made as Stripe documents it, also among several v1 and a v0', () => {
    expect(
      reason(() => verifyStripeSignature(body, stripeHeader(body, SECRET, NOW), SECRET, { now: NOW })),
    ).toBe('accepted');
    const sig = stripeHeader(body, SECRET, NOW).split(',v1=')[1];
    const rolled = `t=${NOW},v1=${'0'.repeat(64)},v1=${sig},v0=deadbeef`;
    expect(reason(() => verifyStripeSignature(body, rolled, SECRET, { now: NOW }))).toBe('accepted');
    // and our own signer produces exactly that header
    expect(signStripePayload(body, SECRET, NOW)).toBe(stripeHeader(body, SECRET, NOW));
    for (const adapter of adapters) {
      const event = adapter.verifyWebhook(Buffer.from(body), stripeHeader(body, SECRET, NOW), NOW);
      expect(event.id).toBe('evt_1Test');
      expect(event.type).toBe('checkout.session.completed');
    }
  });

  it('refuses a tampered body, a wrong secret, a stale or future timestamp, and a missing or empty header', () => {
    const header = stripeHeader(body, SECRET, NOW);
    const tampered = body.replace('cs_test_abc', 'cs_test_abd');
    expect(reason(() => verifyStripeSignature(tampered, header, SECRET, { now: NOW }))).toBe('mismatch');
    expect(
      reason(() => verifyStripeSignature(body, stripeHeader(body, 'whsec_other', NOW), SECRET, { now: NOW })),
    ).toBe('mismatch');
    expect(reason(() => verifyStripeSignature(body, header, SECRET, { now: NOW + 301 }))).toBe('stale');
    expect(reason(() => verifyStripeSignature(body, header, SECRET, { now: NOW - 301 }))).toBe('stale');
    expect(reason(() => verifyStripeSignature(body, header, SECRET, { now: NOW + 300 }))).toBe('accepted');
    expect(reason(() => verifyStripeSignature(body, undefined, SECRET, { now: NOW }))).toBe('missing');
    expect(reason(() => verifyStripeSignature(body, '', SECRET, { now: NOW }))).toBe('missing');
    expect(reason(() => verifyStripeSignature(body, `t=${NOW}`, SECRET, { now: NOW }))).toBe('malformed');
    expect(reason(() => verifyStripeSignature(body, `v1=${'a'.repeat(64)}`, SECRET, { now: NOW }))).toBe(
      'malformed',
    );
    // a signature of another timestamp does not carry over to a fresh one
    const old = stripeHeader(body, SECRET, NOW - 1000).split(',v1=')[1];
    expect(reason(() => verifyStripeSignature(body, `t=${NOW},v1=${old}`, SECRET, { now: NOW }))).toBe(
      'mismatch',
    );
    for (const adapter of adapters) {
      expect(reason(() => adapter.verifyWebhook(Buffer.from(tampered), header, NOW))).toBe('mismatch');
      expect(reason(() => adapter.verifyWebhook(Buffer.from(body), undefined, NOW))).toBe('missing');
    }
  });

  it('refuses a correctly signed body that is not a Stripe event', () => {
    const notEvent = '{"hello":"world"}';
    const adapter = adapters[0]!;
    expect(
      reason(() => adapter.verifyWebhook(Buffer.from(notEvent), stripeHeader(notEvent, SECRET, NOW), NOW)),
    ).toBe('malformed');
  });
});

describe('the Stripe implementation', () => {
  const recording = (responses: Record<string, unknown>) => {
    const calls: { method: string; url: string; body: string | null; headers: Record<string, string> }[] = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      calls.push({
        method: String(init.method),
        url,
        body: (init.body as string | undefined) ?? null,
        headers: init.headers as Record<string, string>,
      });
      const key = Object.keys(responses).find((k) => url.includes(k));
      const json = key ? responses[key] : { error: { message: 'No such thing' } };
      return new Response(JSON.stringify(json), { status: key ? 200 : 404 });
    }) as unknown as typeof fetch;
    return { calls, fetchImpl };
  };

  it('is chosen when the Stripe settings are present, the sandbox otherwise', () => {
    const stripe = {
      secretKey: 'sk_test_1',
      webhookSecret: SECRET,
      priceId: 'price_1',
      apiBase: 'https://api.stripe.com',
    };
    expect(createPayments({ stripe, sandboxWebhookSecret: SECRET, publicUrl: 'http://x' }).kind).toBe(
      'stripe',
    );
    expect(createPayments({ stripe: null, sandboxWebhookSecret: SECRET, publicUrl: 'http://x' }).kind).toBe(
      'sandbox',
    );
  });

  it('reads the plan from the price, creates Checkout Sessions and sets quantities as Stripe expects', async () => {
    const { calls, fetchImpl } = recording({
      '/v1/prices/price_seat': {
        id: 'price_seat',
        unit_amount: 90000,
        currency: 'inr',
        recurring: { interval: 'year' },
        product: { name: 'Enterprise seat' },
        nickname: null,
      },
      '/v1/checkout/sessions': { id: 'cs_test_123', url: 'https://checkout.stripe.com/c/pay/cs_test_123' },
      '/v1/subscriptions/sub_1': { id: 'sub_1' },
    });
    const stripe = new StripePayments({
      secretKey: 'sk_test_key',
      webhookSecret: SECRET,
      priceId: 'price_seat',
      fetch: fetchImpl,
    });
    const plan = await stripe.plan();
    expect(plan).toEqual({
      id: 'price_seat',
      unitAmount: 90000,
      currency: 'inr',
      periodType: 'year',
      productName: 'Enterprise seat',
    });
    const created = await stripe.createCheckout({
      kind: 'SUBSCRIBE',
      tenantId: 't-1',
      tenantEmail: 'mentor@example.com',
      customerId: null,
      price: plan,
      quantity: 3,
      proratedUnitAmount: 90000,
      couponId: 'co_20',
      metadata: { tenantId: 't-1', learnerId: 'l-1', attempt: 'a1' },
      successUrl: 'http://x/portal/users?stripe-status=success',
      cancelUrl: 'http://x/portal/users?stripe-status=failed',
      expiresAt: new Date(NOW * 1000 + 3600_000),
    });
    expect(created).toEqual({ id: 'cs_test_123', url: 'https://checkout.stripe.com/c/pay/cs_test_123' });
    const post = calls.find((c) => c.url.endsWith('/v1/checkout/sessions'))!;
    expect(post.method).toBe('POST');
    expect(post.headers.authorization).toBe('Bearer sk_test_key');
    expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(post.headers['idempotency-key']).toBeTruthy();
    const form = new URLSearchParams(post.body!);
    expect(form.get('mode')).toBe('subscription');
    expect(form.get('line_items[0][price]')).toBe('price_seat');
    expect(form.get('line_items[0][quantity]')).toBe('3');
    expect(form.get('subscription_data[metadata][tenantId]')).toBe('t-1');
    expect(form.get('metadata[learnerId]')).toBe('l-1');
    expect(form.get('discounts[0][coupon]')).toBe('co_20');
    expect(form.get('customer_email')).toBe('mentor@example.com');
    expect(form.get('success_url')).toBe('http://x/portal/users?stripe-status=success');
    expect(form.get('expires_at')).toBe(String(NOW + 3600));

    await stripe.setQuantity({ subscriptionId: 'sub_1', itemId: 'si_1' }, 4);
    const update = calls.at(-1)!;
    expect(update.url).toBe('https://api.stripe.com/v1/subscriptions/sub_1');
    const updateForm = new URLSearchParams(update.body!);
    expect(updateForm.get('items[0][id]')).toBe('si_1');
    expect(updateForm.get('items[0][quantity]')).toBe('4');
    expect(updateForm.get('proration_behavior')).toBe('none');
  });

  it("passes Stripe's error message on", async () => {
    const { fetchImpl } = recording({});
    const stripe = new StripePayments({
      secretKey: 'sk_test_key',
      webhookSecret: SECRET,
      priceId: 'price_gone',
      fetch: fetchImpl,
    });
    await expect(stripe.plan()).rejects.toThrow('No such thing');
  });

  it('reads a subscription of either API version (period on the subscription or on its item)', () => {
    const base = {
      id: 'sub_9',
      customer: 'cus_9',
      status: 'active',
      start_date: NOW,
      metadata: { tenantId: 't-9' },
      items: {
        data: [
          {
            id: 'si_9',
            quantity: 2,
            price: { id: 'price_seat', unit_amount: 7500, currency: 'inr', recurring: { interval: 'month' } },
          },
        ],
      },
    };
    const old = fromStripeSubscription(
      StripeSubscription.parse({ ...base, current_period_start: NOW, current_period_end: NOW + 2_678_400 }),
    );
    const item = base.items.data[0]!;
    const basil = fromStripeSubscription(
      StripeSubscription.parse({
        ...base,
        items: { data: [{ ...item, current_period_start: NOW, current_period_end: NOW + 2_678_400 }] },
      }),
    );
    for (const sub of [old, basil]) {
      expect(sub).toMatchObject({
        subscriptionId: 'sub_9',
        customerId: 'cus_9',
        itemId: 'si_9',
        status: 'ACTIVE',
        quantity: 2,
        unitAmount: 7500,
        periodType: 'month',
        tenantId: 't-9',
      });
      expect(sub.currentPeriodEnd.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    }
  });

  it("encodes nested bodies in Stripe's bracket form", () => {
    expect(
      decodeURIComponent(formEncode({ a: 1, b: { c: [{ d: 'x' }, { e: true }] }, skip: undefined })),
    ).toBe('a=1&b[c][0][d]=x&b[c][1][e]=true');
  });
});

describe('the billing period', () => {
  it("is the Stripe price's interval: every year, or twelve months, is a year; other counts are refused", async () => {
    expect(periodOf({ interval: 'year' })).toBe('year');
    expect(periodOf({ interval: 'year', interval_count: 1 })).toBe('year');
    expect(periodOf({ interval: 'month', interval_count: 12 })).toBe('year');
    expect(periodOf({ interval: 'month', interval_count: 1 })).toBe('month');
    expect(periodOf({ interval: 'month', interval_count: 3 })).toBeNull();
    expect(periodOf({ interval: 'fortnight' })).toBeNull();
    const quarterly = new StripePayments({
      secretKey: 'sk_test_key',
      webhookSecret: 'whsec_x',
      priceId: 'price_quarterly',
      fetch: (async () =>
        new Response(
          JSON.stringify({
            id: 'price_quarterly',
            unit_amount: 22500,
            currency: 'inr',
            recurring: { interval: 'month', interval_count: 3 },
            product: { name: 'Seat' },
            nickname: null,
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        )) as typeof fetch,
    });
    await expect(quarterly.plan()).rejects.toBeInstanceOf(PaymentProviderError);
  });

  it('of the sandbox is the plans as sold: 75 rupees per seat per month, billed annually', () => {
    expect(SANDBOX_PLAN).toMatchObject({ periodType: 'year', unitAmount: 75 * 12 * 100, currency: 'inr' });
  });
});
