/**
 * `waymark seats remove <email or id...>`: removes learners' seats (DELETE /tenant/users/remove-user/{id}),
 * after a confirmation that states the billing-cycle rule (mentor §2.3, §4), unless --yes.
 */
import { type PoolOutcome, runPool } from '@shared/client/pool';
import { formatDateTime } from '@shared/rules/format-date';
import { SEAT_ACCESS_RULE } from '@shared/rules/seats';
import type { Context } from '../../core/context';
import { CancelledError, usageError } from '../../core/errors';
import { intOption } from '../../core/files';
import { classifyPeople, peopleFromArguments } from '../../core/people';
import { confirm } from '../../core/prompt';
import {
  findSeatHolder,
  type RemoveOutcome,
  removeSeat,
  type SeatHolder,
  subscriptionInfo,
} from '../../core/seats';
import {
  FAILED,
  failedWith,
  failWithProblems,
  type ItemOutcome,
  placeFields,
  runBulk,
  type StatusStyle,
} from '../bulk';

export interface SeatsRemoveOptions {
  learner: string[];
  yes?: boolean;
  concurrency?: string;
  dryRun?: boolean;
}

/** The tooltip of a disabled seat (mentor §2.3). */
export const BILLING_CYCLE_RULE = SEAT_ACCESS_RULE;

type Item = SeatHolder & { where: string };

const who = (s: SeatHolder) => `${s.email}${s.name ? ` (${s.name})` : ''}`;

const STATUSES = {
  removed: { word: 'removed', tone: 'ok', failed: false },
  disabled: { word: 'disabled', tone: 'ok', failed: false },
  alreadyRemoved: { word: 'already removed', tone: 'warn', failed: false },
  wouldRemove: { word: 'would remove', tone: 'info', failed: false },
  failed: FAILED,
} as const satisfies Record<string, StatusStyle>;
type Status = keyof typeof STATUSES;

function outcomeOf(item: Item, outcome: PoolOutcome<RemoveOutcome | null>): ItemOutcome<Status> {
  if (!outcome.ok) return failedWith('failed', who(item), outcome.error);
  const r = outcome.value;
  if (!r) {
    return item.isDisabled
      ? { status: 'alreadyRemoved', text: `${who(item)}: disabled already` }
      : { status: 'wouldRemove', text: who(item) };
  }
  if (r.kind === 'removed') return { status: 'removed', text: who(item) };
  const until = r.accessUntil ? ` until ${formatDateTime(r.accessUntil)}` : '';
  return {
    status: 'disabled',
    text: `${who(item)}: stays${until}, then the seat is removed`,
    fields: { accessUntil: r.accessUntil },
  };
}

export async function removeSeats(ctx: Context, options: SeatsRemoveOptions): Promise<void> {
  const concurrency = intOption(options.concurrency, '--concurrency', 1, 16, 4);
  const { people, problems } = classifyPeople(peopleFromArguments(options.learner), { ids: true });
  if (problems.length) failWithProblems(ctx, problems, { summary: 'Nothing was removed.' });

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
  if (unknown.length) {
    failWithProblems(ctx, unknown, {
      summary: `${unknown.length === 1 ? 'One of them is' : `${unknown.length} of them are`} not your learner${unknown.length === 1 ? '' : 's'}; nothing was removed.`,
    });
  }

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

  await runBulk(ctx, {
    label: dryRun ? 'Checking learners' : 'Removing learners',
    event: 'seat',
    items,
    concurrency,
    statuses: STATUSES,
    dryRun,
    placeOf: (item) => ({
      key: item.where,
      fields: { ...placeFields(item.where), email: item.email, learnerId: item.learnerId },
    }),
    work: (item) =>
      dryRun || item.isDisabled ? Promise.resolve(null) : removeSeat(client, item.learnerId, ctx.signal),
    describe: outcomeOf,
    summarize: (count) => {
      const disabled = count('disabled');
      const done = [
        `Removed ${count('removed') + disabled} of ${items.length}`,
        disabled
          ? `${disabled} stay${disabled === 1 ? 's' : ''}, disabled, until the end of the billing cycle`
          : '',
        count('alreadyRemoved') ? `${count('alreadyRemoved')} already removed` : '',
        count('failed') ? `${count('failed')} failed` : '',
      ].filter(Boolean);
      return {
        lines: dryRun
          ? [
              `Would remove ${count('wouldRemove')} of ${items.length}. Nothing was changed (--dry-run).`,
              rule,
            ]
          : [`${done.join('; ')}.`],
        fields: { subscribed: info.isSubscribed },
      };
    },
    partialMessage: (failed, total) => `${failed} of ${total} could not be removed (see above).`,
  });
}
