/**
 * The server with the Stripe payments adapter (STRIPE_* settings), against a stand-in for Stripe's REST API
 * on a local port (STRIPE_API_BASE): the plan read from the price, Checkout Sessions created as Stripe
 * expects, webhooks verified with STRIPE_WEBHOOK_SECRET, a checkout completed before Stripe's subscription
 * event (the subscription is read from the API), extra seats raising the quantity without proration. Stripe
 * itself cannot be reached from here.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { signStripePayload } from '../adapters/stripe-wire';
import { tenantUsers, users } from '../db/schema';
import type { Person } from '../test/harness';
import { type Json, setupServer } from '../test/helper';

const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const PERIOD_START = Math.floor(Date.now() / 1000) - 10 * 86_400;
const PERIOD_END = PERIOD_START + 30 * 86_400;

/** What the stand-in received, and the subscription it holds. */
const received: { method: string; path: string; form: URLSearchParams; auth: string }[] = [];
const stripeSubscription = { quantity: 1, tenantId: '' };

const fake = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    const path = (req.url ?? '').split('?')[0]!;
    received.push({
      method: req.method!,
      path,
      form: new URLSearchParams(body),
      auth: String(req.headers.authorization),
    });
    const send = (status: number, json: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (req.method === 'GET' && path === '/v1/prices/price_seatyearly') {
      return send(200, {
        id: 'price_seatyearly',
        unit_amount: 90000,
        currency: 'inr',
        recurring: { interval: 'year', interval_count: 1 },
        product: { name: 'Enterprise seat' },
        nickname: null,
      });
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_${randomBytes(8).toString('hex')}`;
      return send(200, { id, url: `https://checkout.stripe.com/c/pay/${id}` });
    }
    if (path === '/v1/subscriptions/sub_stripe1') {
      if (req.method === 'POST')
        stripeSubscription.quantity = Number(new URLSearchParams(body).get('items[0][quantity]'));
      return send(200, {
        id: 'sub_stripe1',
        object: 'subscription',
        customer: 'cus_stripe1',
        status: 'active',
        start_date: PERIOD_START,
        metadata: { tenantId: stripeSubscription.tenantId },
        items: {
          data: [
            {
              id: 'si_stripe1',
              quantity: stripeSubscription.quantity,
              current_period_start: PERIOD_START,
              current_period_end: PERIOD_END,
              price: {
                id: 'price_seatyearly',
                unit_amount: 90000,
                currency: 'inr',
                recurring: { interval: 'year' },
              },
            },
          ],
        },
      });
    }
    return send(404, { error: { message: `No such route ${req.method} ${path}` } });
  });
});
await new Promise<void>((done) => fake.listen(0, '127.0.0.1', done));
afterAll(() => new Promise<void>((done) => fake.close(() => done())));

const server = setupServer({
  env: {
    STRIPE_SECRET_KEY: 'sk_test_51Hstandin',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_ID: 'price_seatyearly',
    STRIPE_API_BASE: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
  },
});

const json = async (method: 'GET' | 'POST', url: string, who?: Person, payload?: object) => {
  const res = await server.app.inject({ method, url: `/api${url}`, headers: who?.headers, payload });
  return { status: res.statusCode, body: res.json() as Json };
};

function webhook(type: string, object: object) {
  const payload = JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  return server.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': signStripePayload(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)),
    },
    payload,
  });
}

describe('per-seat billing with the Stripe adapter', () => {
  it('buys seats through Stripe Checkout and applies Stripe-signed webhooks', async () => {
    const signed = await server.signedIn('TENANT');
    const tenant: Person = {
      id: signed.user._id,
      email: signed.account.email,
      headers: { authorization: `Bearer ${signed.token}` },
    };
    stripeSubscription.tenantId = tenant.id;
    const learners: string[] = [];
    for (let i = 0; i < 12; i++) {
      const [u] = await server.db
        .insert(users)
        .values({
          firebaseUid: randomUUID(),
          email: `stripe-${randomBytes(4).toString('hex')}@example.com`,
          role: 'USER',
          emailVerified: true,
        })
        .returning({ id: users.id, email: users.email });
      learners.push(u!.id);
      if (i < 10) await json('POST', '/tenant/users/add-user-v2', tenant, { email: u!.email });
    }

    // the plan comes from the Stripe price: yearly, 900 rupees a seat
    const info = await json('GET', '/tenant/subscription/info', tenant);
    expect(info.body.data).toMatchObject({
      priceId: 'price_seatyearly',
      periodType: 'year',
      planAmount: 900,
    });

    const created = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: 'price_seatyearly',
      quantity: 11,
      learnerId: learners[10],
    });
    expect(created.status).toBe(200);
    expect(created.body.data.url).toBe(`https://checkout.stripe.com/c/pay/${created.body.data.id}`);
    const checkout = received.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(checkout.auth).toBe('Bearer sk_test_51Hstandin');
    expect(checkout.form.get('mode')).toBe('subscription');
    expect(checkout.form.get('line_items[0][price]')).toBe('price_seatyearly');
    expect(checkout.form.get('line_items[0][quantity]')).toBe('1');
    expect(checkout.form.get('subscription_data[metadata][tenantId]')).toBe(tenant.id);
    // no sandbox page for a Stripe session (the path is just another portal page)
    const page = await server.app.inject({ method: 'GET', url: `/sandbox-checkout/${created.body.data.id}` });
    expect(page.body).not.toContain('sandbox checkout');

    // Stripe's checkout.session.completed arrives before its customer.subscription.created
    const completed = await webhook('checkout.session.completed', {
      id: created.body.data.id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      customer: 'cus_stripe1',
      subscription: 'sub_stripe1',
      metadata: { tenantId: tenant.id },
    });
    expect(completed.statusCode).toBe(200);
    expect(received.some((r) => r.method === 'GET' && r.path === '/v1/subscriptions/sub_stripe1')).toBe(true);
    const after = await json('GET', '/tenant/subscription/info', tenant);
    expect(after.body.data).toMatchObject({
      isSubscribed: true,
      subscriptionQuantity: 1,
      periodType: 'year',
      subscriptionNextDue: new Date(PERIOD_END * 1000).toISOString(),
      seatCount: 11,
    });
    const [seat] = await server.db
      .select()
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, tenant.id), eq(tenantUsers.learnerId, learners[10]!)));
    expect(seat).toBeDefined();

    // one more seat: a payment for the rest of the period, then the quantity raised without proration
    const more = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: 'price_seatyearly',
      quantity: 12,
      learnerId: learners[11],
    });
    expect(more.status).toBe(200);
    const extra = received.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(extra.form.get('mode')).toBe('payment');
    const unit = Number(extra.form.get('line_items[0][price_data][unit_amount]'));
    // 20 of 30 days left of a 900-rupee (90000-paise) period
    expect(unit).toBeGreaterThan(59_000);
    expect(unit).toBeLessThanOrEqual(60_000);
    expect(more.body.data.amount).toBe(unit / 100);
    const paid = await webhook('checkout.session.completed', {
      id: more.body.data.id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'complete',
      payment_status: 'paid',
      customer: 'cus_stripe1',
      subscription: null,
    });
    expect(paid.statusCode).toBe(200);
    const update = received
      .filter((r) => r.method === 'POST' && r.path === '/v1/subscriptions/sub_stripe1')
      .at(-1)!;
    expect(update.form.get('items[0][id]')).toBe('si_stripe1');
    expect(update.form.get('items[0][quantity]')).toBe('2');
    expect(update.form.get('proration_behavior')).toBe('none');
    expect((await json('GET', '/tenant/subscription/info', tenant)).body.data).toMatchObject({
      subscriptionQuantity: 2,
      seatCount: 12,
    });

    // a webhook signed with another secret (the sandbox's, say) is refused
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'ping',
      created: 1,
      data: { object: {} },
    });
    const forged = await server.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signStripePayload(
          payload,
          server.config.payments.sandboxWebhookSecret,
          Math.floor(Date.now() / 1000),
        ),
      },
      payload,
    });
    expect(forged.statusCode).toBe(400);
  });
});
