/**
 * `waymark webhooks …`: a tenant's webhook endpoints (issue 29; decision 042). The definitions only: the
 * implementation (./webhooks/run.ts) is loaded when a command runs.
 */
import { WEBHOOK_DELIVERY_STATUSES } from '@shared/schemas/webhooks';
import type { CommandGroup, CommandModule } from './command';
import type {
  WebhooksAddOptions,
  WebhooksDeliveriesOptions,
  WebhooksRedeliverOptions,
  WebhooksTargetOptions,
} from './webhooks/run';

const run = () => import('./webhooks/run');
const ENDPOINT = ['<endpoint>', 'the endpoint: its id, or its address as the list shows it'] as const;

export const webhooksListCommand: CommandModule<Record<string, never>> = {
  define: (parent) =>
    parent
      .command('list')
      .description('List your webhook endpoints: address, events, status, last delivery, id')
      .addHelpText(
        'after',
        '\nWith --json, one endpoint per line as GET /tenant/webhooks returns it (never a secret).',
      ),
  handler: async (ctx) => (await run()).listEndpoints(ctx),
};

export const webhooksAddCommand: CommandModule<WebhooksAddOptions> = {
  define: (parent) =>
    parent
      .command('add')
      .description('Add an endpoint for some events; its signing secret is printed once')
      .argument('<url>', 'an https address of yours (never a private or local network address)')
      .requiredOption('--events <list>', 'the event types, comma separated (award.issued,seat.added), or all')
      .option('--description <text>', 'what the endpoint is for')
      .option('--ordered', 'deliver one at a time, in the order of the events')
      .addHelpText(
        'after',
        `
The signing secret (whsec_…) goes to standard output, alone (the \`secret\` field with --json): keep it with
your endpoint, which verifies each delivery's webhook-signature with it (Standard Webhooks; docs/webhooks.md).

Examples:
  $ waymark webhooks add https://hr.example.com/waymark --events award.issued,seat.added
  $ waymark webhooks add https://partner.example.com/hooks --events all --json | jq -r .secret`,
      ),
  handler: async (ctx, options) => (await run()).addEndpoint(ctx, options),
};

const target = (name: string, description: string, extra = '') =>
  ({
    define: (parent) =>
      parent
        .command(name)
        .description(description)
        .argument(...ENDPOINT)
        .addHelpText('after', extra),
  }) satisfies Pick<CommandModule<WebhooksTargetOptions>, 'define'>;

export const webhooksTestCommand: CommandModule<WebhooksTargetOptions> = {
  ...target('test', 'Send the endpoint a signed test event (webhook.test)'),
  handler: async (ctx, options) => (await run()).testEndpoint(ctx, options),
};

export const webhooksPauseCommand: CommandModule<WebhooksTargetOptions> = {
  ...target('pause', 'Pause an endpoint: its events are kept as failed deliveries, to redeliver'),
  handler: async (ctx, options) => (await run()).setEnabled(ctx, options, false),
};

export const webhooksEnableCommand: CommandModule<WebhooksTargetOptions> = {
  ...target('enable', 'Enable a paused endpoint again (its failures forgotten)'),
  handler: async (ctx, options) => (await run()).setEnabled(ctx, options, true),
};

export const webhooksRotateCommand: CommandModule<WebhooksTargetOptions> = {
  ...target(
    'rotate-secret',
    'Give an endpoint a new signing secret, printed once; the old one signs too for 24 hours',
  ),
  handler: async (ctx, options) => (await run()).rotateSecret(ctx, options),
};

export const webhooksRemoveCommand: CommandModule<WebhooksTargetOptions> = {
  define: (parent) =>
    parent
      .command('remove')
      .description('Remove an endpoint and its deliveries: nothing more is sent to it')
      .argument(...ENDPOINT)
      .option('--yes', 'remove without asking (needed when standard input is not a terminal)'),
  handler: async (ctx, options) => (await run()).removeEndpoint(ctx, options),
};

export const webhooksDeliveriesCommand: CommandModule<WebhooksDeliveriesOptions> = {
  define: (parent) =>
    parent
      .command('deliveries')
      .description("An endpoint's deliveries, newest first: event, status, time, attempts, answer, latency")
      .argument(...ENDPOINT)
      .option('--status <status>', `only these: ${WEBHOOK_DELIVERY_STATUSES.join(', ').toLowerCase()}`)
      .option('--limit <n>', 'the newest n (1–100)', '50'),
  handler: async (ctx, options) => (await run()).listDeliveries(ctx, options),
};

export const webhooksRedeliverCommand: CommandModule<WebhooksRedeliverOptions> = {
  define: (parent) =>
    parent
      .command('redeliver')
      .description('Send a delivery again, or every failed delivery of the last hours')
      .argument(...ENDPOINT)
      .option('--delivery <id>', 'the delivery (its id in `waymark webhooks deliveries`)')
      .option('--failed-since <hours>', 'every failed delivery of the last <hours> hours')
      .addHelpText(
        'after',
        `
Examples:
  $ waymark webhooks redeliver https://hr.example.com/waymark --failed-since 24
  $ waymark webhooks redeliver 5c2e8a17-9d3b-4f6e-a1c0-7b8d9e0f1a23 --delivery 8f1d2c3b-4a5e-4f60-9b7a-1c2d3e4f5a6b`,
      ),
  handler: async (ctx, options) => (await run()).redeliver(ctx, options),
};

export const webhooksCommand: CommandGroup = {
  define: (program) =>
    program
      .command('webhooks')
      .description('Send events to your systems: webhook endpoints and their deliveries (mentors)'),
  commands: [
    webhooksListCommand,
    webhooksAddCommand,
    webhooksTestCommand,
    webhooksPauseCommand,
    webhooksEnableCommand,
    webhooksRotateCommand,
    webhooksRemoveCommand,
    webhooksDeliveriesCommand,
    webhooksRedeliverCommand,
  ],
};
