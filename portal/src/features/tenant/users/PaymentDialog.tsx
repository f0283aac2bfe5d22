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
import { FREE_SEATS, monthlyPrice, type PeriodType, paidSeatsFor, periodEnd } from '@shared/rules/seats';
import { OfferCodeInput, type SubscriptionInfo, TENANT_ERROR_CODES } from '@shared/schemas/tenant';
import { client as portalClient } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { PaymentRequest } from './AddUserDialog';

type Info = z.infer<typeof SubscriptionInfo>;

const PERIODS: readonly string[] = ['day', 'week', 'month', 'year'];

/** An amount as the reader's language writes it: '₹75.00' in English (as the product shows rupees). */
export function money(amount: number, currency = 'inr', locale = 'en'): string {
  try {
    return new Intl.NumberFormat(locale === 'en' ? 'en-IN' : locale, {
      style: 'currency',
      currency: currency.toUpperCase(),
    }).format(amount);
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
function planPrice(info: Info, period: PeriodType, t: ReturnType<typeof useI18n>): string {
  const perMonth = period === 'month' ? null : monthlyPrice(info.planAmount, period);
  const price = money(info.planAmount, info.currency, t.locale);
  if (perMonth === null) return t.t('payment.perUser', { price, period });
  return t.t('payment.perUserBilled', { monthly: money(perMonth, info.currency, t.locale), price, period });
}

export interface PaymentDialogProps {
  request: PaymentRequest | null;
  /** Cancel: the modal closes and the flow starts again. */
  onCancel: () => void;
  client?: Client;
  /** Sends the browser to the checkout page. */
  redirect?: (url: string) => void;
}

/** The server refused the promo code (its errorCode, or the field named): the portal's own words say so. */
const unknownCode = (err: unknown) =>
  err instanceof ApiError && (err.errorCode === TENANT_ERROR_CODES.invalidOffer || err.field === 'offerCode');
export function PaymentDialog({
  request,
  onCancel,
  client = portalClient,
  redirect = (url) => window.location.assign(url),
}: PaymentDialogProps) {
  const translator = useI18n();
  const { t, locale } = translator;
  const [info, setInfo] = useState<Info | null>(request?.info ?? null);
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState('');

  useEffect(() => {
    setInfo(request?.info ?? null);
    setPaying(false);
    setFailure('');
  }, [request]);

  const cancel = () => {
    onCancel();
    toast(t('payment.cancelled'), { kind: 'info', ms: 4000 });
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
      setFailure(t('payment.failedToStart'));
      setPaying(false);
    }
  };

  const plan = request && info ? paymentPlan(info, request.quantity) : null;

  return (
    <Dialog
      open={Boolean(request)}
      title={t('payment.required')}
      onClose={cancel}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={cancel} disabled={paying}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn" onClick={() => void pay()} disabled={paying || !plan}>
            {paying ? <Spinner /> : null} {t('payment.payNow')}
          </button>
        </>
      }
    >
      {request && info && plan ? (
        <>
          <p>
            <Rich
              k="payment.explain"
              values={{
                free: FREE_SEATS,
                email: request.email,
                newSeats: plan.newSeats,
                quantity: plan.quantity,
                paid: plan.paidSeats,
                price: planPrice(info, plan.period, translator),
              }}
              components={{ 0: <strong /> }}
            />
          </p>
          <PaymentTimeline plan={plan} info={info} />
          {info.startingBalance > 0 ? (
            <p className="muted">
              {t('payment.credit', { amount: money(info.startingBalance, info.currency, locale) })}
            </p>
          ) : null}
          {info.offer ? (
            <p className="alert alert-success">
              {t('payment.coupon', { code: info.offer.code, description: info.offer.description })}
            </p>
          ) : (
            <PromoCodeForm request={request} client={client} onApplied={setInfo} />
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

/** Now, and at the Next Due date: what adding the learner costs, in the plan's period. */
function PaymentTimeline({ plan, info }: { plan: PaymentPlan; info: Info }) {
  const { t, locale } = useI18n();
  return (
    <ol className="timeline" aria-label={t('payment.payments')}>
      <li>
        <h3>{t('payment.now')}</h3>
        <p>
          <strong>{money(plan.now, info.currency, locale)}</strong>{' '}
          <span className="muted">
            {info.isSubscribed
              ? t('payment.restOfPeriod', {
                  period: plan.period,
                  date: formatDate(plan.nextDueDate, undefined, locale),
                })
              : t('payment.firstPeriod', { period: plan.period })}
          </span>
        </p>
      </li>
      <li>
        <h3>{t('payment.nextDue')}</h3>
        <p>
          <strong>{money(plan.nextDue, info.currency, locale)}</strong>{' '}
          <span className="muted">
            {t('payment.thenEvery', {
              date: formatDate(plan.nextDueDate, undefined, locale),
              period: plan.period,
            })}
          </span>
        </p>
      </li>
    </ol>
  );
}

/** The promo code field and Apply ('Coupon Code Not Valid'); an applied code gives the figures again. */
function PromoCodeForm({
  request,
  client,
  onApplied,
}: {
  request: PaymentRequest | null;
  client: Client;
  onApplied: (info: Info) => void;
}) {
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const [applying, setApplying] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: emptied for each new request, as the dialog is
  useEffect(() => {
    setCode('');
    setCodeError('');
  }, [request]);

  const applyCode = async () => {
    const parsed = OfferCodeInput.safeParse({ offerCode: code });
    if (!parsed.success) {
      setCodeError(t('payment.couponInvalid'));
      return;
    }
    setApplying(true);
    setCodeError('');
    try {
      const applied = (await client.call(tenantApplyOfferCode, { body: { offerCode: code } })).data;
      onApplied((await client.call(tenantSubscriptionInfo)).data);
      toast(`${applied.offerCode}: ${applied.description}`, {
        kind: 'success',
        title: t('payment.couponApplied'),
        ms: 4000,
      });
    } catch (err) {
      setCodeError(
        unknownCode(err) ? t('payment.couponInvalid') : messageOf(err, t('payment.couponInvalid')),
      );
    } finally {
      setApplying(false);
    }
  };

  return (
    <form
      className="row promo"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void applyCode();
      }}
    >
      <Field label={t('payment.promoCode')} error={codeError}>
        <input
          type="text"
          autoComplete="off"
          maxLength={40}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <button type="submit" className="btn btn-secondary" disabled={applying}>
        {applying ? <Spinner /> : null} {t('payment.apply')}
      </button>
    </form>
  );
}
