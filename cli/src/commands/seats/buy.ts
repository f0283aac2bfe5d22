/**
 * `waymark seats buy <n>`: starts a checkout for n more seats through the portal's own call
 * (POST /tenant/stripe/create-subscription, quantity = the seats held after buying, free ones included) and
 * prints where to pay, or opens it with --open. Nothing is charged until the checkout is paid.
 */
import { tenantCreateSubscription } from '@shared/contract/billing';
import { formatDateTime } from '@shared/rules/format-date';
import { openBrowser } from '../../core/browser';
import type { Context } from '../../core/context';
import { intOption } from '../../core/files';
import { subscriptionInfo } from '../../core/seats';

export interface SeatsBuyOptions {
  n: string;
  open?: boolean;
}

export async function buySeats(ctx: Context, options: SeatsBuyOptions): Promise<void> {
  const seats = intOption(options.n, '<n>', 1, 100_000, 1);
  const { client } = ctx.signedIn();
  const info = await subscriptionInfo(client, ctx.signal);
  // the checkout's quantity is what the tenant will hold: the seats it may hold now, plus these
  const quantity = info.totalQuantity + seats;
  const { data } = await client.call(tenantCreateSubscription, {
    body: { priceId: info.priceId, quantity },
    signal: ctx.signal,
  });
  const opened = options.open ? await openBrowser(data.url, { env: ctx.env }) : false;
  const { output } = ctx;
  if (output.json) {
    output.emit({ event: 'checkout', seats, ...data, opened });
    return;
  }
  const charge = info.isSubscribed
    ? 'for the rest of this billing period'
    : `for the first ${info.periodType} of the subscription`;
  output.note(
    `${seats} more seat${seats === 1 ? '' : 's'} (${info.totalQuantity} → ${data.quantity}): ${data.amount} ${data.currency} now ${charge}. Pay on this page before ${formatDateTime(data.expiresAt)}:`,
  );
  if (options.open && !opened) output.note('No browser could be opened here: open the link yourself.');
  output.line(data.url);
}
