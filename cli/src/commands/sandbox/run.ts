/**
 * `waymark sandbox create | reset | show`: POST /tenant/sandbox, POST /tenant/sandbox/reset, GET
 * /tenant/sandbox (decision 041), then the sandbox: its learners and its links, one line each.
 */
import { createSandbox, getSandbox, resetSandbox } from '@shared/contract/sandbox';
import type { Sandbox } from '@shared/schemas/sandbox';
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';

export type SandboxOptions = Record<string, never>;

export async function sandboxCommand(
  ctx: Context,
  action: 'create' | 'reset' | 'show',
  _options: SandboxOptions,
): Promise<void> {
  const { client } = ctx.signedIn();
  const signal = ctx.signal;
  const res =
    action === 'create'
      ? await client.call(createSandbox, { signal })
      : action === 'reset'
        ? await client.call(resetSandbox, { signal })
        : await client.call(getSandbox, { signal });
  const sandbox = res.data;
  if (!sandbox) throw new CliError('You have no sandbox yet: waymark sandbox create', ExitCode.notFound);
  const { output } = ctx;
  if (output.json) return output.emit(sandbox);
  output.line(summary(sandbox, action));
  for (const l of sandbox.links) {
    const state = l.isCompleted ? `${l.status} ${l.percentage ?? 0} %` : l.status;
    output.line(
      [l.learnerName, l.type, l.title, state, l.linkId, l.awardUrl ?? l.testUrl].join(
        output.mode === 'plain' ? '\t' : '  ',
      ),
    );
  }
}

/** The first line: what happened and the sandbox's age. */
function summary(s: Sandbox, action: 'create' | 'reset' | 'show'): string {
  const day = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  const resets = s.resetAt
    ? `; reset ${s.resets} ${s.resets === 1 ? 'time' : 'times'}, last ${day(s.resetAt)}`
    : '';
  const done = action === 'reset' ? 'Reset: every attempt is back to its start. ' : '';
  return `${done}Sandbox since ${day(s.createdAt)}${resets}: ${s.learners.length} learners, ${s.links.length} open links.`;
}
