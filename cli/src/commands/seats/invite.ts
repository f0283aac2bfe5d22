/**
 * `waymark seats invite <email...>`: invites people who have no account yet. Every address is checked
 * first (POST /tenant/users/before-check-add-users: which have an account, which are seats already, which
 * a pending invitation holds a seat for); then each address with no account is invited: recorded on the
 * server (POST /tenant/users/invite-user, which keeps a seat for 7 days), then the e-mail sign-in link is
 * sent through the identity service the server names in GET /api/config, as the portal does with the
 * Firebase SDK (accounts:sendOobCode with requestType EMAIL_SIGNIN and the invitation's continueUrl).
 * A dry run is the check alone, and says how many seats the invitations need.
 */
import { ApiError } from '@shared/client/client';
import type { PoolOutcome } from '@shared/client/pool';
import { formatDateTime } from '@shared/rules/format-date';
import { seatsShort } from '@shared/rules/seats';
import type { Context } from '../../core/context';
import { intOption } from '../../core/files';
import { classifyPeople, peopleFromArguments } from '../../core/people';
import {
  ALREADY_ASSIGNED_MESSAGE,
  checkRoster,
  everySeatTaken,
  freeSeats,
  InviteMailError,
  type InviteOutcome,
  identitySettings,
  inviteSeat,
  type RosterEntry,
} from '../../core/seats';
import {
  ALREADY_ASSIGNED,
  emailPlace,
  FAILED,
  failedWith,
  failWithProblems,
  type ItemOutcome,
  runBulk,
  type StatusStyle,
} from '../bulk';

export interface SeatsInviteOptions {
  email: string[];
  concurrency?: string;
  dryRun?: boolean;
}

type Item = { email: string; where: string };

const STATUSES = {
  invited: { word: 'invited', tone: 'ok', failed: false },
  wouldInvite: { word: 'would invite', tone: 'info', failed: false },
  alreadyAssigned: ALREADY_ASSIGNED,
  hasAccount: { word: 'has an account', tone: 'fail', failed: true },
  cannotInvite: { word: 'cannot invite', tone: 'fail', failed: true },
  notSent: { word: 'e-mail not sent', tone: 'fail', failed: true },
  failed: FAILED,
} as const satisfies Record<string, StatusStyle>;
type Status = keyof typeof STATUSES;

/** What the check settled without inviting: an account (a learner's or not), a seat already, or a dry run. */
type Known = { kind: 'known'; entry: RosterEntry } | { kind: 'wouldInvite' };

function outcomeOf(item: Item, outcome: PoolOutcome<InviteOutcome | Known>): ItemOutcome<Status> {
  const addInstead = `Run \`waymark seats add ${item.email}\`.`;
  if (!outcome.ok) {
    const err = outcome.error;
    if (err instanceof InviteMailError) {
      return {
        status: 'notSent',
        text: item.email,
        fields: { message: err.message, reason: err.reason },
        detail: [err.message, `The invitation is recorded; the identity service said: ${err.reason}`],
      };
    }
    if (err instanceof ApiError && err.status === 409 && String(err.code) === '11000') {
      return {
        status: 'hasAccount',
        text: item.email,
        fields: { message: err.message },
        detail: [`${err.message} ${addInstead}`],
      };
    }
    if (err instanceof ApiError && err.errorCode === 'NO_FREE_SEAT') {
      return {
        status: 'cannotInvite',
        text: item.email,
        fields: { message: err.message },
        detail: [err.message],
      };
    }
    return failedWith('failed', item.email, err);
  }
  const r = outcome.value;
  if (r.kind === 'invited')
    return {
      status: 'invited',
      text: `${item.email}: the sign-in link is on its way; the seat is kept until ${formatDateTime(r.expiresAt)}`,
      fields: { expiresAt: r.expiresAt },
    };
  if (r.kind === 'wouldInvite') return { status: 'wouldInvite', text: item.email };
  const { entry } = r;
  if (entry.outcome === 'ALREADY_ASSIGNED')
    return { status: 'alreadyAssigned', text: `${item.email}: ${ALREADY_ASSIGNED_MESSAGE}` };
  if (entry.outcome === 'ADD')
    return {
      status: 'hasAccount',
      text: `${item.email}${entry.name ? ` (${entry.name})` : ''}`,
      detail: [`This address already has a learner account. ${addInstead}`],
    };
  // an account that is not a learner's: a mentor's, or one being deleted
  const message = 'This address belongs to an account that is not a learner’s: it cannot be invited.';
  return { status: 'cannotInvite', text: item.email, fields: { message }, detail: [message] };
}

export async function inviteSeats(ctx: Context, options: SeatsInviteOptions): Promise<void> {
  const concurrency = intOption(options.concurrency, '--concurrency', 1, 16, 4);
  const { people, duplicates, problems } = classifyPeople(peopleFromArguments(options.email), { ids: false });
  if (problems.length) failWithProblems(ctx, problems, { field: 'email', summary: 'Nobody was invited.' });
  if (duplicates.length) {
    ctx.output.note(`Left out ${duplicates.length} repeated address${duplicates.length === 1 ? '' : 'es'}.`);
  }
  const items: Item[] = people.map((p) => ({ email: (p as { email: string }).email, where: p.where }));

  const { client } = ctx.signedIn();
  const dryRun = Boolean(options.dryRun);
  const { entries: checked, seats } = await checkRoster(
    client,
    items.map((i) => i.email),
    { concurrency, signal: ctx.signal },
  );
  const entryOf = (item: Item) => checked.get(item.email)!;
  /** Only an address with no account is invited; one a pending invitation holds a seat for needs no new seat. */
  const toInvite = (item: Item) => entryOf(item).invitable;
  const needsSeat = (item: Item) => toInvite(item) && !entryOf(item).invited;
  const newInvitations = items.filter(needsSeat).length;
  const firebase = dryRun || !items.some(toInvite) ? null : await identitySettings(ctx.api(), ctx.signal);
  let noSeatRows = 0;
  let newlyHeld = 0;

  await runBulk(ctx, {
    label: dryRun ? 'Checking addresses' : 'Inviting',
    event: 'invitation',
    items,
    concurrency,
    statuses: STATUSES,
    dryRun,
    placeOf: emailPlace,
    work: async (item): Promise<InviteOutcome | Known> => {
      if (!toInvite(item)) return { kind: 'known', entry: entryOf(item) };
      if (dryRun) return { kind: 'wouldInvite' };
      // a new invitation holds a seat once recorded, whether or not its e-mail then goes out
      const held = () => {
        if (needsSeat(item)) newlyHeld++;
      };
      try {
        const invited = await inviteSeat(client, item.email, {
          fetch: ctx.http.fetch,
          firebase: firebase!,
          signal: ctx.signal,
        });
        held();
        return invited;
      } catch (err) {
        if (err instanceof InviteMailError) held();
        throw err;
      }
    },
    describe: outcomeOf,
    summarize: (count) => {
      const failed = count('hasAccount') + count('cannotInvite') + count('notSent') + count('failed');
      const toBuy = seatsShort(seats, newInvitations);
      const free = freeSeats(seats);
      return {
        lines: dryRun
          ? [
              `${count('wouldInvite')} of ${items.length} would be invited. Nothing was sent (--dry-run).`,
              ...(toBuy
                ? [
                    `Each invitation keeps a seat for 7 days and ${free} ${free === 1 ? 'is' : 'are'} free: buy ${toBuy} first: waymark seats buy ${toBuy} (or Pay Now in the portal: ${ctx.server}/portal/users).`,
                  ]
                : []),
            ]
          : [
              `Invited ${count('invited')} of ${items.length}${failed ? `; ${failed} not` : ''}. Each invitation keeps a seat for 7 days; the learner becomes yours on signing up through the link.`,
            ],
        fields: dryRun ? { freeSeats: free, seatsToBuy: toBuy } : {},
      };
    },
    partialMessage: (failed, total) => `${failed} of ${total} could not be invited (see above).`,
    // an invitation keeps a seat: once none is free the other new ones cannot be invited either (renewing a
    // pending invitation, and what the check settled, still go on)
    halts: (outcome) => {
      const noSeat =
        !outcome.ok && outcome.error instanceof ApiError && outcome.error.errorCode === 'NO_FREE_SEAT';
      if (noSeat) noSeatRows++;
      return noSeat;
    },
    runsAfterHalt: (item) => !needsSeat(item),
    halted: (notAttempted) => {
      const left = noSeatRows + notAttempted;
      return everySeatTaken({
        notAttempted,
        toBuy: seatsShort({ ...seats, pending: seats.pending + newlyHeld }, left),
        left,
        verb: 'invited',
        portal: `${ctx.server}/portal/users`,
      });
    },
  });
}
