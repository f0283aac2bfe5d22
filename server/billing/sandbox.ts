/**
 * The sandbox checkout (payments adapter `sandbox`): a plain server-rendered page at
 * /sandbox-checkout/{sessionId} showing seats × price with Pay and Cancel. Pay sends Stripe-format events,
 * signed as Stripe signs them, to our own webhook endpoint (POST /api/stripe/webhook, through the same
 * route Stripe would call) and sends the browser to /portal/users?stripe-status=success; Cancel closes the
 * session and sends it to ?stripe-status=failed. The session id (unguessable) is the capability, as with
 * Stripe Checkout's URL.
 */
import { escapeHtml } from '@shared/formats/html';
import { formatDate } from '@shared/rules/format-date';
import { BILLED, monthlyPrice, type PeriodType, periodEnd, rupees } from '@shared/rules/seats';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type SandboxPayments, sandboxId } from '../adapters/payments';
import { API_PREFIX } from '../http/routes';
import type { CheckoutRow, SessionDetails } from './checkout';
import type { Billing } from './service';
import { checkoutSessions, subscriptions } from './tables';

const SESSION_ID = /^cs_test_[A-Za-z0-9_]{8,80}$/;

const money = (minor: number, currency: string) =>
  new Intl.NumberFormat('en-IN', { style: 'currency', currency: currency.toUpperCase() }).format(
    rupees(minor),
  );

const PERIOD_WORD: Record<string, string> = { day: 'day', week: 'week', month: 'month', year: 'year' };

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} · Waymark sandbox checkout</title>
<style>
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; background: #f4f5f7; color: #1b1f24; }
  main { max-width: 34rem; margin: 3rem auto; background: #fff; border-radius: 12px; padding: 2rem;
         box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
  h1 { font-size: 1.5rem; margin: 0 0 0.25rem; }
  .note { background: #fff4d6; border: 1px solid #c99a00; border-radius: 8px; padding: 0.75rem 1rem; }
  table { width: 100%; border-collapse: collapse; margin: 1.25rem 0; }
  caption { text-align: left; font-weight: 600; margin-bottom: 0.5rem; }
  th, td { padding: 0.5rem 0; border-bottom: 1px solid #d5d9de; text-align: left; }
  td.amount, th.amount { text-align: right; }
  tfoot th, tfoot td { font-weight: 700; border-bottom: none; }
  .actions { display: flex; gap: 0.75rem; flex-wrap: wrap; }
  form { margin: 0; }
  button { font: inherit; font-weight: 600; border-radius: 8px; padding: 0.7rem 1.4rem; cursor: pointer; }
  .pay { background: #1d4ed8; color: #fff; border: 2px solid #1d4ed8; }
  .cancel { background: #fff; color: #1b1f24; border: 2px solid #59636e; }
  button:focus-visible, a:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  a { color: #1d4ed8; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export function checkoutPage(row: CheckoutRow): string {
  const d = row.details as SessionDetails;
  const periodType: PeriodType = d.periodType ?? 'month';
  const period = PERIOD_WORD[periodType] ?? 'month';
  const seats = d.seats ?? row.paidSeats;
  const unit = row.kind === 'ADD_SEATS' ? (d.proratedUnitAmount ?? 0) : (d.unitAmount ?? 0);
  // as the plans are sold: per seat per month, billed by the period (annually)
  const perMonth = periodType === 'month' ? null : monthlyPrice(d.unitAmount ?? 0, periodType);
  const sold =
    perMonth === null ? '' : `, ${money(perMonth, row.currency)} per seat per month ${BILLED[periodType]}`;
  const what =
    row.kind === 'SUBSCRIBE'
      ? `Paid seats (the first 10 seats are free), per ${period}${sold}`
      : `Extra seats for the rest of this ${period}, until ${d.periodEnd ? formatDate(d.periodEnd) : 'it ends'} (prorated from ${money(d.unitAmount ?? 0, row.currency)} per ${period})`;
  if (row.status !== 'OPEN') {
    const said = {
      COMPLETE: 'This checkout is paid.',
      EXPIRED: 'This checkout has expired. Start again from the Users page.',
      CANCELED: 'This checkout was cancelled.',
    }[row.status];
    return page(
      'Checkout closed',
      `<h1>Checkout closed</h1><p role="status">${said}</p><p><a href="/portal/users">Back to your users</a></p>`,
    );
  }
  const id = encodeURIComponent(row.id);
  return page(
    'Pay for seats',
    `<h1>Pay for seats</h1>
<p class="note" role="note"><strong>Sandbox:</strong> this is a test checkout. No card is charged; Pay completes the payment as the payment provider would.</p>
<table>
  <caption>Your order</caption>
  <thead><tr><th scope="col">Item</th><th scope="col" class="amount">Amount</th></tr></thead>
  <tbody>
    <tr><td>${escapeHtml(d.productName ?? 'Seat')}: ${seats} × ${escapeHtml(money(unit, row.currency))}<br><small>${escapeHtml(what)}${d.percentOff ? `, ${d.percentOff}% offer applied` : ''}</small></td>
        <td class="amount">${escapeHtml(money(unit * seats, row.currency))}</td></tr>
    <tr><td>Seats you will hold in total</td><td class="amount">${row.totalSeats}</td></tr>
  </tbody>
  <tfoot><tr><th scope="row">Total due now</th><td class="amount">${escapeHtml(money(row.amount, row.currency))}</td></tr></tfoot>
</table>
<div class="actions">
  <form method="post" action="/sandbox-checkout/${id}/pay"><button class="pay" type="submit">Pay ${escapeHtml(money(row.amount, row.currency))}</button></form>
  <form method="post" action="/sandbox-checkout/${id}/cancel"><button class="cancel" type="submit">Cancel</button></form>
</div>`,
  );
}

/** The Stripe-format events a payment of this session makes, in the order Stripe's would matter. */
export async function sandboxEvents(
  billing: Billing,
  row: CheckoutRow,
  now: Date,
): Promise<{ type: string; object: object }[]> {
  const created = Math.floor(now.getTime() / 1000);
  const d = row.details as SessionDetails;
  const [existing] = await billing.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.tenantId, row.tenantId))
    .limit(1);
  const customer = existing?.customerId ?? sandboxId('cus');
  const session = {
    id: row.id,
    object: 'checkout.session',
    status: 'complete',
    payment_status: 'paid',
    customer,
    client_reference_id: row.tenantId,
    amount_total: row.amount,
    currency: row.currency,
    metadata: { tenantId: row.tenantId, learnerId: row.learnerId ?? '', kind: row.kind },
  };
  if (row.kind === 'ADD_SEATS') {
    return [
      { type: 'checkout.session.completed', object: { ...session, mode: 'payment', subscription: null } },
    ];
  }
  const plan = await billing.payments.plan();
  const subscriptionId = sandboxId('sub');
  const end = Math.floor(periodEnd(now, (d.periodType ?? plan.periodType) as PeriodType).getTime() / 1000);
  const subscription = {
    id: subscriptionId,
    object: 'subscription',
    customer,
    status: 'active',
    cancel_at_period_end: false,
    created,
    start_date: created,
    metadata: { tenantId: row.tenantId },
    discount: d.percentOff ? { coupon: { percent_off: d.percentOff } } : null,
    items: {
      object: 'list',
      data: [
        {
          id: sandboxId('si'),
          object: 'subscription_item',
          quantity: row.paidSeats,
          current_period_start: created,
          current_period_end: end,
          price: {
            id: plan.id,
            object: 'price',
            unit_amount: plan.unitAmount,
            currency: plan.currency,
            recurring: { interval: plan.periodType, interval_count: 1 },
          },
        },
      ],
    },
  };
  return [
    { type: 'customer.subscription.created', object: subscription },
    {
      type: 'checkout.session.completed',
      object: { ...session, mode: 'subscription', subscription: subscriptionId },
    },
  ];
}

export function sandboxRoutes(app: FastifyInstance, billing: Billing, payments: SandboxPayments) {
  const load = async (id: string) => {
    if (!SESSION_ID.test(id)) return null;
    const [row] = await billing.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, id))
      .limit(1);
    if (row?.provider !== 'sandbox') return null;
    return billing.expireIfDue(row);
  };
  const notFoundPage = page(
    'Checkout not found',
    '<h1>Checkout not found</h1><p>This checkout does not exist. Start again from the <a href="/portal/users">Users page</a>.</p>',
  );

  app.register(async (scope) => {
    // the page's forms post url-encoded bodies with nothing in them that we read
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_r, _b, done) => done(null, {}),
    );
    scope.get<{ Params: { id: string } }>('/sandbox-checkout/:id', async (request, reply) => {
      const row = await load(request.params.id);
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      if (!row) return reply.code(404).send(notFoundPage);
      return reply.send(checkoutPage(row));
    });
    scope.post<{ Params: { id: string } }>('/sandbox-checkout/:id/pay', async (request, reply) => {
      const row = await load(request.params.id);
      if (!row) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage);
      if (row.status === 'OPEN') {
        const now = billing.now();
        for (const event of await sandboxEvents(billing, row, now)) {
          const payload = JSON.stringify({
            id: sandboxId('evt'),
            object: 'event',
            api_version: '2024-06-20',
            created: Math.floor(now.getTime() / 1000),
            livemode: false,
            type: event.type,
            data: { object: event.object },
          });
          const res = await app.inject({
            method: 'POST',
            url: `${API_PREFIX}/stripe/webhook`,
            headers: { 'content-type': 'application/json', 'stripe-signature': payments.sign(payload) },
            payload,
          });
          if (res.statusCode !== 200) {
            request.log.error({ status: res.statusCode, body: res.body }, 'sandbox webhook refused');
            return reply.redirect('/portal/users?stripe-status=failed', 303);
          }
        }
      }
      const after = await load(request.params.id);
      return reply.redirect(
        `/portal/users?stripe-status=${after?.status === 'COMPLETE' ? 'success' : 'failed'}`,
        303,
      );
    });
    scope.post<{ Params: { id: string } }>('/sandbox-checkout/:id/cancel', async (request, reply) => {
      const row = await load(request.params.id);
      if (!row) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage);
      if (row.status === 'OPEN') await billing.cancelSession(row.id);
      return reply.redirect('/portal/users?stripe-status=failed', 303);
    });
  });
}
