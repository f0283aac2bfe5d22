/**
 * `waymark xapi …` (issue 29; decision 042): the tenant's learning record store through the API — shown,
 * connected or changed (the secret typed without echo or piped on standard input, never an argument),
 * tried with a test statement, disconnected — and what was sent, with the failures sent again.
 */
import {
  connectXapi,
  disconnectXapi,
  resendXapiStatements,
  testXapi,
  xapiConnection,
  xapiStatementQueue,
} from '@shared/contract/xapi';
import { formatDateTime } from '@shared/rules/format-date';
import { ConnectXapiInput, XAPI_QUEUE_STATUSES, XAPI_STATEMENT_KINDS } from '@shared/schemas/xapi';
import type { Context } from '../../core/context';
import { CancelledError, CliError, ExitCode, usageError } from '../../core/errors';
import { confirm, promptSecret, readFirstLine } from '../../core/prompt';
import { printList } from '../webhooks/table';

const when = (iso: string | null, none = 'never') => (iso ? formatDateTime(iso) : none);

export async function showConnection(ctx: Context): Promise<void> {
  const { data } = await ctx.signedIn().client.call(xapiConnection, { signal: ctx.signal });
  if (ctx.output.json) {
    ctx.output.emit(data);
    return;
  }
  if (!data) {
    ctx.output.line(
      'No learning record store is connected. Connect one with `waymark xapi connect <endpoint> --key <key>`.',
    );
    return;
  }
  for (const [label, value] of [
    ['Endpoint', data.endpoint],
    ['Key', data.username],
    ['Learners as', data.actorFormat],
    ['Sends', data.statements.join(', ') || 'nothing'],
    [
      'Status',
      !data.enabled ? 'paused' : data.failingSince ? `failing since ${when(data.failingSince)}` : 'sending',
    ],
    ['Last accepted', when(data.lastSentAt)],
    ['Events', `${data.counts.pending} waiting, ${data.counts.sent} sent, ${data.counts.failed} failed`],
  ])
    ctx.output.line(`${label}:\t${value}`);
}

export interface XapiConnectOptions {
  endpoint: string;
  key: string;
  actor?: string;
  send?: string;
  paused?: boolean;
  newSecret?: boolean;
}

export async function connect(ctx: Context, options: XapiConnectOptions): Promise<void> {
  const { client } = ctx.signedIn();
  const current = (await client.call(xapiConnection, { signal: ctx.signal })).data;
  let secret: string | undefined;
  if (!current || options.newSecret) {
    secret = ctx.io.stdin.isTTY
      ? await promptSecret('LRS secret: ', { stdin: ctx.io.stdin, stderr: ctx.io.stderr })
      : await readFirstLine(ctx.io.stdin);
    if (!secret)
      throw usageError('The LRS secret is needed: type it when asked, or pipe it on standard input.');
  }
  const parsed = ConnectXapiInput.safeParse({
    endpoint: options.endpoint,
    username: options.key,
    secret,
    actorFormat: options.actor ?? current?.actorFormat ?? 'account',
    statements: options.send
      ? options.send === 'all'
        ? [...XAPI_STATEMENT_KINDS]
        : options.send
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
      : (current?.statements ?? [...XAPI_STATEMENT_KINDS]),
    enabled: !options.paused,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option =
      { endpoint: '<endpoint>', username: '--key', actorFormat: '--actor', statements: '--send' }[
        String(issue.path[0])
      ] ?? '';
    throw usageError(`${option}: ${issue.message}`);
  }
  const { data } = await client.call(connectXapi, { body: parsed.data, signal: ctx.signal });
  if (ctx.output.json) ctx.output.emit({ event: current ? 'updated' : 'connected', ...data });
  else
    ctx.output.line(
      `${current ? 'Saved' : 'Connected'}: ${data.endpoint} receives ${data.statements.join(', ')}, learners as ${data.actorFormat}.`,
    );
}

export async function sendTest(ctx: Context): Promise<void> {
  const { data } = await ctx.signedIn().client.call(testXapi, { signal: ctx.signal });
  if (ctx.output.json) ctx.output.emit(data);
  else
    ctx.output.line(
      `${data.message} (${data.status ?? 'no answer'}, ${data.ms} ms; statement ${data.statementId})`,
    );
  if (!data.ok)
    throw new CliError('The learning record store did not store the test statement.', ExitCode.unreachable);
}

export interface XapiStatementsOptions {
  status?: string;
  limit?: string;
}

export async function listStatements(ctx: Context, options: XapiStatementsOptions): Promise<void> {
  const status = options.status?.toUpperCase();
  if (status && !(XAPI_QUEUE_STATUSES as readonly string[]).includes(status))
    throw usageError(`--status: must be one of ${XAPI_QUEUE_STATUSES.join(', ').toLowerCase()}`);
  const limit = Number(options.limit ?? 50);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw usageError('--limit: must be a number from 1 to 100');
  const { data } = await ctx.signedIn().client.call(xapiStatementQueue, {
    query: { limit, ...(status ? { status: status as (typeof XAPI_QUEUE_STATUSES)[number] } : {}) },
    signal: ctx.signal,
  });
  await printList(
    ctx,
    data.entries,
    [
      { header: 'Event', value: (e) => e.eventType },
      { header: 'Statements', value: (e) => String(e.statementIds.length) },
      { header: 'Status', value: (e) => e.status.toLowerCase() },
      { header: 'Time', value: (e) => when(e.lastAttemptAt ?? e.createdAt, '—') },
      { header: 'Tries', value: (e) => String(e.attempts) },
      { header: 'Answer', value: (e) => (e.responseStatus === null ? '—' : String(e.responseStatus)) },
      { header: 'Error', value: (e) => (e.error ?? '').slice(0, 80) },
    ],
    'Nothing sent yet.',
  );
}

export async function resend(ctx: Context): Promise<void> {
  const { data } = await ctx.signedIn().client.call(resendXapiStatements, { signal: ctx.signal });
  if (ctx.output.json) ctx.output.emit({ event: 'resent', count: data.resent });
  else ctx.output.line(`${data.resent} failed entries are sent again.`);
}

export async function disconnect(ctx: Context, options: { yes?: boolean }): Promise<void> {
  if (!options.yes) {
    if (!ctx.io.stdin.isTTY)
      throw usageError('Disconnecting needs confirmation.', 'Run it again with --yes.');
    ctx.output.note('Nothing more is sent to the learning record store, and what waits is dropped.');
    if (!(await confirm('Disconnect it?', { stdin: ctx.io.stdin, stderr: ctx.io.stderr })))
      throw new CancelledError('Nothing was changed.');
  }
  await ctx.signedIn().client.call(disconnectXapi, { signal: ctx.signal });
  if (ctx.output.json) ctx.output.emit({ event: 'disconnected' });
  else ctx.output.line('The learning record store is disconnected.');
}
