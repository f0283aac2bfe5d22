/**
 * Per-seat billing: one subscription per tenant (paid seats beyond the free ones), the checkout sessions
 * that buy seats, the webhook events already applied (idempotency by event id), and offer codes.
 * Money is kept in the currency's minor unit (paise); the API shows rupees.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../db/schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const subscriptions = pgTable(
  'billing_subscriptions',
  {
    tenantId: uuid('tenant_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'sandbox' or 'stripe': who holds the subscription. */
    provider: text('provider').notNull(),
    /** The provider's ids (sub_…, cus_…). */
    subscriptionId: text('subscription_id').notNull(),
    customerId: text('customer_id'),
    /** The provider's subscription item (Stripe: si_…), to change the quantity. */
    itemId: text('item_id'),
    status: text('status', {
      enum: ['ACTIVE', 'TRIALING', 'PAST_DUE', 'INCOMPLETE', 'UNPAID', 'CANCELED'],
    }).notNull(),
    /** Paid seats (beyond the free ones). */
    quantity: integer('quantity').notNull(),
    priceId: text('price_id').notNull(),
    /** One seat for one period, before the offer's discount, minor units. */
    unitAmount: integer('unit_amount').notNull(),
    currency: text('currency').notNull(),
    periodType: text('period_type').notNull(),
    percentOff: integer('percent_off').notNull().default(0),
    /** Credit the next invoice uses first, minor units (≥ 0). */
    balance: integer('balance').notNull().default(0),
    startDate: at('start_date').notNull(),
    currentPeriodStart: at('current_period_start').notNull(),
    currentPeriodEnd: at('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** The provider's event time of the last change applied (older events do not overwrite newer ones). */
    providerUpdatedAt: at('provider_updated_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('billing_subscriptions_provider_idx').on(t.provider, t.subscriptionId)],
);

export const checkoutSessions = pgTable(
  'billing_checkout_sessions',
  {
    /** The provider's session id (cs_…). */
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** SUBSCRIBE: a new subscription; ADD_SEATS: more seats on the current one. */
    kind: text('kind', { enum: ['SUBSCRIBE', 'ADD_SEATS'] }).notNull(),
    /** The learner to add once paid. */
    learnerId: uuid('learner_id').references(() => users.id, { onDelete: 'set null' }),
    /** Seats the tenant will hold in total once paid (free ones included). */
    totalSeats: integer('total_seats').notNull(),
    /** Paid seats the subscription will have once paid. */
    paidSeats: integer('paid_seats').notNull(),
    /** Charged now, minor units. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    url: text('url').notNull(),
    status: text('status', { enum: ['OPEN', 'COMPLETE', 'EXPIRED', 'CANCELED'] })
      .notNull()
      .default('OPEN'),
    /** What the sandbox page shows (plan name, period, unit price). */
    details: jsonb('details').notNull().default(sql`'{}'::jsonb`),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    completedAt: at('completed_at'),
  },
  (t) => [index('billing_checkout_sessions_tenant_idx').on(t.tenantId, t.createdAt)],
);

export const webhookEvents = pgTable('billing_webhook_events', {
  /** The provider's event id (evt_…): an event is applied once. */
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: at('received_at').notNull().defaultNow(),
});

export const offerCodes = pgTable('billing_offer_codes', {
  /** Upper-case. */
  code: text('code').primaryKey(),
  description: text('description').notNull(),
  percentOff: integer('percent_off').notNull(),
  /** Stripe coupon applied at checkout with the real provider. */
  stripeCouponId: text('stripe_coupon_id'),
  validUntil: at('valid_until'),
  maxRedemptions: integer('max_redemptions'),
  redemptions: integer('redemptions').notNull().default(0),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** The offer code a tenant applied (one at a time). */
export const tenantOffers = pgTable('billing_tenant_offers', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  code: text('code')
    .notNull()
    .references(() => offerCodes.code, { onDelete: 'cascade' }),
  appliedAt: at('applied_at').notNull().defaultNow(),
});
