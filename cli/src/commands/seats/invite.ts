/**
 * `waymark seats invite <email...>`: invites people who have no account yet. Each invitation is recorded on
 * the server (POST /tenant/users/invite-user, which keeps a seat for 7 days), then the e-mail sign-in link is
 * sent through the identity service the server names in GET /api/config, as the portal does with the
 * Firebase SDK (accounts:sendOobCode with requestType EMAIL_SIGNIN and the invitation's continueUrl).
 */
import { ApiError } from '@shared/client/client';
import type { PoolOutcome } from '@shared/client/pool';
import { formatDateTime } from '@shared/rules/format-date';
import type { Context } from '../../core/context';
import { intOption } from '../../core/files';
import { classifyPeople, peopleFromArguments } from '../../core/people';
import {
  type CheckOutcome,
  checkSeat,
  everySeatTaken,
  InviteMailError,
  type InviteOutcome,
  identitySettings,
  inviteSeat,
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

function outcomeOf(item: Item, outcome: PoolOutcome<InviteOutcome | CheckOutcome>): ItemOutcome<Status> {
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
  switch (r.kind) {
    case 'invited':
      return {
        status: 'invited',
        text: `${item.email}: the sign-in link is on its way; the seat is kept until ${formatDateTime(r.expiresAt)}`,
        fields: { expiresAt: r.expiresAt },
      };
    case 'notFound':
      return r.mayInvite
        ? { status: 'wouldInvite', text: item.email }
        : {
            status: 'cannotInvite',
            text: item.email,
            fields: { message: 'no free seat, or the address belongs to a mentor' },
            detail: ['No seat is free for an invitation, or the address belongs to a mentor account.'],
          };
    case 'wouldAdd':
      return {
        status: 'hasAccount',
        text: `${item.email}${r.name ? ` (${r.name})` : ''}`,
        detail: [`This address already has a learner account. ${addInstead}`],
      };
    case 'already':
      return { status: 'alreadyAssigned', text: `${item.email}: ${r.message}` };
  }
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
  const firebase = dryRun ? null : await identitySettings(ctx.api(), ctx.signal);
  let noSeatRows = 0;

  await runBulk(ctx, {
    label: dryRun ? 'Checking addresses' : 'Inviting',
    event: 'invitation',
    items,
    concurrency,
    statuses: STATUSES,
    dryRun,
    placeOf: emailPlace,
    work: (item): Promise<InviteOutcome | CheckOutcome> =>
      dryRun
        ? checkSeat(client, item.email, ctx.signal)
        : inviteSeat(client, item.email, { fetch: ctx.http.fetch, firebase: firebase!, signal: ctx.signal }),
    describe: outcomeOf,
    summarize: (count) => {
      const failed = count('hasAccount') + count('cannotInvite') + count('notSent') + count('failed');
      return {
        lines: [
          dryRun
            ? `${count('wouldInvite')} of ${items.length} would be invited. Nothing was sent (--dry-run).`
            : `Invited ${count('invited')} of ${items.length}${failed ? `; ${failed} not` : ''}. Each invitation keeps a seat for 7 days; the learner becomes yours on signing up through the link.`,
        ],
      };
    },
    partialMessage: (failed, total) => `${failed} of ${total} could not be invited (see above).`,
    // an invitation keeps a seat: once none is free the rest cannot be invited either
    halts: (outcome) => {
      const noSeat =
        !outcome.ok && outcome.error instanceof ApiError && outcome.error.errorCode === 'NO_FREE_SEAT';
      if (noSeat) noSeatRows++;
      return noSeat;
    },
    halted: (notAttempted) => {
      const toBuy = noSeatRows + notAttempted;
      return everySeatTaken({
        notAttempted,
        toBuy,
        left: toBuy,
        verb: 'invited',
        portal: `${ctx.server}/portal/users`,
      });
    },
  });
}
