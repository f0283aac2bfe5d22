/**
 * `waymark seats remove <email or id...>`: removes learners' seats (DELETE /tenant/users/remove-user/{id}),
 * after a confirmation that states the billing-cycle rule (mentor §2.3, §4), unless --yes.
 */
import { formatDateTime } from '@shared/rules/format-date';
import type { Context } from '../../core/context';
import { CancelledError, CliError, ExitCode, usageError } from '../../core/errors';
import { intOption } from '../../core/files';
import { classifyPeople, peopleFromArguments } from '../../core/people';
import { runPool } from '../../core/pool';
import { confirm } from '../../core/prompt';
import {
  findSeatHolder,
  type RemoveOutcome,
  removeSeat,
  type SeatHolder,
  subscriptionInfo,
} from '../../core/seats';
import { errorDetail, type ItemReport, runBulk } from '../bulk';
import type { CommandModule } from '../command';
import { placeOf } from './add';

export interface SeatsRemoveOptions {
  learner: string[];
  yes?: boolean;
  concurrency?: string;
  dryRun?: boolean;
}

/** The tooltip of a disabled seat (mentor §2.3). */
export const BILLING_CYCLE_RULE =
  "The tenant can access the user only until the end of this month's billing cycle.";

type Item = SeatHolder & { where: string };

const who = (s: SeatHolder) => `${s.email}${s.name ? ` (${s.name})` : ''}`;

export async function removeSeats(ctx: Context, options: SeatsRemoveOptions): Promise<void> {
  const concurrency = intOption(options.concurrency, '--concurrency', 1, 16, 4);
  const { people, problems } = classifyPeople(peopleFromArguments(options.learner), { ids: true });
  const { output } = ctx;
  const reportProblems = (
    list: { where: string; raw: string; message: string }[],
    summary: string,
  ): never => {
    if (output.json)
      for (const p of list)
        output.emit({ event: 'invalid', ...placeOf(p.where), value: p.raw, message: p.message });
    else for (const p of list) output.note(`${p.where}: ${p.raw}: ${p.message}`);
    throw new CliError(summary, ExitCode.badInput);
  };
  if (problems.length) reportProblems(problems, 'Nothing was removed.');

  const { client } = ctx.signedIn();
  // who they are first: a typo in a removal stops it before anything is removed
  const found = await runPool(people, (p) => findSeatHolder(client, p, ctx.signal), {
    concurrency,
    signal: ctx.signal,
    isFatal: () => true,
  });
  if (found.fatal) throw found.fatal;
  const items: Item[] = [];
  const unknown: { where: string; raw: string; message: string }[] = [];
  people.forEach((p, i) => {
    const holder = found.outcomes[i]?.ok ? found.outcomes[i].value : null;
    if (holder) items.push({ ...holder, where: p.where });
    else unknown.push({ where: p.where, raw: p.raw, message: 'is not one of your learners' });
  });
  if (unknown.length)
    reportProblems(
      unknown,
      `${unknown.length} of them ${unknown.length === 1 ? 'is' : 'are'} not your learners; nothing was removed.`,
    );

  const info = await subscriptionInfo(client, ctx.signal);
  const rule = info.isSubscribed
    ? `You are subscribed: a removed learner stays, disabled, until the end of the billing cycle${info.subscriptionNextDue ? ` (${formatDateTime(info.subscriptionNextDue)})` : ''}; then the seat is removed and no longer billed. ${BILLING_CYCLE_RULE}`
    : 'You are not subscribed: the seats are removed at once.';
  const dryRun = Boolean(options.dryRun);
  if (!dryRun && !options.yes) {
    if (!ctx.io.stdin.isTTY) {
      throw usageError(
        'Removing learners needs confirmation.',
        'Run it again with --yes (or --dry-run to see what it would do).',
      );
    }
    ctx.output.note(
      `Remove ${items.length} learner${items.length === 1 ? '' : 's'}: ${items.slice(0, 5).map(who).join(', ')}${items.length > 5 ? ', …' : ''}`,
    );
    ctx.output.note(rule);
    const yes = await confirm('Remove them?', { stdin: ctx.io.stdin, stderr: ctx.io.stderr });
    if (!yes) throw new CancelledError('Nothing was removed.');
  }

  const words = {
    removed: 'removed',
    disabled: 'disabled',
    alreadyRemoved: 'already removed',
    wouldRemove: 'would remove',
    failed: 'failed',
  };
  await runBulk<Item, RemoveOutcome | null>(ctx, {
    label: dryRun ? 'Checking learners' : 'Removing learners',
    items,
    concurrency,
    wordWidth: Math.max(...Object.values(words).map((w) => w.length)),
    work: (item) =>
      dryRun ? Promise.resolve(null) : removeSeat(client, item.learnerId, item.isDisabled, ctx.signal),
    describe: (item, _i, outcome): ItemReport => {
      const base = { event: 'seat', ...placeOf(item.where), email: item.email, learnerId: item.learnerId };
      if (!outcome.ok) {
        const { message, detail, status } = errorDetail(outcome.error);
        return {
          failed: true,
          line: {
            key: item.where,
            tone: 'fail',
            word: words.failed,
            text: who(item),
            detail: [message, ...detail],
          },
          event: { ...base, status: 'failed', error: { message, ...(status ? { status } : {}) } },
        };
      }
      const r = outcome.value;
      if (!r) {
        return {
          failed: false,
          line: {
            key: item.where,
            tone: 'info',
            word: words.wouldRemove,
            text: `${who(item)}${item.isDisabled ? ' (already removed: disabled)' : ''}`,
          },
          event: { ...base, status: item.isDisabled ? 'alreadyRemoved' : 'wouldRemove' },
        };
      }
      const until = 'accessUntil' in r && r.accessUntil ? ` until ${formatDateTime(r.accessUntil)}` : '';
      const line =
        r.kind === 'removed'
          ? { tone: 'ok' as const, word: words.removed, text: who(item) }
          : r.kind === 'disabled'
            ? {
                tone: 'ok' as const,
                word: words.disabled,
                text: `${who(item)}: stays${until}, then the seat is removed`,
              }
            : { tone: 'warn' as const, word: words.alreadyRemoved, text: `${who(item)}: disabled${until}` };
      return {
        failed: false,
        line: { key: item.where, ...line },
        event: { ...base, status: r.kind, ...('accessUntil' in r ? { accessUntil: r.accessUntil } : {}) },
      };
    },
    summarize: (reports, stopped) => {
      const count = (s: string) => reports.filter((r) => r.event.status === s).length;
      const failed = count('failed');
      const disabled = count('disabled');
      const done = [
        `Removed ${count('removed') + disabled} of ${items.length}`,
        disabled
          ? `${disabled} stay${disabled === 1 ? 's' : ''}, disabled, until the end of the billing cycle`
          : '',
        count('alreadyRemoved') ? `${count('alreadyRemoved')} already removed` : '',
        failed ? `${failed} failed` : '',
      ].filter(Boolean);
      const lines = dryRun
        ? [`Would remove ${count('wouldRemove')} of ${items.length}. Nothing was changed (--dry-run).`, rule]
        : [
            `${done.join('; ')}.`,
            ...(stopped ? [`Stopped early: ${items.length - reports.length} not attempted.`] : []),
          ];
      return {
        summary: { tone: failed || stopped ? 'fail' : dryRun ? 'info' : 'ok', lines },
        event: {
          event: 'summary',
          total: items.length,
          removed: count('removed'),
          disabled: count('disabled'),
          alreadyRemoved: count('alreadyRemoved'),
          ...(dryRun ? { wouldRemove: count('wouldRemove') } : {}),
          failed,
          subscribed: info.isSubscribed,
          dryRun,
        },
      };
    },
    partialMessage: (failed, total) => `${failed} of ${total} could not be removed (see above).`,
  });
}

export const seatsRemoveCommand: CommandModule<SeatsRemoveOptions> = {
  define: (parent) =>
    parent
      .command('remove')
      .description('Remove learners (asks first; a subscribed seat stays until the end of the billing cycle)')
      .argument('<learner...>', 'e-mail addresses or learner ids (see `waymark seats list`)')
      .option('-y, --yes', 'do not ask for confirmation (needed when standard input is not a terminal)')
      .option('--concurrency <n>', 'learners removed at a time (1–16)', '4')
      .option('--dry-run', 'say what would be removed; remove nothing')
      .addHelpText(
        'after',
        `
When you are not subscribed, a seat is removed at once. When you are, the learner stays, disabled, until
the end of the billing cycle, and the next period is billed without the seat. ${BILLING_CYCLE_RULE}
Every learner is looked up first; one who is not yours and nothing is removed (exit 7).

Examples:
  $ waymark seats remove asha@example.com
  $ waymark seats remove 74ef7c03-542b-408b-86b4-d3433bbf6c37 ravi@example.com --yes`,
      ),
  handler: removeSeats,
};
