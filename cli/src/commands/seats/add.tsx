/**
 * `waymark seats add <email...>` (and the work of `seats import`): checks the whole list with the server
 * first (POST /tenant/users/before-check-add-users, 1,000 addresses a call: which are learners to add, which
 * are seats already, which have no learner account), then adds the learners to add, one
 * POST /tenant/users/add-user-v2 each with bounded concurrency (the server decides each seat under its lock).
 * A dry run is the check alone. Each line is reported: added, already assigned (code 11000), no such
 * learner (may be invited), payment required; the summary says how many seats to buy for the learners who
 * do not fit — only they take a seat — and what inviting those with no account would take.
 */
import { seatsShort } from '@shared/rules/seats';
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';
import { intOption } from '../../core/files';
import { classifyPeople, type PersonEntry, peopleFromArguments } from '../../core/people';
import {
  type AddOutcome,
  ALREADY_ASSIGNED_MESSAGE,
  addSeat,
  type CheckOutcome,
  checkRoster,
  EMAIL_NOT_FOUND_MESSAGE,
  everySeatTaken,
  freeSeats,
  inviteAdvice,
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

/** What a run counts as it goes: the summary's seats and what is left to add. */
interface Tally {
  /** Learners added, and of them those whose pending invitation the adding fulfilled (its seat freed). */
  added: number;
  addedInvited: number;
  /** Rows refused for want of a seat, and seats missing beyond one each (an allowance cut below use). */
  paymentRows: number;
  extraNeeded: number;
  attempted: number;
}

/**
 * The list's entries as items, in the list's order: each address once, its repeats as duplicates; a
 * malformed address and nothing is written (exit 7).
 */
function listedItems(
  ctx: Context,
  entries: readonly PersonEntry[],
  shown: (where: string) => string,
): Item[] {
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
  return items;
}

/** A line's outcome as reported (counted in `tally`). */
function outcomeOf(
  item: Item,
  r: Result,
  shown: (where: string) => string,
  invited: boolean,
  tally: Tally,
): ItemOutcome<Status> {
  const text = (rest = '') => `${shown(item.where)}  ${item.email}${rest}`;
  switch (r.kind) {
    case 'duplicate': {
      const of = (item as { of: string }).of;
      return { status: 'duplicate', text: text(` (repeats ${of})`), fields: { of: placeFields(of) } };
    }
    case 'added':
    case 'wouldAdd':
      if (r.kind === 'added') {
        tally.added++;
        if (invited) tally.addedInvited++;
      }
      return {
        status: r.kind,
        text: text(r.name ? ` (${r.name})` : ''),
        fields: { learnerId: r.learnerId },
      };
    case 'already':
      return { status: 'alreadyAssigned', text: text(`: ${r.message}`), fields: { message: r.message } };
    case 'notFound':
      return {
        status: 'notFound',
        text: text(` (no learner account${r.mayInvite ? '; can be invited' : ''})`),
        fields: { mayInvite: r.mayInvite, message: r.message },
      };
    case 'payment':
      tally.paymentRows++;
      tally.extraNeeded = Math.max(tally.extraNeeded, r.seatsNeeded - 1);
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
}

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
  const items = listedItems(ctx, entries, shown);

  const { client } = ctx.signedIn();
  const dryRun = Boolean(options.dryRun);
  // every address checked first, a call per 1,000 (a learner account is refused here at once): the dry run
  // is this check; the real run adds only the learners it found, and counts seats for them alone
  const { entries: checked, seats } = await checkRoster(
    client,
    items.flatMap((i) => (i.kind === 'person' ? [i.email] : [])),
    { concurrency, signal: ctx.signal },
  );
  const entryOf = (item: Item) => (item.kind === 'person' ? checked.get(item.email) : undefined);
  const toAdd = items.filter((i) => entryOf(i)?.outcome === 'ADD');
  const free = freeSeats(seats);
  const portal = `${ctx.server}/portal/users`;
  /** Addresses with no account at all (they can be invited), and those a pending invitation holds a seat for. */
  const invitable = items.filter((i) => entryOf(i)?.invitable);
  const newInvitations = invitable.filter((i) => !entryOf(i)?.invited).length;
  const tally: Tally = { added: 0, addedInvited: 0, paymentRows: 0, extraNeeded: 0, attempted: 0 };

  await runBulk(ctx, {
    label: dryRun ? 'Checking learners' : 'Adding learners',
    event: 'seat',
    items,
    concurrency,
    statuses: STATUSES,
    dryRun,
    placeOf: emailPlace,
    work: async (item): Promise<Result> => {
      const entry = entryOf(item);
      if (item.kind === 'duplicate' || !entry) return { kind: 'duplicate' };
      // what the check said stands for everyone but the learners to add
      if (entry.outcome === 'ALREADY_ASSIGNED') return { kind: 'already', message: ALREADY_ASSIGNED_MESSAGE };
      if (entry.outcome === 'EMAIL_NOT_FOUND')
        return { kind: 'notFound', mayInvite: entry.invitable, message: EMAIL_NOT_FOUND_MESSAGE };
      if (dryRun) return { kind: 'wouldAdd', learnerId: entry.learnerId!, name: entry.name };
      tally.attempted++;
      // the server has the last word (a seat taken meanwhile, an account gone)
      return addSeat(client, item.email, ctx.signal);
    },
    describe: (item, outcome) =>
      outcome.ok
        ? outcomeOf(item, outcome.value, shown, Boolean(entryOf(item)?.invited), tally)
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
      // the seats as the run leaves them, and the learners still to add (refused for want of a seat, or
      // not attempted once none was left)
      const after = dryRun
        ? seats
        : { ...seats, active: seats.active + tally.added, pending: seats.pending - tally.addedInvited };
      const left = dryRun ? done : paid + (toAdd.length - tally.attempted);
      const toBuy = seatsShort(after, left);
      const invite = inviteAdvice({
        emails: invitable.map((i) => i.email),
        seatsToBuy: seatsShort(after, left + newInvitations) - toBuy,
        alsoBuying: toBuy,
      });
      const lines = dryRun
        ? [
            `${done} of ${items.length} would be added${rest}. Nothing was written (--dry-run).`,
            toBuy
              ? `${free} seat${free === 1 ? ' is' : 's are'} free now: buy ${toBuy} for the ${toBuy} learner${toBuy === 1 ? '' : 's'} who would not fit: waymark seats buy ${toBuy} (or Pay Now in the portal: ${portal}).`
              : `${free} seat${free === 1 ? ' is' : 's are'} free now: enough for ${done === 1 ? 'this learner' : `these ${done} learners`}.`,
          ]
        : [`Added ${done} of ${items.length}${rest}.`];
      return {
        lines,
        // after the seats to buy for the learners, which it counts beyond
        last: invite.lines,
        fields: {
          freeSeats: free,
          ...(dryRun
            ? { seatsToBuy: toBuy, ...(toBuy ? { checkout: `waymark seats buy ${toBuy}`, portal } : {}) }
            : {}),
          ...invite.fields,
        },
      };
    },
    partialMessage: (failed, total) =>
      `${failed} of ${total} learner${total === 1 ? '' : 's'} could not be added (see above).`,
    // once every seat is taken the other learners cannot be added either: stop adding, and say what to buy;
    // the lines the check settled (no account, already yours, repeats) are reported all the same
    halts: (outcome) => !dryRun && outcome.ok && outcome.value.kind === 'payment',
    runsAfterHalt: (item) => entryOf(item)?.outcome !== 'ADD',
    halted: (notAttempted) =>
      everySeatTaken({
        notAttempted,
        toBuy: tally.paymentRows + notAttempted + tally.extraNeeded,
        left: tally.paymentRows + notAttempted,
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
