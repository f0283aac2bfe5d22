/**
 * Per-seat billing through the HTTP API with the sandbox payments adapter: the subscription info, each
 * branch of the Add User subscription flow, checkout sessions and the sandbox checkout page (Pay sends
 * Stripe-signed webhooks to our endpoint, Cancel fails), the webhook (signature, idempotency by event id,
 * late events), offer codes, and removal of a subscribed tenant's seat at the end of the billing cycle.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PLAN, type SandboxPayments } from '../adapters/payments';
import { tenantUsers, users } from '../db/schema';
import type { Person } from '../test/harness';
import { type Json, setupServer } from '../test/helper';
import type { Billing } from './service';
import { checkoutSessions, offerCodes, subscriptions, webhookEvents } from './tables';

const server = setupServer();

async function person(role: 'USER' | 'TENANT', name: string): Promise<Person> {
  const signed = await server.signedIn(role, { name });
  return {
    id: signed.user._id,
    email: signed.account.email,
    headers: { authorization: `Bearer ${signed.token}` },
  };
}

async function quietLearner(name = 'Seat'): Promise<{ id: string; email: string }> {
  const email = `seat-${randomBytes(5).toString('hex')}@example.com`;
  const [u] = await server.db
    .insert(users)
    .values({ firebaseUid: randomUUID(), email, role: 'USER', name, emailVerified: true })
    .returning({ id: users.id });
  return { id: u!.id, email };
}

const json = async (method: 'GET' | 'POST' | 'DELETE', url: string, who?: Person, payload?: object) => {
  const res = await server.app.inject({ method, url: `/api${url}`, headers: who?.headers, payload });
  return { status: res.statusCode, body: res.json() as Json };
};
const add = (who: Person, email: string) => json('POST', '/tenant/users/add-user-v2', who, { email });
const info = async (who: Person) => (await json('GET', '/tenant/subscription/info', who)).body.data;
const billing = () => server.app.services.billing as Billing;
const sandbox = () => billing().payments as SandboxPayments;

/** A tenant holding `n` seats. */
async function tenantWithSeats(name: string, n: number) {
  const tenant = await person('TENANT', name);
  for (let i = 0; i < n; i++) {
    const l = await quietLearner(`${name} seat ${i}`);
    expect((await add(tenant, l.email)).body.data.outcome).toBe('ADDED');
  }
  return tenant;
}

/** The browser on the sandbox checkout page: reads it, then presses Pay (or Cancel). */
async function pay(url: string, button: 'pay' | 'cancel' = 'pay') {
  const path = new URL(url).pathname;
  const page = await server.app.inject({ method: 'GET', url: path });
  expect(page.statusCode).toBe(200);
  const res = await server.app.inject({
    method: 'POST',
    url: `${path}/${button}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  return { page: page.body, status: res.statusCode, location: String(res.headers.location) };
}

/** A Stripe event signed with the sandbox's webhook secret, as the sandbox (or Stripe) sends it. */
function signed(event: object, opts: { secretless?: boolean; at?: number } = {}) {
  const payload = JSON.stringify(event);
  const header = sandbox().sign(payload, opts.at);
  return server.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json',
      ...(opts.secretless ? {} : { 'stripe-signature': header }),
    },
    payload,
  });
}

/** The provider's view of a subscription we hold, as a Stripe event carries it. */
function stripeSubscription(
  sub: typeof subscriptions.$inferSelect,
  quantity: number,
  t: number,
  metadataTenantId: string,
) {
  return {
    id: sub.subscriptionId,
    object: 'subscription',
    customer: sub.customerId,
    status: 'active',
    start_date: t,
    metadata: { tenantId: metadataTenantId },
    items: {
      data: [
        {
          id: sub.itemId,
          quantity,
          current_period_start: t,
          current_period_end: t + 30 * 86_400,
          price: {
            id: SANDBOX_PLAN.id,
            unit_amount: 7500,
            currency: 'inr',
            recurring: { interval: 'month' },
          },
        },
      ],
    },
  };
}

describe('per-seat billing (sandbox)', () => {
  let learner: Person;

  beforeAll(async () => {
    learner = await person('USER', 'Lena Learner');
  }, 60_000);

  it('tells an unsubscribed tenant the plan: 10 free seats, 75 rupees per seat per month billed annually', async () => {
    const tenant = await person('TENANT', 'Fresh Tenant');
    expect(await info(tenant)).toEqual({
      isSubscribed: false,
      isAccessToAddUser: true,
      isOffered: false,
      subscriptionQuantity: 0,
      planAmount: 900,
      subscriptionAmount: 0,
      startingBalance: 0,
      subscriptionNextDue: null,
      nextDueAmount: 0,
      startDate: null,
      totalQuantity: 10,
      totalAmount: 900,
      periodType: 'year',
      priceId: SANDBOX_PLAN.id,
      currency: 'INR',
      freeSeats: 10,
      seatCount: 0,
      pendingInvitations: 0,
      offer: null,
    });
  });

  it('checks the checkout request: the plan price, seats beyond the free ones, the learner', async () => {
    const tenant = await tenantWithSeats('Checker', 2);
    const wrongPrice = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: 'price_other',
      quantity: 11,
    });
    expect(wrongPrice.status).toBe(400);
    expect(wrongPrice.body.field).toBe('priceId');
    const free = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 10,
    });
    expect(free.status).toBe(400);
    expect(free.body.field).toBe('quantity');
    const tooFew = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 1,
    });
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.field).toBe('quantity');
    const notLearner = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 11,
      learnerId: tenant.id,
    });
    expect(notLearner.status).toBe(400);
    expect(notLearner.body.field).toBe('learnerId');
    const malformed = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 'x',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe('quantity');
    // nothing was written
    expect(
      await server.db.select().from(checkoutSessions).where(eq(checkoutSessions.tenantId, tenant.id)),
    ).toEqual([]);
  });

  it('not subscribed, seats used: "not yet subscribed", then checkout, Pay, a subscription and the learner added', async () => {
    const tenant = await tenantWithSeats('Ten Seats', 10);
    const eleventh = await quietLearner('Eleventh');
    const refused = await add(tenant, eleventh.email);
    expect(refused.body.message).toBe('not yet subscribed');
    expect(refused.body.data.quantity).toBe(11);

    const created = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: refused.body.data.quantity,
      learnerId: refused.body.data.learnerId,
    });
    expect(created.status).toBe(200);
    const session = created.body.data;
    expect(session).toMatchObject({ status: 'OPEN', quantity: 11, amount: 900, currency: 'INR' });
    expect(session.id).toMatch(/^cs_test_/);
    expect(new URL(session.url).pathname).toBe(`/sandbox-checkout/${session.id}`);
    expect(
      (await json('GET', `/tenant/stripe/checkout-session/${session.id}`, tenant)).body.data.status,
    ).toBe('OPEN');
    // another tenant cannot read it
    const other = await person('TENANT', 'Nosy');
    expect((await json('GET', `/tenant/stripe/checkout-session/${session.id}`, other)).status).toBe(404);

    const paid = await pay(session.url);
    expect(paid.page).toContain('<html lang="en">');
    expect(paid.page).toContain('1 × ₹900.00');
    expect(paid.page).toContain('per year, ₹75.00 per seat per month billed annually');
    expect(paid.page).toMatch(/<button class="pay" type="submit">Pay ₹900\.00<\/button>/);
    expect(paid.page).toContain('>Cancel</button>');
    expect(paid.status).toBe(303);
    expect(paid.location).toBe('/portal/users?stripe-status=success');

    const after = await info(tenant);
    expect(after).toMatchObject({
      isSubscribed: true,
      subscriptionQuantity: 1,
      totalQuantity: 11,
      seatCount: 11,
      subscriptionAmount: 900,
      nextDueAmount: 900,
      isAccessToAddUser: false,
      periodType: 'year',
    });
    // the seat cycle is the plan's: a year
    const due = new Date(after.subscriptionNextDue).getTime() - new Date(after.startDate).getTime();
    expect(due / 86_400_000).toBeGreaterThanOrEqual(365);
    expect(due / 86_400_000).toBeLessThanOrEqual(366);
    const [seat] = await server.db
      .select()
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, tenant.id), eq(tenantUsers.learnerId, eleventh.id)));
    expect(seat).toBeDefined();
    expect(
      (await json('GET', `/tenant/stripe/checkout-session/${session.id}`, tenant)).body.data.status,
    ).toBe('COMPLETE');

    // paying again changes nothing
    const events = (await server.db.select().from(webhookEvents)).length;
    const again = await pay(session.url);
    expect(again.location).toBe('/portal/users?stripe-status=success');
    expect((await server.db.select().from(webhookEvents)).length).toBe(events);
    expect((await info(tenant)).subscriptionQuantity).toBe(1);
  });

  it('subscribed, no free seat: Payment Required, then the extra seat for the rest of the period', async () => {
    const tenant = await tenantWithSeats('Buyer', 10);
    const first = await quietLearner('First Paid');
    const s1 = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 11,
      learnerId: first.id,
    });
    await pay(s1.body.data.url);
    const next = await quietLearner('Second Paid');
    const refused = await add(tenant, next.email);
    expect(refused.body.data.outcome).toBe('PAYMENT_REQUIRED');
    expect(refused.body.data.user).toBeNull();
    const before = await info(tenant);
    // just subscribed: the rest of the year is (nearly) a whole one
    expect(before.totalAmount).toBeGreaterThan(899);
    expect(before.totalAmount).toBeLessThanOrEqual(900);
    // half a year on, a seat costs half a year, to the second (Stripe's proration model)
    const real = billing().now;
    const start = new Date(before.startDate!).getTime();
    const end = new Date(before.subscriptionNextDue!).getTime();
    const middle = Math.floor((start + end) / 2000) * 1000;
    billing().now = () => new Date(middle);
    try {
      const half = await info(tenant);
      const left = Math.floor(end / 1000) - middle / 1000;
      const total = Math.floor(end / 1000) - Math.floor(start / 1000);
      expect(half.totalAmount).toBe(Math.round((90_000 * left) / total) / 100);
      expect(half.totalAmount).toBeGreaterThan(449);
      expect(half.totalAmount).toBeLessThan(451);
    } finally {
      billing().now = real;
    }

    const s2 = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 12,
      learnerId: next.id,
    });
    expect(s2.status).toBe(200);
    expect(s2.body.data.amount).toBe(before.totalAmount);
    const already = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 11,
    });
    expect(already.status).toBe(400);
    expect(already.body.field).toBe('quantity');
    const paid = await pay(s2.body.data.url);
    expect(paid.page).toContain('Extra seats for the rest of this year, until');
    expect(paid.page).toContain('prorated from ₹900.00 per year');
    expect(paid.location).toBe('/portal/users?stripe-status=success');
    expect(await info(tenant)).toMatchObject({ subscriptionQuantity: 2, seatCount: 12, nextDueAmount: 1800 });

    // subscribed with a free seat: added at once
    await server.db.update(subscriptions).set({ quantity: 3 }).where(eq(subscriptions.tenantId, tenant.id));
    const third = await quietLearner('Third');
    expect((await add(tenant, third.email)).body.data.outcome).toBe('ADDED');
  });

  it('subscribed on an offer, no free seat: the offer limit, not a payment', async () => {
    const code = `TEAM${randomBytes(3).toString('hex').toUpperCase()}`;
    await server.db
      .insert(offerCodes)
      .values({ code, description: '20% off for teams', percentOff: 20, maxRedemptions: 5 });
    const tenant = await tenantWithSeats('Offered', 10);
    const invalid = await json('POST', '/tenant/subscription/apply-offer-code', tenant, {
      offerCode: 'NOPE',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ message: 'inValid Offer Code', field: 'offerCode' });
    const applied = await json('POST', '/tenant/subscription/apply-offer-code', tenant, {
      offerCode: code.toLowerCase(),
    });
    expect(applied.body.data).toEqual({
      isOffered: true,
      offerCode: code,
      percentOff: 20,
      description: '20% off for teams',
    });
    expect(await info(tenant)).toMatchObject({
      isOffered: true,
      planAmount: 720,
      offer: { code, percentOff: 20 },
    });
    const s = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 11,
    });
    expect(s.body.data.amount).toBe(720);
    const paid = await pay(s.body.data.url);
    expect(paid.page).toContain('20% offer applied');
    expect(await info(tenant)).toMatchObject({ isSubscribed: true, subscriptionAmount: 720, seatCount: 10 });
    // the paid seat is free now: one more is added
    expect((await add(tenant, (await quietLearner()).email)).body.data.outcome).toBe('ADDED');
    const refused = await add(tenant, (await quietLearner()).email);
    expect(refused.body.data.outcome).toBe('OFFER_LIMIT');
    expect(refused.body.message).toMatch(/Extra users must be paid for/);
    // a used-up code is invalid for others
    await server.db.update(offerCodes).set({ redemptions: 5 }).where(eq(offerCodes.code, code));
    const late = await person('TENANT', 'Late');
    expect(
      (await json('POST', '/tenant/subscription/apply-offer-code', late, { offerCode: code })).status,
    ).toBe(400);
  });

  it('Cancel on the checkout page fails the payment and changes nothing', async () => {
    const tenant = await tenantWithSeats('Canceller', 10);
    const s = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 11,
    });
    const cancelled = await pay(s.body.data.url, 'cancel');
    expect(cancelled.status).toBe(303);
    expect(cancelled.location).toBe('/portal/users?stripe-status=failed');
    expect(
      (await json('GET', `/tenant/stripe/checkout-session/${s.body.data.id}`, tenant)).body.data.status,
    ).toBe('CANCELED');
    expect((await info(tenant)).isSubscribed).toBe(false);
    const page = await server.app.inject({ method: 'GET', url: new URL(s.body.data.url).pathname });
    expect(page.body).toContain('This checkout was cancelled.');
    expect(
      (await server.app.inject({ method: 'GET', url: '/sandbox-checkout/cs_test_doesnotexist1' })).statusCode,
    ).toBe(404);
  });

  describe('the webhook', () => {
    it('refuses an unsigned, tampered, wrongly-keyed or stale event, and a body that is not JSON', async () => {
      const event = {
        id: `evt_${randomBytes(6).toString('hex')}`,
        object: 'event',
        type: 'ping',
        created: 1,
        data: { object: {} },
      };
      const unsigned = await signed(event, { secretless: true });
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.json()).toMatchObject({ field: 'stripe-signature', errorCode: 'BAD_SIGNATURE' });
      const payload = JSON.stringify(event);
      const header = sandbox().sign(payload);
      const tampered = await server.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        payload: payload.replace('ping', 'pong'),
      });
      expect(tampered.statusCode).toBe(400);
      const stale = await signed(event, { at: Math.floor(Date.now() / 1000) - 301 });
      expect(stale.statusCode).toBe(400);
      const wrongKey = await server.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'ab'.repeat(32)}`,
        },
        payload,
      });
      expect(wrongKey.statusCode).toBe(400);
      const notJson = await server.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': sandbox().sign('nope') },
        payload: 'nope',
      });
      expect(notJson.statusCode).toBe(400);
      // none of them was recorded
      const [recorded] = await server.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
      expect(recorded).toBeUndefined();
    });

    it('records and skips a signed event of a shape it does not read (no endless retries)', async () => {
      const id = `evt_${randomBytes(6).toString('hex')}`;
      const res = await signed({
        id,
        object: 'event',
        type: 'customer.subscription.updated',
        created: 1,
        data: { object: { id: 'sub_x' } },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ received: true, duplicate: false });
      const [recorded] = await server.db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
      expect(recorded?.type).toBe('customer.subscription.updated');
    });

    it("changes only the subscription owner's records, whatever the event's metadata names", async () => {
      const owner = await tenantWithSeats('Owner', 10);
      const bystander = await tenantWithSeats('Bystander', 3);
      const s = await json('POST', '/tenant/stripe/create-subscription', owner, {
        priceId: SANDBOX_PLAN.id,
        quantity: 12,
      });
      await pay(s.body.data.url);
      const [sub] = await server.db.select().from(subscriptions).where(eq(subscriptions.tenantId, owner.id));
      const bystanderBefore = await info(bystander);
      const t = Math.floor(Date.now() / 1000);
      const events = [
        ['customer.subscription.updated', 50],
        ['customer.subscription.created', 50],
        ['customer.subscription.deleted', 50],
      ] as const;
      for (const [type, quantity] of events) {
        const object = stripeSubscription(sub!, quantity, t, bystander.id);
        const res = await signed({
          id: `evt_${randomBytes(6).toString('hex')}`,
          object: 'event',
          type,
          created: t + 10,
          data: { object: type.endsWith('deleted') ? { ...object, status: 'canceled' } : object },
        });
        expect(res.statusCode, type).toBe(200);
        expect(await info(bystander), type).toEqual(bystanderBefore);
        const rows = await server.db
          .select({ tenantId: subscriptions.tenantId })
          .from(subscriptions)
          .where(eq(subscriptions.subscriptionId, sub!.subscriptionId));
        expect(rows, type).toEqual([{ tenantId: owner.id }]);
      }
      // a completed checkout of the bystander's that names the owner's subscription buys the bystander nothing
      const open = await json('POST', '/tenant/stripe/create-subscription', bystander, {
        priceId: SANDBOX_PLAN.id,
        quantity: 11,
      });
      expect(open.status).toBe(200);
      const completed = await signed({
        id: `evt_${randomBytes(6).toString('hex')}`,
        object: 'event',
        type: 'checkout.session.completed',
        created: t + 20,
        data: {
          object: {
            id: open.body.data.id,
            object: 'checkout.session',
            mode: 'subscription',
            payment_status: 'paid',
            customer: sub!.customerId,
            subscription: sub!.subscriptionId,
          },
        },
      });
      expect(completed.statusCode).toBe(200);
      expect(await info(bystander)).toEqual(bystanderBefore);
      const [bystanderRow] = await server.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.tenantId, bystander.id));
      expect(bystanderRow).toBeUndefined();
      const [ownerRow] = await server.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.tenantId, owner.id));
      expect(ownerRow!.subscriptionId).toBe(sub!.subscriptionId);
    });

    it('applies an event once by its id and ignores an older one arriving late', async () => {
      const tenant = await tenantWithSeats('Hooked', 10);
      const s = await json('POST', '/tenant/stripe/create-subscription', tenant, {
        priceId: SANDBOX_PLAN.id,
        quantity: 12,
      });
      await pay(s.body.data.url);
      const [sub] = await server.db.select().from(subscriptions).where(eq(subscriptions.tenantId, tenant.id));
      expect(sub!.quantity).toBe(2);
      const t = Math.floor(Date.now() / 1000);
      const subscription = (quantity: number) => stripeSubscription(sub!, quantity, t, tenant.id);
      const update = {
        id: `evt_${randomBytes(6).toString('hex')}`,
        object: 'event',
        type: 'customer.subscription.updated',
        created: t + 10,
        data: { object: subscription(5) },
      };
      const first = await signed(update);
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toEqual({ received: true, duplicate: false });
      expect((await info(tenant)).subscriptionQuantity).toBe(5);
      // the provider's own change of the seats later, by hand in the database: a replay must not undo it
      await server.db.update(subscriptions).set({ quantity: 4 }).where(eq(subscriptions.tenantId, tenant.id));
      const replay = await signed(update);
      expect(replay.statusCode).toBe(200);
      expect(replay.json().data.duplicate).toBe(true);
      expect((await info(tenant)).subscriptionQuantity).toBe(4);
      // an older event (created before the last one applied) with another id changes nothing
      const older = await signed({
        ...update,
        id: `evt_${randomBytes(6).toString('hex')}`,
        created: t - 100,
        data: { object: subscription(1) },
      });
      expect(older.statusCode).toBe(200);
      expect((await info(tenant)).subscriptionQuantity).toBe(4);
      // the subscription ends: not subscribed any more
      const ended = await signed({
        ...update,
        id: `evt_${randomBytes(6).toString('hex')}`,
        type: 'customer.subscription.deleted',
        created: t + 20,
        data: { object: { ...subscription(4), status: 'canceled' } },
      });
      expect(ended.statusCode).toBe(200);
      expect(await info(tenant)).toMatchObject({ isSubscribed: false, totalQuantity: 10 });
    });
  });

  it("removes a subscribed tenant's learner at the end of the billing cycle: disabled and readable until then", async () => {
    const tenant = await tenantWithSeats('Remover', 10);
    const s = await json('POST', '/tenant/stripe/create-subscription', tenant, {
      priceId: SANDBOX_PLAN.id,
      quantity: 11,
      learnerId: (await json('POST', '/tenant/users/before-check-add-user', tenant, { email: learner.email }))
        .body.data.learnerId,
    });
    await pay(s.body.data.url);
    const subscribed = await info(tenant);
    expect(subscribed.seatCount).toBe(11);

    const removed = await json('DELETE', `/tenant/users/remove-user/${learner.id}`, tenant);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({
      removed: false,
      isDisabled: true,
      accessUntil: subscribed.subscriptionNextDue,
    });
    // still readable, shown disabled, not changeable
    const user = await json('GET', `/tenant/users/user-info/${learner.id}`, tenant);
    expect(user.body.data).toMatchObject({ isDisabled: true, accessUntil: subscribed.subscriptionNextDue });
    const list = await json('GET', '/tenant/users/list?limit=15', tenant);
    expect(list.body.data.tenantUserList.find((e: Json) => e.learnerId._id === learner.id).isDisabled).toBe(
      true,
    );
    const assign = await json('POST', '/tenant/roadmap/assign-roadmap', tenant, {
      roadmapId: randomUUID(),
      userId: learner.id,
    });
    expect(assign.status).toBe(403);
    const range = `startTime=${Math.floor(Date.now() / 1000) - 86_400}&endTime=${Math.floor(Date.now() / 1000)}`;
    expect(
      (await json('GET', `/tenant/dashboard/time-spent-by-user-daywise/${learner.id}?${range}`, tenant))
        .status,
    ).toBe(200);
    // removing again changes nothing; the next period is billed without the seat
    expect(
      (await json('DELETE', `/tenant/users/remove-user/${learner.id}`, tenant)).body.data.isDisabled,
    ).toBe(true);
    expect(await info(tenant)).toMatchObject({ subscriptionQuantity: 0, nextDueAmount: 0, seatCount: 10 });

    // the job before the end of the cycle keeps the seat
    expect((await billing().runSeatJob()).removed).toBe(0);
    expect((await json('GET', `/tenant/users/user-info/${learner.id}`, tenant)).status).toBe(200);
    // at the end of the cycle the job removes it, and the sandbox renews the subscription
    const real = billing().now;
    const end = new Date(subscribed.subscriptionNextDue);
    billing().now = () => new Date(end.getTime() + 60_000);
    try {
      const job = await billing().runSeatJob();
      expect(job.removed).toBeGreaterThanOrEqual(1);
      expect((await json('GET', `/tenant/users/user-info/${learner.id}`, tenant)).status).toBe(404);
      const [seat] = await server.db
        .select()
        .from(tenantUsers)
        .where(and(eq(tenantUsers.tenantId, tenant.id), eq(tenantUsers.learnerId, learner.id)));
      expect(seat).toBeUndefined();
      const renewed = await info(tenant);
      expect(new Date(renewed.subscriptionNextDue).getTime()).toBeGreaterThan(end.getTime());
    } finally {
      billing().now = real;
    }
  });
});
