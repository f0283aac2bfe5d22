/** `waymark seats list [--search <text>]`: every learner seat (GET /tenant/users/list, all pages). */

import { USERS_REPORT } from '@shared/reports/columns';
import type { Context } from '../../core/context';
import { intOption } from '../../core/files';
import { freeSeats, listAllSeats, type Seat, seatsOf, subscriptionInfo } from '../../core/seats';

export interface SeatsListOptions {
  search?: string;
  concurrency?: string;
}

const mobile = (s: Seat) =>
  s.learnerId.phoneNumber ? `${s.learnerId.countrycode ?? ''} ${s.learnerId.phoneNumber}`.trim() : '';

export async function listSeats(ctx: Context, options: SeatsListOptions): Promise<void> {
  const concurrency = intOption(options.concurrency, '--concurrency', 1, 16, 4);
  const { client } = ctx.signedIn();
  const { output } = ctx;
  const search = options.search?.trim() || undefined;
  const { seats } = await listAllSeats(client, {
    ...(search ? { searchText: search } : {}),
    concurrency,
    signal: ctx.signal,
  });
  if (output.json) {
    for (const s of seats) output.emit(s);
    return;
  }
  if (output.mode === 'plain') {
    for (const s of seats) {
      output.line(
        [
          s.learnerId._id,
          s.learnerId.email,
          s.learnerId.name ?? '',
          mobile(s),
          s.isDisabled ? 'disabled' : 'active',
        ].join('\t'),
      );
    }
    return;
  }
  const info = await subscriptionInfo(client, ctx.signal);
  const free = freeSeats(seatsOf(info));
  const footer = [
    `${seats.length} ${search ? `of your learners match “${search}”` : `learner${seats.length === 1 ? '' : 's'}`}`,
    `${info.seatCount} of ${info.totalQuantity} seats used${info.pendingInvitations ? ` (and ${info.pendingInvitations} kept for invitations)` : ''}, ${free} free`,
    info.isSubscribed ? 'subscribed' : `not subscribed (${info.freeSeats} seats are free of charge)`,
  ].join(' · ');
  const [{ Once, runInk }, { TableView }] = await Promise.all([
    import('../../ui/render'),
    import('../../ui/TableView'),
  ]);
  await runInk(
    <Once>
      <TableView
        rows={seats}
        empty={search ? `No learner matches “${search}”.` : 'No data found'}
        dimRow={(s) => s.isDisabled}
        columns={[
          // the users report's columns (`waymark reports users`, the portal's Users table)
          { header: USERS_REPORT.name.title, value: (s) => s.learnerId.name ?? '—' },
          { header: USERS_REPORT.mobile.title, value: mobile },
          { header: USERS_REPORT.email.title, value: (s) => s.learnerId.email },
          { header: USERS_REPORT.status.title, value: (s) => (s.isDisabled ? 'Disabled' : 'Active') },
          { header: USERS_REPORT.learnerId.title, value: (s) => s.learnerId._id, dim: true },
        ]}
        footer={`${footer}${seats.some((s) => s.isDisabled) ? '\nDisabled: the tenant can access the user only until the end of this billing cycle.' : ''}`}
      />
    </Once>,
    ctx.io,
  );
}
