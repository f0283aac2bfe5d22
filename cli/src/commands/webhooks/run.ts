/**
 * `waymark webhooks …` (issue 29; decision 042): a tenant's webhook endpoints through the API — list, add
 * (the signing secret printed once), test, pause, enable, rotate the secret, remove — and an endpoint's
 * deliveries, redelivered one at a time or every failed one of a period. An endpoint is named by its id or
 * by its address as the list shows it.
 */
import { EVENT_TYPES } from '@shared/contract/events';
import {
  createWebhook,
  redeliverFailedWebhooks,
  redeliverWebhook,
  removeWebhook,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  webhookDeliveries,
  webhookList,
} from '@shared/contract/webhooks';
import { formatDateTime } from '@shared/rules/format-date';
import {
  CreateWebhookInput,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookEndpoint,
} from '@shared/schemas/webhooks';
import type { Context } from '../../core/context';
import { CancelledError, CliError, ExitCode, usageError } from '../../core/errors';
import { confirm } from '../../core/prompt';
import { printList } from './table';

const when = (iso: string | null, none = '—') => (iso ? formatDateTime(iso) : none);
const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The endpoint named by an id or an address. */
async function endpointOf(ctx: Context, wanted: string): Promise<WebhookEndpoint> {
  const { client } = ctx.signedIn();
  const { data } = await client.call(webhookList, { signal: ctx.signal });
  const found = data.filter((e) => e._id === wanted.trim() || e.url === wanted.trim());
  if (found.length !== 1)
    throw new CliError(
      found.length
        ? `${wanted} names ${found.length} endpoints: give its id.`
        : `${wanted} is not one of your webhook endpoints.`,
      ExitCode.notFound,
      { hint: '`waymark webhooks list` shows them, with their ids.' },
    );
  return found[0]!;
}

export async function listEndpoints(ctx: Context): Promise<void> {
  const { client } = ctx.signedIn();
  const { data } = await client.call(webhookList, { signal: ctx.signal });
  await printList(
    ctx,
    data,
    [
      { header: 'Endpoint', value: (e) => e.url },
      { header: 'Events', value: (e) => e.events.join(',') },
      {
        header: 'Status',
        value: (e) => (e.status === 'ACTIVE' ? (e.failingSince ? 'failing' : 'active') : 'paused'),
      },
      { header: 'Last delivery', value: (e) => when(e.lastDeliveredAt) },
      { header: 'Id', value: (e) => e._id, dim: true },
    ],
    'No webhook endpoints yet. Add one with `waymark webhooks add <url> --events …`.',
  );
}

export interface WebhooksAddOptions {
  url: string;
  events: string;
  description?: string;
  ordered?: boolean;
}

export async function addEndpoint(ctx: Context, options: WebhooksAddOptions): Promise<void> {
  const events = options.events === 'all' ? [...EVENT_TYPES] : list(options.events);
  const parsed = CreateWebhookInput.safeParse({
    url: options.url,
    events,
    description: options.description,
    ordered: options.ordered ?? false,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option =
      { url: '<url>', events: '--events', description: '--description' }[String(issue.path[0])] ?? '';
    throw usageError(`${option}: ${issue.message}`);
  }
  const { client } = ctx.signedIn();
  const { data } = await client.call(createWebhook, { body: parsed.data, signal: ctx.signal });
  if (ctx.output.json) {
    ctx.output.emit({ event: 'created', ...data });
    return;
  }
  ctx.output.line(data.secret);
  ctx.output.note(
    `Endpoint ${data.url} (${data._id}) receives ${data.events.join(', ')}. The line above is its signing secret: copy it now, it is shown only once.`,
  );
}

export interface WebhooksTargetOptions {
  endpoint: string;
  yes?: boolean;
}

export async function testEndpoint(ctx: Context, options: WebhooksTargetOptions): Promise<void> {
  const e = await endpointOf(ctx, options.endpoint);
  const { data } = await ctx
    .signedIn()
    .client.call(testWebhook, { params: { id: e._id }, signal: ctx.signal });
  if (ctx.output.json) ctx.output.emit({ event: 'test', ...data });
  else
    ctx.output.line(
      `A test event (${data.eventId}) is on its way to ${e.url}: \`waymark webhooks deliveries ${e._id}\` shows how it went.`,
    );
}

export async function setEnabled(
  ctx: Context,
  options: WebhooksTargetOptions,
  enabled: boolean,
): Promise<void> {
  const e = await endpointOf(ctx, options.endpoint);
  const { data } = await ctx.signedIn().client.call(updateWebhook, {
    params: { id: e._id },
    body: { enabled },
    signal: ctx.signal,
  });
  if (ctx.output.json) ctx.output.emit({ event: enabled ? 'enabled' : 'paused', ...data });
  else
    ctx.output.line(
      enabled
        ? `${data.url} is enabled.`
        : `${data.url} is paused: nothing is sent to it until it is enabled.`,
    );
}

export async function rotateSecret(ctx: Context, options: WebhooksTargetOptions): Promise<void> {
  const e = await endpointOf(ctx, options.endpoint);
  const { data } = await ctx
    .signedIn()
    .client.call(rotateWebhookSecret, { params: { id: e._id }, signal: ctx.signal });
  if (ctx.output.json) {
    ctx.output.emit({ event: 'rotated', ...data });
    return;
  }
  ctx.output.line(data.secret);
  ctx.output.note(
    `The new signing secret of ${data.url}, shown only once. Until ${when(data.previousSecretUntil)} deliveries are signed with the previous one too.`,
  );
}

export async function removeEndpoint(ctx: Context, options: WebhooksTargetOptions): Promise<void> {
  const e = await endpointOf(ctx, options.endpoint);
  if (!options.yes) {
    if (!ctx.io.stdin.isTTY)
      throw usageError('Removing an endpoint needs confirmation.', 'Run it again with --yes.');
    ctx.output.note(`Nothing more is sent to ${e.url}, and its deliveries are deleted.`);
    if (!(await confirm('Remove it?', { stdin: ctx.io.stdin, stderr: ctx.io.stderr })))
      throw new CancelledError('Nothing was removed.');
  }
  await ctx.signedIn().client.call(removeWebhook, { params: { id: e._id }, signal: ctx.signal });
  if (ctx.output.json) ctx.output.emit({ event: 'removed', _id: e._id, url: e.url });
  else ctx.output.line(`Removed ${e.url}.`);
}

export interface WebhooksDeliveriesOptions {
  endpoint: string;
  status?: string;
  limit?: string;
}

export async function listDeliveries(ctx: Context, options: WebhooksDeliveriesOptions): Promise<void> {
  const status = options.status?.toUpperCase();
  if (status && !(WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(status))
    throw usageError(`--status: must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ').toLowerCase()}`);
  const limit = Number(options.limit ?? 50);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw usageError('--limit: must be a number from 1 to 100');
  const e = await endpointOf(ctx, options.endpoint);
  const { data } = await ctx.signedIn().client.call(webhookDeliveries, {
    params: { id: e._id },
    query: { limit, ...(status ? { status: status as (typeof WEBHOOK_DELIVERY_STATUSES)[number] } : {}) },
    signal: ctx.signal,
  });
  await printList(
    ctx,
    data.deliveries,
    [
      { header: 'Event', value: (d) => d.eventType },
      { header: 'Status', value: (d) => d.status.toLowerCase() },
      { header: 'Time', value: (d) => when(d.lastAttemptAt ?? d.createdAt) },
      { header: 'Tries', value: (d) => String(d.attempts) },
      { header: 'Answer', value: (d) => (d.responseStatus === null ? '—' : String(d.responseStatus)) },
      { header: 'ms', value: (d) => (d.responseMs === null ? '—' : String(d.responseMs)) },
      { header: 'Error', value: (d) => (d.error ?? '').slice(0, 80) },
      { header: 'Id', value: (d) => d._id, dim: true },
    ],
    'No deliveries yet.',
  );
}

export interface WebhooksRedeliverOptions {
  endpoint: string;
  delivery?: string;
  failedSince?: string;
}

export async function redeliver(ctx: Context, options: WebhooksRedeliverOptions): Promise<void> {
  if (!options.delivery === !options.failedSince)
    throw usageError('Name one delivery (--delivery <id>) or a period (--failed-since <hours>).');
  const e = await endpointOf(ctx, options.endpoint);
  const { client } = ctx.signedIn();
  if (options.delivery) {
    const { data } = await client.call(redeliverWebhook, {
      params: { id: e._id, deliveryId: options.delivery },
      signal: ctx.signal,
    });
    if (ctx.output.json) ctx.output.emit({ event: 'redelivered', ...data });
    else ctx.output.line(`The ${data.eventType} delivery is sent again to ${e.url}.`);
    return;
  }
  const hours = Number(options.failedSince);
  if (!Number.isFinite(hours) || hours <= 0 || hours > 30 * 24)
    throw usageError('--failed-since: must be a number of hours from 1 to 720');
  const to = new Date(Date.now() + 1000);
  const from = new Date(Date.now() - hours * 3600_000);
  const { data } = await client.call(redeliverFailedWebhooks, {
    params: { id: e._id },
    body: { from: from.toISOString(), to: to.toISOString() },
    signal: ctx.signal,
  });
  if (ctx.output.json) ctx.output.emit({ event: 'redelivered', count: data.redelivered });
  else
    ctx.output.line(
      `${data.redelivered} failed deliveries of the last ${hours} hours are sent again to ${e.url}.`,
    );
}
