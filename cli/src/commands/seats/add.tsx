/**
 * `waymark seats add <email...>` (and the work of `seats import`): adds learners by e-mail, one
 * POST /tenant/users/add-user-v2 each with bounded concurrency (the server has no bulk call), and reports
 * each one: added, already assigned (code 11000), no such learner (may be invited), payment required.
 */
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';
import { intOption } from '../../core/files';
import { classifyPeople, type PersonEntry, peopleFromArguments } from '../../core/people';
import {
  type AddOutcome,
  addSeat,
  type CheckOutcome,
  checkSeat,
  everySeatTaken,
  freeSeats,
  subscriptionInfo,
} from '../../core/seats';
import {
  ALREADY_ASSIGNED,
  emailPlace,
  FAILED,
  failedWith,
  failWithProblems,
  type ItemOutcome,
  placeFields,
  runBulk,
  type StatusStyle,
} from '../bulk';

export interface SeatsAddOptions {
  email: string[];
  concurrency?: string;
  dryRun?: boolean;
}

type Item =
  | { kind: 'person'; email: string; where: string }
  | { kind: 'duplicate'; email: string; where: string; of: string };

type Result = AddOutcome | CheckOutcome | { kind: 'duplicate' };

const STATUSES = {
  added: { word: 'added', tone: 'ok', failed: false },
  wouldAdd: { word: 'would add', tone: 'info', failed: false },
  alreadyAssigned: ALREADY_ASSIGNED,
  duplicate: { word: 'duplicate', tone: 'info', failed: false },
  notFound: { word: 'no such learner', tone: 'fail', failed: true },
  paymentRequired: { word: 'payment required', tone: 'fail', failed: true },
  failed: FAILED,
} as const satisfies Record<string, StatusStyle>;
type Status = keyof typeof STATUSES;

/**
 * Adds the people of a list (arguments or a file): every entry is checked first (a malformed address and
 * nothing is written, exit 7); repeats are reported as duplicates and added once.
 */
export async function addSeatsFrom(
  ctx: Context,
  entries: readonly PersonEntry[],
  options: { concurrency?: string; dryRun?: boolean; source: string },
): Promise<void> {
  const concurrency = intOption(options.concurrency, '--concurrency', 1, 16, 4);
  /** `file.txt:4` for a line of a file, `argument 2` on the command line. */
  const shown = (where: string) =>
    options.source ? `${options.source}${where.replace(/^line /, '')}` : where;
  const { people, duplicates, problems } = classifyPeople(entries, { ids: false });
  if (problems.length) {
    failWithProblems(ctx, problems, {
      field: 'email',
      shown,
      summary: `${problems.length} invalid e-mail address${problems.length === 1 ? '' : 'es'}; nothing was written.`,
      hint: 'Fix them (one e-mail address per line, or a CSV with an email column) and run it again.',
    });
  }
  if (!people.length) throw new CliError('No e-mail addresses given.', ExitCode.usage);
  const items: Item[] = [
    ...people.map((p) => ({
      kind: 'person' as const,
      email: (p as { email: string }).email,
      where: p.where,
    })),
    ...duplicates.map((d) => ({
      kind: 'duplicate' as const,
      email: d.raw.toLowerCase(),
      where: d.where,
      of: d.of,
    })),
  ];
  // in the order of the list
  const order = new Map(entries.map((e, i) => [e.where, i]));
  items.sort((a, b) => (order.get(a.where) ?? 0) - (order.get(b.where) ?? 0));

  const { client } = ctx.signedIn();
  const dryRun = Boolean(options.dryRun);
  // read first: says at once whether this account has seats at all, and how many are free
  const info = await subscriptionInfo(client, ctx.signal);
  const free = freeSeats(info);
  const portal = `${ctx.server}/portal/users`;
  const invitable: string[] = [];
  /** Rows refused for want of a seat, and seats missing beyond one each (an allowance cut below use). */
  let paymentRows = 0;
  let extraNeeded = 0;

  const outcomeOf = (item: Item, r: Result): ItemOutcome<Status> => {
    const text = (rest = '') => `${shown(item.where)}  ${item.email}${rest}`;
    switch (r.kind) {
      case 'duplicate': {
        const of = (item as { of: string }).of;
        return { status: 'duplicate', text: text(` (repeats ${of})`), fields: { of: placeFields(of) } };
      }
      case 'added':
      case 'wouldAdd':
        return {
          status: r.kind,
          text: text(r.name ? ` (${r.name})` : ''),
          fields: { learnerId: r.learnerId },
        };
      case 'already':
        return { status: 'alreadyAssigned', text: text(`: ${r.message}`), fields: { message: r.message } };
      case 'notFound':
        if (r.mayInvite) invitable.push(item.email);
        return {
          status: 'notFound',
          text: text(` (no learner account${r.mayInvite ? '; can be invited' : ''})`),
          fields: { mayInvite: r.mayInvite, message: r.message },
        };
      case 'payment':
        paymentRows++;
        extraNeeded = Math.max(extraNeeded, r.seatsNeeded - 1);
        return {
          status: 'paymentRequired',
          text: text(
            ` (every seat is taken: ${r.seatsNeeded} more seat${r.seatsNeeded === 1 ? '' : 's'} needed)`,
          ),
          fields: {
            outcome: r.outcome,
            quantity: r.quantity,
            seatsNeeded: r.seatsNeeded,
            message: r.message,
          },
          detail: [`${r.message}`],
        };
    }
  };

  await runBulk(ctx, {
    label: dryRun ? 'Checking learners' : 'Adding learners',
    event: 'seat',
    items,
    concurrency,
    statuses: STATUSES,
    dryRun,
    placeOf: emailPlace,
    work: async (item): Promise<Result> => {
      if (item.kind === 'duplicate') return { kind: 'duplicate' };
      return dryRun ? checkSeat(client, item.email, ctx.signal) : addSeat(client, item.email, ctx.signal);
    },
    describe: (item, outcome) =>
      outcome.ok
        ? outcomeOf(item, outcome.value)
        : failedWith<Status>('failed', `${shown(item.where)}  ${item.email}`, outcome.error),
    summarize: (count) => {
      const done = count(dryRun ? 'wouldAdd' : 'added');
      const paid = count('paymentRequired');
      const parts = [
        count('alreadyAssigned') ? `${count('alreadyAssigned')} already assigned` : '',
        count('duplicate') ? `${count('duplicate')} duplicate${count('duplicate') === 1 ? '' : 's'}` : '',
        count('notFound') ? `${count('notFound')} with no learner account` : '',
        paid ? `${paid} need${paid === 1 ? 's' : ''} payment` : '',
        count('failed') ? `${count('failed')} failed` : '',
      ].filter(Boolean);
      const rest = parts.length ? `; ${parts.join(', ')}` : '';
      const inviteHint = invitable.length
        ? [
            `Invite the ${invitable.length === 1 ? 'one' : invitable.length} with no account: waymark seats invite ${invitable.slice(0, 3).join(' ')}${invitable.length > 3 ? ' …' : ''}`,
          ]
        : [];
      const lines = dryRun
        ? [
            `${done} of ${items.length} would be added${rest}. Nothing was written (--dry-run).`,
            `${free} seat${free === 1 ? ' is' : 's are'} free now${done > free ? `: ${done - free} of them would need payment first` : ''}.`,
          ]
        : [`Added ${done} of ${items.length}${rest}.`];
      return { lines: [...lines, ...inviteHint], fields: { freeSeats: free } };
    },
    partialMessage: (failed, total) =>
      `${failed} of ${total} learner${total === 1 ? '' : 's'} could not be added (see above).`,
    // once every seat is taken the rest cannot be added either: stop, and say what to buy
    halts: (outcome) => !dryRun && outcome.ok && outcome.value.kind === 'payment',
    halted: (notAttempted) =>
      everySeatTaken({
        notAttempted,
        toBuy: paymentRows + notAttempted + extraNeeded,
        left: paymentRows + notAttempted,
        verb: 'added',
        portal,
      }),
  });
}

/** `waymark seats add <email...>`: the addresses of the command line. */
export function addSeats(ctx: Context, options: SeatsAddOptions): Promise<void> {
  return addSeatsFrom(ctx, peopleFromArguments(options.email), {
    source: '',
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.dryRun ? { dryRun: true } : {}),
  });
}
