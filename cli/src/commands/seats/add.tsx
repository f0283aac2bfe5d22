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
  freeSeats,
  subscriptionInfo,
} from '../../core/seats';
import type { Tone } from '../../ui/BulkView';
import { errorDetail, type ItemReport, runBulk } from '../bulk';
import type { CommandModule } from '../command';

export interface SeatsAddOptions {
  email: string[];
  concurrency?: string;
  dryRun?: boolean;
}

type Item =
  | { kind: 'person'; email: string; where: string }
  | { kind: 'duplicate'; email: string; where: string; of: string };

type Result = AddOutcome | CheckOutcome | { kind: 'duplicate' };

/** The status word of each outcome, for people and (camelCase) for scripts. */
const STATUS: Record<string, { word: string; status: string; tone: Tone; failed: boolean }> = {
  added: { word: 'added', status: 'added', tone: 'ok', failed: false },
  wouldAdd: { word: 'would add', status: 'wouldAdd', tone: 'info', failed: false },
  already: { word: 'already assigned', status: 'alreadyAssigned', tone: 'warn', failed: false },
  duplicate: { word: 'duplicate', status: 'duplicate', tone: 'info', failed: false },
  notFound: { word: 'no such learner', status: 'notFound', tone: 'fail', failed: true },
  payment: { word: 'payment required', status: 'paymentRequired', tone: 'fail', failed: true },
  failed: { word: 'failed', status: 'failed', tone: 'fail', failed: true },
};
const WORD_WIDTH = Math.max(...Object.values(STATUS).map((s) => s.word.length));

/** `line 4` → { line: 4 }; `argument 2` → { argument: 2 }; `file.txt:4` → { line: 4 }. */
export function placeOf(where: string): Record<string, number | string> {
  const line = /(?:^line |:)(\d+)$/.exec(where);
  if (line) return { line: Number(line[1]) };
  const arg = /^argument (\d+)$/.exec(where);
  return arg ? { argument: Number(arg[1]) } : { where };
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
  const { people, duplicates, problems } = classifyPeople(entries, { ids: false });
  const { output } = ctx;
  if (problems.length) {
    if (output.json)
      for (const p of problems)
        output.emit({
          event: 'invalid',
          ...placeOf(p.where),
          value: p.raw,
          field: 'email',
          message: p.message,
        });
    else for (const p of problems) output.note(`${shown(p.where)}: email: ${p.raw}: ${p.message}`);
    throw new CliError(
      `${problems.length} invalid e-mail address${problems.length === 1 ? '' : 'es'}; nothing was written.`,
      ExitCode.badInput,
      { hint: 'Fix them (one e-mail address per line, or a CSV with an email column) and run it again.' },
    );
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
  const portal = `${ctx.server}/portal/users`;

  await runBulk<Item, Result>(ctx, {
    label: dryRun ? 'Checking learners' : 'Adding learners',
    items,
    concurrency,
    wordWidth: WORD_WIDTH,
    work: async (item) => {
      if (item.kind === 'duplicate') return { kind: 'duplicate' };
      return dryRun ? checkSeat(client, item.email, ctx.signal) : addSeat(client, item.email, ctx.signal);
    },
    describe: (item, _i, outcome): ItemReport => {
      const where = shown(item.where);
      const base = { event: 'seat', ...placeOf(item.where), email: item.email };
      const report = (
        key: string,
        text: string,
        extra: Record<string, unknown> = {},
        detail?: string[],
      ): ItemReport => {
        const s = STATUS[key]!;
        return {
          failed: s.failed,
          line: {
            key: item.where,
            tone: s.tone,
            word: s.word,
            text: `${where}  ${text}`,
            ...(detail?.length ? { detail } : {}),
          },
          event: { ...base, status: s.status, ...extra },
        };
      };
      if (!outcome.ok) {
        const { message, detail, status } = errorDetail(outcome.error);
        return report('failed', item.email, { error: { message, ...(status ? { status } : {}) } }, [
          message,
          ...detail,
        ]);
      }
      const r = outcome.value;
      switch (r.kind) {
        case 'duplicate':
          return report('duplicate', `${item.email} (repeats ${(item as { of: string }).of})`, {
            of: placeOf((item as { of: string }).of),
          });
        case 'added':
          return report('added', `${item.email}${r.name ? ` (${r.name})` : ''}`, { learnerId: r.learnerId });
        case 'wouldAdd':
          return report('wouldAdd', `${item.email}${r.name ? ` (${r.name})` : ''}`, {
            learnerId: r.learnerId,
          });
        case 'already':
          return report('already', `${item.email}: ${r.message}`, { message: r.message });
        case 'notFound':
          return report(
            'notFound',
            `${item.email} (no learner account${r.mayInvite ? '; can be invited' : ''})`,
            { mayInvite: r.mayInvite, message: r.message },
          );
        case 'payment':
          return report(
            'payment',
            item.email,
            { outcome: r.outcome, quantity: r.quantity, message: r.message },
            [`${r.message}: every seat is taken. Buy seats in the portal (${portal}), then run this again.`],
          );
      }
    },
    summarize: (reports, stopped) => {
      const count = (status: string) => reports.filter((r) => r.event.status === status).length;
      const counts = Object.fromEntries(Object.values(STATUS).map((s) => [s.status, count(s.status)]));
      const done = dryRun ? counts.wouldAdd! : counts.added!;
      const parts = [
        counts.alreadyAssigned ? `${counts.alreadyAssigned} already assigned` : '',
        counts.duplicate ? `${counts.duplicate} duplicate${counts.duplicate === 1 ? '' : 's'}` : '',
        counts.notFound ? `${counts.notFound} with no learner account` : '',
        counts.paymentRequired
          ? `${counts.paymentRequired} need${counts.paymentRequired === 1 ? 's' : ''} payment`
          : '',
        counts.failed ? `${counts.failed} failed` : '',
      ].filter(Boolean);
      const free = freeSeats(info);
      const invitable = reports.filter((r) => r.event.mayInvite === true).map((r) => String(r.event.email));
      const inviteHint = invitable.length
        ? [
            `Invite the ${invitable.length === 1 ? 'one' : invitable.length} with no account: waymark seats invite ${invitable.slice(0, 3).join(' ')}${invitable.length > 3 ? ' …' : ''}`,
          ]
        : [];
      const lines = dryRun
        ? [
            `${done} of ${items.length} would be added${parts.length ? `; ${parts.join(', ')}` : ''}. Nothing was written (--dry-run).`,
            `${free} seat${free === 1 ? ' is' : 's are'} free now${done > free ? `: ${done - free} of them would need payment first` : ''}.`,
            ...inviteHint,
          ]
        : [
            `Added ${done} of ${items.length}${parts.length ? `; ${parts.join(', ')}` : ''}.`,
            ...(stopped ? [`Stopped early: ${items.length - reports.length} not attempted.`] : []),
            ...inviteHint,
          ];
      const failed = reports.some((r) => r.failed);
      return {
        summary: { tone: failed || stopped ? 'fail' : dryRun ? 'info' : 'ok', lines },
        event: {
          event: 'summary',
          total: items.length,
          ...counts,
          freeSeats: free,
          ...(stopped ? { notAttempted: items.length - reports.length } : {}),
          dryRun,
        },
      };
    },
    partialMessage: (failed, total) =>
      `${failed} of ${total} learner${total === 1 ? '' : 's'} could not be added (see above).`,
  });
}

export const seatsAddCommand: CommandModule<SeatsAddOptions> = {
  define: (parent) =>
    parent
      .command('add')
      .description('Add learners by e-mail address (each needs a learner account)')
      .argument('<email...>', 'e-mail addresses (spaces or commas between them)')
      .option('--concurrency <n>', 'learners added at a time (1–16)', '4')
      .option('--dry-run', 'check each address with the server; add nobody')
      .addHelpText(
        'after',
        `
Each address gets one line: added; already assigned (it is one of your seats); no such learner (no learner
account: \`waymark seats invite\` sends them an invitation); payment required (every seat is taken: buy
seats in the portal). Exit codes: 0 when every learner is now yours, 7 for a malformed address (nothing
written), 8 when some could not be added.

Examples:
  $ waymark seats add asha@example.com ravi@example.com
  $ waymark seats add asha@example.com,ravi@example.com --dry-run`,
      ),
  handler: (ctx, options) =>
    addSeatsFrom(ctx, peopleFromArguments(options.email), {
      source: '',
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      ...(options.dryRun ? { dryRun: true } : {}),
    }),
};
