/**
 * Payment Required (mentor §2.3, §4, §5, §8): a timeline of what adding the learner costs — Now, and at the
 * Next Due date — in the period the plan is billed by (the server's periodType: the plans are sold per
 * user per month, billed annually, so Now is a year, or the rest of the current year, prorated), with a
 * promo code field ('Coupon Code Not Valid'), Cancel ('Subscription Cancelled...')
 * and Pay Now, which starts a checkout session (POST /tenant/stripe/create-subscription with the plan's
 * price id, the seats to hold in total and the learner) and sends the browser to the payment page.
 */
import { ApiError, type Client } from '@shared/client/client';
import {
  tenantApplyOfferCode,
  tenantCreateSubscription,
  tenantSubscriptionInfo,
} from '@shared/contract/billing';
import { formatDate } from '@shared/rules/format-date';
import {
  BILLED,
  FREE_SEATS,
  monthlyPrice,
  type PeriodType,
  paidSeatsFor,
  periodEnd,
} from '@shared/rules/seats';
import { OfferCodeInput, type SubscriptionInfo, TENANT_MESSAGES } from '@shared/schemas/tenant';
import { client as portalClient } from '@widgets/core/api';
import { messageOf } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { TENANT_COPY } from '../copy';
import type { PaymentRequest } from './AddUserDialog';

type Info = z.infer<typeof SubscriptionInfo>;

const PERIODS: readonly string[] = ['day', 'week', 'month', 'year'];

/** Rupees as the product shows them: '₹75.00'. */
export function money(amount: number, currency = 'inr'): string {
  try {
    return new Intl.NumberFormat('en-IN', { style: 'currency', currency: currency.toUpperCase() }).format(
      amount,
    );
  } catch {
    return `${amount.toFixed(2)} ${currency.toUpperCase()}`;
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface PaymentPlan {
  /** Seats the tenant will hold, free ones included. */
  quantity: number;
  /** Paid seats once paid. */
  paidSeats: number;
  /** Seats bought by this payment. */
  newSeats: number;
  /** Charged now. */
  now: number;
  /** Charged at the next due date. */
  nextDue: number;
  nextDueDate: Date;
  period: PeriodType;
}

/**
 * The timeline's figures from the subscription info (see its fields): Now is what one more seat costs now
 * (the rest of the period when subscribed, a whole period when not) for each seat bought; Next Due is what
 * the next period will charge for every paid seat.
 */
export function paymentPlan(info: Info, quantity: number, today = new Date()): PaymentPlan {
  const paidSeats = paidSeatsFor(quantity);
  const newSeats = Math.max(1, paidSeats - info.subscriptionQuantity);
  const period = PERIODS.includes(info.periodType) ? (info.periodType as PeriodType) : 'month';
  const nextDueDate = info.subscriptionNextDue
    ? new Date(info.subscriptionNextDue)
    : periodEnd(today, period);
  const nextDue = info.isSubscribed
    ? info.nextDueAmount + info.planAmount * newSeats
    : info.planAmount * paidSeats - info.startingBalance;
  return {
    quantity,
    paidSeats,
    newSeats,
    now: round2(info.totalAmount * newSeats),
    nextDue: round2(Math.max(0, nextDue)),
    nextDueDate,
    period,
  };
}

/** '₹75.00 per user per month, billed annually (₹900.00 per user per year)', as the plans are sold. */
function PlanPrice({ info, period }: { info: Info; period: PeriodType }) {
  const perMonth = period === 'month' ? null : monthlyPrice(info.planAmount, period);
  if (perMonth === null) {
    return (
      <>
        {money(info.planAmount, info.currency)} per user per {period}
      </>
    );
  }
  return (
    <>
      {money(perMonth, info.currency)} per user per month, {BILLED[period]} (
      {money(info.planAmount, info.currency)} per user per {period})
    </>
  );
}

export interface PaymentDialogProps {
  request: PaymentRequest | null;
  /** Cancel: the modal closes and the flow starts again. */
  onCancel: () => void;
  client?: Client;
  /** Sends the browser to the checkout page. */
  redirect?: (url: string) => void;
}

export function PaymentDialog({
  request,
  onCancel,
  client = portalClient,
  redirect = (url) => window.location.assign(url),
}: PaymentDialogProps) {
  const [info, setInfo] = useState<Info | null>(request?.info ?? null);
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState('');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const [applying, setApplying] = useState(false);

  useEffect(() => {
    setInfo(request?.info ?? null);
    setPaying(false);
    setFailure('');
    setCode('');
    setCodeError('');
  }, [request]);

  const cancel = () => {
    onCancel();
    toast(TENANT_COPY.subscriptionCancel, { kind: 'info', ms: 4000 });
  };

  const applyCode = async () => {
    const parsed = OfferCodeInput.safeParse({ offerCode: code });
    if (!parsed.success) {
      setCodeError(parsed.error.issues[0]?.message ?? TENANT_COPY.couponInvalid);
      return;
    }
    setApplying(true);
    setCodeError('');
    try {
      const applied = (await client.call(tenantApplyOfferCode, { body: { offerCode: code } })).data;
      setInfo((await client.call(tenantSubscriptionInfo)).data);
      toast(`${applied.offerCode}: ${applied.description}`, {
        kind: 'success',
        title: 'Coupon applied',
        ms: 4000,
      });
    } catch (err) {
      setCodeError(
        err instanceof ApiError && (err.message === TENANT_MESSAGES.invalidOffer || err.field === 'offerCode')
          ? TENANT_COPY.couponInvalid
          : messageOf(err, TENANT_COPY.couponInvalid),
      );
    } finally {
      setApplying(false);
    }
  };

  const pay = async () => {
    if (!request || !info) return;
    setPaying(true);
    setFailure('');
    try {
      const session = (
        await client.call(tenantCreateSubscription, {
          body: { priceId: info.priceId, quantity: request.quantity, learnerId: request.learnerId },
        })
      ).data;
      redirect(session.url);
    } catch (err) {
      console.error('Checkout not started', err);
      setFailure(TENANT_COPY.paymentFailedToStart);
      setPaying(false);
    }
  };

  const plan = request && info ? paymentPlan(info, request.quantity) : null;

  return (
    <Dialog
      open={Boolean(request)}
      title="Payment Required"
      onClose={cancel}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={cancel} disabled={paying}>
            Cancel
          </button>
          <button type="button" className="btn" onClick={() => void pay()} disabled={paying || !plan}>
            {paying ? <Spinner /> : null} Pay Now
          </button>
        </>
      }
    >
      {request && info && plan ? (
        <>
          <p>
            Your first {FREE_SEATS} users are free. To add <strong>{request.email}</strong>, pay for{' '}
            {plan.newSeats === 1 ? 'one more user' : `${plan.newSeats} more users`} ({plan.quantity} users in
            all, {plan.paidSeats} of them paid) at <PlanPrice info={info} period={plan.period} />.
          </p>
          <ol className="timeline" aria-label="Payments">
            <li>
              <h3>Now</h3>
              <p>
                <strong>{money(plan.now, info.currency)}</strong>{' '}
                <span className="muted">
                  {info.isSubscribed
                    ? `for the rest of this ${plan.period}, until ${formatDate(plan.nextDueDate)} (prorated)`
                    : `for the first ${plan.period}`}
                </span>
              </p>
            </li>
            <li>
              <h3>Next Due</h3>
              <p>
                <strong>{money(plan.nextDue, info.currency)}</strong>{' '}
                <span className="muted">
                  on {formatDate(plan.nextDueDate)}, then every {plan.period}
                </span>
              </p>
            </li>
          </ol>
          {info.startingBalance > 0 ? (
            <p className="muted">
              Your credit of {money(info.startingBalance, info.currency)} is used first.
            </p>
          ) : null}
          {info.offer ? (
            <p className="alert alert-success">
              Coupon {info.offer.code}: {info.offer.description}
            </p>
          ) : (
            <form
              className="row promo"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                void applyCode();
              }}
            >
              <Field label="Promo code" error={codeError}>
                <input
                  type="text"
                  autoComplete="off"
                  maxLength={40}
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                />
              </Field>
              <button type="submit" className="btn btn-secondary" disabled={applying}>
                {applying ? <Spinner /> : null} Apply
              </button>
            </form>
          )}
          {failure ? (
            <p className="alert alert-error" role="alert">
              {failure}
            </p>
          ) : null}
        </>
      ) : null}
    </Dialog>
  );
}
