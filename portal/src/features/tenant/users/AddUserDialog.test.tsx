import { ApiError, type Client } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';
import { FREE_SEATS } from '@shared/rules/seats';
import type { SubscriptionInfo } from '@shared/schemas/tenant';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { renderPortal } from '../../../testing/render';
import { AddUserDialog, type PaymentRequest } from './AddUserDialog';
import { PaymentDialog } from './PaymentDialog';

vi.mock('./invite', () => ({ sendFirebaseInviteLink: vi.fn() }));

const LEARNER = '00000000-0000-4000-8000-0000000000a1';
const TENANT = '00000000-0000-4000-8000-0000000000b1';

const baseInfo: z.infer<typeof SubscriptionInfo> = {
  isSubscribed: false,
  isAccessToAddUser: true,
  isOffered: false,
  subscriptionQuantity: 0,
  planAmount: 75,
  subscriptionAmount: 0,
  startingBalance: 0,
  subscriptionNextDue: null,
  nextDueAmount: 0,
  startDate: null,
  totalQuantity: FREE_SEATS,
  totalAmount: 75,
  periodType: 'month',
  priceId: 'price_seat',
  currency: 'inr',
  freeSeats: FREE_SEATS,
  seatCount: 3,
  pendingInvitations: 0,
  offer: null,
};

type Reply = unknown | ((body: unknown) => unknown);
/**
 * The server's English message for an unknown address, reworded: the portal acts on the errorCode beside it
 * and says its own words, so a change of the server's wording changes nothing here.
 */
const REWORDED = 'No account has this e-mail address (reworded)';
const apiError = (status: number, body: Record<string, unknown>) =>
  new ApiError(status, { statusCode: status, error: 'Error', message: '', ...body } as never);

/** A client answering by path; an Error answer is thrown. Records every call. */
function fakeClient(replies: Record<string, Reply>) {
  const calls: { path: string; body?: unknown }[] = [];
  const client = {
    options: { baseUrl: '/api', device: 'WEB_APP' },
    refresh: async () => true,
    async call(def: CallDef, args?: { body?: unknown }) {
      calls.push({ path: def.path, body: args?.body });
      const reply = replies[def.path];
      if (reply === undefined) throw new Error(`unexpected call ${def.path}`);
      const value = typeof reply === 'function' ? (reply as (b: unknown) => unknown)(args?.body) : reply;
      if (value instanceof Error) throw value;
      return { data: value };
    },
  };
  return { client: client as unknown as Client, calls, paths: () => calls.map((c) => c.path) };
}

const checked = {
  isExist: true,
  learnerId: LEARNER,
  name: 'Asha',
  email: 'asha@example.com',
  isAccessToAddUser: true,
};

function renderDialog(client: Client, sendInviteLink = vi.fn(async () => {})) {
  const onClose = vi.fn();
  const onAdded = vi.fn();
  const onPaymentRequired = vi.fn<(r: PaymentRequest) => void>();
  renderPortal(
    <AddUserDialog
      open
      onClose={onClose}
      onAdded={onAdded}
      onPaymentRequired={onPaymentRequired}
      client={client}
      sendInviteLink={sendInviteLink}
    />,
    { toasts: true },
  );
  return { onClose, onAdded, onPaymentRequired, sendInviteLink };
}

async function submitEmail(email: string, button = 'Add') {
  fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: email } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: button }));
  });
}

afterEach(() => {
  toasts.value = [];
});

describe('Add User', () => {
  it("asks for an address ('Required', 'Invalid email address') before calling the server", async () => {
    const { client, calls } = fakeClient({});
    renderDialog(client);
    await submitEmail('');
    expect(await screen.findByText('Required')).toBeTruthy();
    await submitEmail('not-an-address');
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it("says 'Email Already Assigned For You' for a learner already among the users (code 11000)", async () => {
    const { client, paths } = fakeClient({
      '/tenant/users/before-check-add-user': apiError(409, {
        code: 11000,
        message: 'Email Already Assigned For You',
      }),
    });
    const { onAdded } = renderDialog(client);
    await submitEmail('asha@example.com');
    expect(await screen.findByText('Email Already Assigned For You')).toBeTruthy();
    expect(paths()).toEqual(['/tenant/users/before-check-add-user']);
    expect(onAdded).not.toHaveBeenCalled();
  });

  it("says 'Email does not exist' for an unknown address when no invitation is possible", async () => {
    const { client } = fakeClient({
      '/tenant/users/before-check-add-user': apiError(404, {
        message: REWORDED,
        errorCode: 'EMAIL_NOT_FOUND',
        isAllowToInvite: false,
      }),
    });
    renderDialog(client);
    await submitEmail('nobody@example.com');
    expect(await screen.findByText('Email does not exist')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Invite' })).toBeNull();
  });

  it('offers Invite for an unknown address, records the invitation and sends the sign-in link to its return URL', async () => {
    const continueUrl = `http://portal.test/learner?tenantId=${TENANT}&email=new%40example.com`;
    const { client, calls } = fakeClient({
      '/tenant/users/before-check-add-user': apiError(404, {
        message: REWORDED,
        errorCode: 'EMAIL_NOT_FOUND',
        isAllowToInvite: true,
      }),
      '/tenant/users/invite-user': { continueUrl, tenantId: TENANT },
    });
    const { sendInviteLink, onClose } = renderDialog(client);
    await submitEmail('New@Example.com');
    expect(await screen.findByText('User does not exist, please invite them')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    });
    expect(calls.at(-1)).toEqual({ path: '/tenant/users/invite-user', body: { email: 'new@example.com' } });
    expect(sendInviteLink).toHaveBeenCalledWith('new@example.com', continueUrl);
    expect(await screen.findByText(/An invitation was sent to new@example.com/)).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
  });

  it('tells when the invitation e-mail could not be sent', async () => {
    const { client } = fakeClient({
      '/tenant/users/before-check-add-user': apiError(404, {
        message: REWORDED,
        errorCode: 'EMAIL_NOT_FOUND',
        isAllowToInvite: true,
      }),
      '/tenant/users/invite-user': { continueUrl: 'http://portal.test/learner', tenantId: TENANT },
    });
    const failing = vi.fn(async () => {
      throw new Error('auth/quota-exceeded');
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { onClose } = renderDialog(client, failing);
    await submitEmail('new@example.com');
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Invite' }));
    });
    expect(await screen.findByText(/the email was not sent to the invited user/)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says so when the unknown address got an account before the invitation, and offers Add again', async () => {
    const { client } = fakeClient({
      '/tenant/users/before-check-add-user': apiError(404, {
        message: REWORDED,
        errorCode: 'EMAIL_NOT_FOUND',
        isAllowToInvite: true,
      }),
      '/tenant/users/invite-user': apiError(409, {
        code: 11000,
        message: 'This e-mail address already has an account: add it with Add User.',
      }),
    });
    const { sendInviteLink } = renderDialog(client);
    await submitEmail('new@example.com');
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Invite' }));
    });
    expect(await screen.findByText(/already has an account: add it with Add User/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
    expect(sendInviteLink).not.toHaveBeenCalled();
  });

  it('goes back to Add when the address is changed after an Invite offer', async () => {
    const { client } = fakeClient({
      '/tenant/users/before-check-add-user': apiError(404, {
        message: REWORDED,
        errorCode: 'EMAIL_NOT_FOUND',
        isAllowToInvite: true,
      }),
    });
    renderDialog(client);
    await submitEmail('new@example.com');
    await screen.findByRole('button', { name: 'Invite' });
    fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: 'other@example.com' } });
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
  });

  it('adds at once when a seat is free', async () => {
    const { client, paths } = fakeClient({
      '/tenant/users/before-check-add-user': checked,
      '/tenant/subscription/info': baseInfo,
      '/tenant/users/add-user-v2': {
        outcome: 'ADDED',
        learnerId: LEARNER,
        quantity: 4,
        user: { learnerId: { name: 'Asha' } },
      },
    });
    const { onAdded, onClose, onPaymentRequired } = renderDialog(client);
    await submitEmail('asha@example.com');
    await waitFor(() => expect(onAdded).toHaveBeenCalled());
    expect(paths()).toEqual([
      '/tenant/users/before-check-add-user',
      '/tenant/subscription/info',
      '/tenant/users/add-user-v2',
    ]);
    expect(onClose).toHaveBeenCalled();
    expect(onPaymentRequired).not.toHaveBeenCalled();
    expect(screen.getByText('Asha was added to your users.')).toBeTruthy();
  });

  it('tells an offered tenant without a free seat that extra users must be paid for, without adding', async () => {
    const { client, paths } = fakeClient({
      '/tenant/users/before-check-add-user': checked,
      '/tenant/subscription/info': {
        ...baseInfo,
        isSubscribed: true,
        isOffered: true,
        isAccessToAddUser: false,
      },
    });
    const { onClose, onAdded, onPaymentRequired } = renderDialog(client);
    await submitEmail('asha@example.com');
    expect(await screen.findByText(/You already have 10 users/)).toBeTruthy();
    expect(paths()).not.toContain('/tenant/users/add-user-v2');
    expect(onClose).toHaveBeenCalled();
    expect(onAdded).not.toHaveBeenCalled();
    expect(onPaymentRequired).not.toHaveBeenCalled();
  });

  it('asks a subscribed tenant without a free seat to pay for one more seat', async () => {
    const info = {
      ...baseInfo,
      isSubscribed: true,
      isAccessToAddUser: false,
      subscriptionQuantity: 2,
      totalQuantity: 12,
      seatCount: 12,
    };
    const { client, paths } = fakeClient({
      '/tenant/users/before-check-add-user': checked,
      '/tenant/subscription/info': info,
    });
    const { onPaymentRequired } = renderDialog(client);
    await submitEmail('asha@example.com');
    await waitFor(() =>
      expect(onPaymentRequired).toHaveBeenCalledWith({
        email: 'asha@example.com',
        learnerId: LEARNER,
        quantity: 13,
        info,
      }),
    );
    expect(paths()).not.toContain('/tenant/users/add-user-v2');
  });

  it("opens the payment for list length + 1 seats when adding answers 'not yet subscribed'", async () => {
    const info = { ...baseInfo, isAccessToAddUser: false, seatCount: 10 };
    const { client } = fakeClient({
      '/tenant/users/before-check-add-user': checked,
      '/tenant/subscription/info': info,
      '/tenant/users/add-user-v2': {
        outcome: 'NOT_YET_SUBSCRIBED',
        learnerId: LEARNER,
        quantity: 11,
        user: null,
      },
    });
    const { onPaymentRequired, onAdded } = renderDialog(client);
    await submitEmail('asha@example.com');
    await waitFor(() =>
      expect(onPaymentRequired).toHaveBeenCalledWith({
        email: 'asha@example.com',
        learnerId: LEARNER,
        quantity: 11,
        info,
      }),
    );
    expect(onAdded).not.toHaveBeenCalled();
  });
});

describe('Payment Required', () => {
  const request: PaymentRequest = {
    email: 'asha@example.com',
    learnerId: LEARNER,
    quantity: 11,
    info: { ...baseInfo, isAccessToAddUser: false, seatCount: 10 },
  };

  function renderPayment(client: Client) {
    const onCancel = vi.fn();
    const redirect = vi.fn();
    renderPortal(
      <PaymentDialog request={request} onCancel={onCancel} client={client} redirect={redirect} />,
      {
        toasts: true,
      },
    );
    return { onCancel, redirect };
  }

  it('shows what is paid Now and at the Next Due date', () => {
    const { client } = fakeClient({});
    renderPayment(client);
    const timeline = screen.getByRole('list', { name: 'Payments' });
    expect(timeline.textContent).toContain('Now');
    expect(timeline.textContent).toContain('Next Due');
    // one paid seat of 75 rupees a month, beyond the 10 free ones
    expect(timeline.textContent).toMatch(/Now₹75\.00/);
    expect(timeline.textContent).toMatch(/Next Due₹75\.00 on .* then every month/);
  });

  it('bills in the period the plans are sold with: per user per month, billed annually', () => {
    const { client } = fakeClient({});
    const annual: PaymentRequest = {
      ...request,
      info: { ...request.info, planAmount: 900, totalAmount: 900, periodType: 'year' },
    };
    renderPortal(<PaymentDialog request={annual} onCancel={vi.fn()} client={client} redirect={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Payment Required' });
    expect(dialog.textContent).toContain(
      '₹75.00 per user per month, billed annually (₹900.00 per user per year)',
    );
    const timeline = screen.getByRole('list', { name: 'Payments' });
    expect(timeline.textContent).toMatch(/Now₹900\.00 for the first year/);
    expect(timeline.textContent).toMatch(/Next Due₹900\.00 on .* then every year/);
    expect(timeline.textContent).not.toContain('month');
  });

  it('charges a seat added mid-year for the rest of the year, prorated, then every year', () => {
    const { client } = fakeClient({});
    const nextDue = new Date(Date.now() + 182 * 86_400_000).toISOString();
    const subscribed: PaymentRequest = {
      ...request,
      quantity: 12,
      info: {
        ...request.info,
        isSubscribed: true,
        subscriptionQuantity: 1,
        planAmount: 900,
        subscriptionAmount: 900,
        nextDueAmount: 900,
        subscriptionNextDue: nextDue,
        // the server's proration of one seat for the half year left
        totalAmount: 448.77,
        periodType: 'year',
      },
    };
    renderPortal(
      <PaymentDialog request={subscribed} onCancel={vi.fn()} client={client} redirect={vi.fn()} />,
    );
    const timeline = screen.getByRole('list', { name: 'Payments' });
    expect(timeline.textContent).toMatch(/Now₹448\.77 for the rest of this year, until .* \(prorated\)/);
    // next year: both paid seats
    expect(timeline.textContent).toMatch(/Next Due₹1,800\.00 on .* then every year/);
  });

  it("Cancel closes it with 'Subscription Cancelled...'", async () => {
    const { client, calls } = fakeClient({});
    const { onCancel } = renderPayment(client);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
    expect(await screen.findByText('Subscription Cancelled...')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('Pay Now starts a checkout for the seats and the learner, then goes to its page', async () => {
    const url = 'http://portal.test/api/billing/sandbox/checkout/cs_test_123456789';
    const { client, calls } = fakeClient({
      '/tenant/stripe/create-subscription': { id: 'cs_test_123456789', url },
    });
    const { redirect } = renderPayment(client);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Pay Now' }));
    });
    expect(calls).toEqual([
      {
        path: '/tenant/stripe/create-subscription',
        body: { priceId: 'price_seat', quantity: 11, learnerId: LEARNER },
      },
    ]);
    expect(redirect).toHaveBeenCalledWith(url);
  });

  it('tells to contact the payment provider when the checkout cannot start', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client } = fakeClient({
      '/tenant/stripe/create-subscription': apiError(502, { message: 'Payment provider unavailable' }),
    });
    const { redirect } = renderPayment(client);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Pay Now' }));
    });
    expect(screen.getByRole('alert').textContent).toMatch(/contact the payment provider/);
    expect(redirect).not.toHaveBeenCalled();
  });

  it("says 'Coupon Code Not Valid' for an unknown promo code, and shows the discount of a valid one", async () => {
    let valid = false;
    const { client } = fakeClient({
      '/tenant/subscription/apply-offer-code': () =>
        valid
          ? { isOffered: true, offerCode: 'HALF', percentOff: 50, description: '50% off' }
          : apiError(400, {
              message: 'That code is not one of ours (reworded)',
              errorCode: 'INVALID_OFFER_CODE',
            }),
      '/tenant/subscription/info': {
        ...request.info,
        isOffered: true,
        planAmount: 37.5,
        totalAmount: 37.5,
        offer: { code: 'HALF', percentOff: 50, description: '50% off' },
      },
    });
    renderPayment(client);
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'nope' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    expect(await screen.findByText('Coupon Code Not Valid')).toBeTruthy();
    valid = true;
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'half' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    expect(await screen.findByText('Coupon HALF: 50% off')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Payments' }).textContent).toMatch(/Now₹37\.50/);
  });
});
