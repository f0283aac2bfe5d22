/**
 * `waymark seats invite <email...>`: invites people who have no account yet. Each invitation is recorded on
 * the server (POST /tenant/users/invite-user, which keeps a seat for 7 days), then the e-mail sign-in link is
 * sent through the identity service the server names in GET /api/config, as the portal does with the
 * Firebase SDK (accounts:sendOobCode with requestType EMAIL_SIGNIN and the invitation's continueUrl).
 */
import { ApiError } from '@shared/client/client';
import { formatDateTime } from '@shared/rules/format-date';
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';
import { intOption } from '../../core/files';
import { classifyPeople, peopleFromArguments } from '../../core/people';
import {
  type CheckOutcome,
  checkSeat,
  InviteMailError,
  type InviteOutcome,
  identitySettings,
  inviteSeat,
} from '../../core/seats';
import type { Tone } from '../../ui/BulkView';
import { errorDetail, type ItemReport, runBulk } from '../bulk';
import type { CommandModule } from '../command';
import { placeOf } from './add';

export interface SeatsInviteOptions {
  email: string[];
  concurrency?: string;
  dryRun?: boolean;
}

type Item = { email: string; where: string };

const STATUS: Record<string, { word: string; tone: Tone; failed: boolean }> = {
  invited: { word: 'invited', tone: 'ok', failed: false },
  wouldInvite: { word: 'would invite', tone: 'info', failed: false },
  alreadyAssigned: { word: 'already assigned', tone: 'warn', failed: false },
  hasAccount: { word: 'has an account', tone: 'fail', failed: true },
  cannotInvite: { word: 'cannot invite', tone: 'fail', failed: true },
  notSent: { word: 'e-mail not sent', tone: 'fail', failed: true },
  failed: { word: 'failed', tone: 'fail', failed: true },
};

export async function inviteSeats(ctx: Context, options: SeatsInviteOptions): Promise<void> {
  const concurrency = intOption(options.concurrency, '--concurrency', 1, 16, 4);
  const { people, duplicates, problems } = classifyPeople(peopleFromArguments(options.email), { ids: false });
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
    else for (const p of problems) output.note(`${p.where}: email: ${p.raw}: ${p.message}`);
    throw new CliError('Nobody was invited.', ExitCode.badInput);
  }
  if (duplicates.length)
    output.note(`Left out ${duplicates.length} repeated address${duplicates.length === 1 ? '' : 'es'}.`);
  const items: Item[] = people.map((p) => ({ email: (p as { email: string }).email, where: p.where }));

  const { client } = ctx.signedIn();
  const dryRun = Boolean(options.dryRun);
  const firebase = dryRun ? null : await identitySettings(ctx.api(), ctx.signal);

  await runBulk<Item, InviteOutcome | CheckOutcome>(ctx, {
    label: dryRun ? 'Checking addresses' : 'Inviting',
    items,
    concurrency,
    wordWidth: Math.max(...Object.values(STATUS).map((s) => s.word.length)),
    work: (item) =>
      dryRun
        ? checkSeat(client, item.email, ctx.signal)
        : inviteSeat(client, item.email, { fetch: ctx.http.fetch, firebase: firebase!, signal: ctx.signal }),
    describe: (item, _i, outcome): ItemReport => {
      const report = (
        status: string,
        text: string,
        extra: Record<string, unknown> = {},
        detail?: string[],
      ): ItemReport => {
        const s = STATUS[status]!;
        return {
          failed: s.failed,
          line: { key: item.where, tone: s.tone, word: s.word, text, ...(detail?.length ? { detail } : {}) },
          event: { event: 'invitation', ...placeOf(item.where), email: item.email, status, ...extra },
        };
      };
      if (!outcome.ok) {
        const err = outcome.error;
        if (err instanceof InviteMailError) {
          return report('notSent', item.email, { message: err.message, reason: err.reason }, [
            err.message,
            `The invitation is recorded; the identity service said: ${err.reason}`,
          ]);
        }
        if (err instanceof ApiError && err.status === 409 && String(err.code) === '11000') {
          return report('hasAccount', item.email, { message: err.message }, [
            `${err.message} Run \`waymark seats add ${item.email}\`.`,
          ]);
        }
        if (err instanceof ApiError && err.errorCode === 'NO_FREE_SEAT') {
          return report('cannotInvite', item.email, { message: err.message }, [err.message]);
        }
        const { message, detail, status } = errorDetail(err);
        return report('failed', item.email, { error: { message, ...(status ? { status } : {}) } }, [
          message,
          ...detail,
        ]);
      }
      const r = outcome.value;
      switch (r.kind) {
        case 'invited':
          return report(
            'invited',
            `${item.email}: the sign-in link is on its way; the seat is kept until ${formatDateTime(r.expiresAt)}`,
            {
              expiresAt: r.expiresAt,
            },
          );
        case 'notFound':
          return r.mayInvite
            ? report('wouldInvite', item.email)
            : report(
                'cannotInvite',
                item.email,
                { message: 'no free seat, or the address belongs to a mentor' },
                ['No seat is free for an invitation, or the address belongs to a mentor account.'],
              );
        case 'wouldAdd':
          return report('hasAccount', `${item.email}${r.name ? ` (${r.name})` : ''}`, {}, [
            `This address already has a learner account: run \`waymark seats add ${item.email}\`.`,
          ]);
        case 'already':
          return report('alreadyAssigned', `${item.email}: ${r.message}`);
      }
    },
    summarize: (reports, stopped) => {
      const count = (s: string) => reports.filter((r) => r.event.status === s).length;
      const done = count(dryRun ? 'wouldInvite' : 'invited');
      const failed = reports.filter((r) => r.failed).length;
      const lines = [
        dryRun
          ? `${done} of ${items.length} would be invited. Nothing was sent (--dry-run).`
          : `Invited ${done} of ${items.length}${failed ? `; ${failed} not` : ''}. Each invitation keeps a seat for 7 days; the learner becomes yours on signing up through the link.`,
        ...(stopped ? [`Stopped early: ${items.length - reports.length} not attempted.`] : []),
      ];
      return {
        summary: { tone: failed || stopped ? 'fail' : dryRun ? 'info' : 'ok', lines },
        event: {
          event: 'summary',
          total: items.length,
          ...Object.fromEntries(Object.keys(STATUS).map((s) => [s, count(s)])),
          dryRun,
        },
      };
    },
    partialMessage: (failed, total) => `${failed} of ${total} could not be invited (see above).`,
  });
}

export const seatsInviteCommand: CommandModule<SeatsInviteOptions> = {
  define: (parent) =>
    parent
      .command('invite')
      .description('Invite people with no account: they get an e-mail sign-in link and become your learners')
      .argument('<email...>', 'e-mail addresses (spaces or commas between them)')
      .option('--concurrency <n>', 'invitations at a time (1–16)', '4')
      .option('--dry-run', 'check each address with the server; invite nobody')
      .addHelpText(
        'after',
        `
Each invitation keeps a seat for 7 days. The e-mail is sent by the identity service the server names
(GET /api/config), as the portal sends it: on a real Firebase project the return address's domain must be
an authorised domain of the project. An address that already has an account is added instead with
\`waymark seats add\`.

Examples:
  $ waymark seats invite new.learner@example.com
  $ waymark seats import roster.csv --json | jq -r 'select(.status == "notFound" and .mayInvite) | .email' | xargs waymark seats invite`,
      ),
  handler: inviteSeats,
};
