/**
 * A tenant's webhook endpoints (issue 29 item 2; decision 042): added with an address the outbound guard
 * accepts, the event types and the order they want, and a signing secret shown once (sealed at rest);
 * changed, disabled and enabled again, removed; their secret rotated (the previous one signs too for 24
 * hours); a test event sent; their deliveries read and redelivered. Every change is recorded in the activity
 * log in its own transaction. An endpoint of another tenant is not found.
 */
import { randomUUID } from 'node:crypto';
import type { EventType } from '@shared/contract/events';
import { deliveryError, deliverySaid } from '@shared/rules/delivery-words';
import {
  type CreateWebhookInput,
  DELIVERY_RETENTION_DAYS,
  DISABLED_REASONS,
  disabledWhy,
  MAX_WEBHOOK_ENDPOINTS,
  PREVIOUS_SECRET_HOURS,
  type UpdateWebhookInput,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@shared/schemas/webhooks';
import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx, type Tx } from '../../db/helpers';
import { badRequest, conflict, notFound } from '../../http/errors';
import { checkOutboundUrl, type OutboundOptions, OutboundRefused } from '../../lib/outbound';
import { recordAudit } from '../core/audit';
import type { Actor } from '../core/principal';
import { sendAgain } from '../core/retries';
import type { SecretBox } from '../core/sealed';
import { readSeqCursor, seqPage } from '../core/seq-cursor';
import { secretContext, testEnvelope } from './deliver';
import { newWebhookSecret } from './signing';
import { webhookDeliveries, webhookEndpoints } from './tables';

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const at = (d: Date | null) => d?.toISOString() ?? null;

export function toEndpoint(row: EndpointRow, now = new Date()): WebhookEndpoint {
  return {
    _id: row.id,
    url: row.url,
    description: row.description,
    events: row.eventTypes as EventType[],
    ordered: row.ordered,
    status: row.status,
    disabledReason: row.disabledReason,
    disabledWhy: disabledWhy(row.disabledReason),
    disabledAt: at(row.disabledAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    secretRotatedAt: at(row.secretRotatedAt),
    previousSecretUntil:
      row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > now
        ? row.previousSecretUntil.toISOString()
        : null,
    failingSince: at(row.failingSince),
    lastDeliveredAt: at(row.lastDeliveredAt),
  };
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    _id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: at(row.lastAttemptAt),
    nextAttemptAt: row.status === 'PENDING' ? at(row.nextAttemptAt) : null,
    deliveredAt: at(row.deliveredAt),
    responseStatus: row.responseStatus,
    responseMs: row.responseMs,
    responseBody: row.responseBody,
    error: row.lastError,
    errorParts: row.lastErrorParts ?? null,
  };
}

/** The guard's view of an address, for a person: why it cannot be an endpoint (400 naming `field`). */
export async function checkEndpointUrl(
  url: string,
  outbound: Pick<OutboundOptions, 'allowLoopbackHttp' | 'resolve'>,
  field = 'url',
): Promise<string> {
  const parsed = new URL(url);
  if (parsed.hash) throw badRequest('must not have a #fragment', field);
  try {
    await checkOutboundUrl(parsed, outbound);
  } catch (err) {
    if (err instanceof OutboundRefused) throw badRequest(`cannot be used: ${err.message}`, field);
    // a name that does not resolve yet may later (every attempt checks it again), but only over https: the
    // development allowance of plain http is for this machine, which a name that does not resolve is not
    if (parsed.protocol !== 'https:')
      throw badRequest(`cannot be used: only https addresses are read (${parsed.href})`, field);
  }
  return parsed.href;
}

async function ownEndpoint(db: Db, tenantId: string, id: string, lock = false): Promise<EndpointRow> {
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.tenantId, tenantId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Webhook endpoint not found');
  return row;
}

export async function endpointsOf(db: Db, tenantId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.tenantId, tenantId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

export interface EndpointDeps {
  db: Db;
  secrets: SecretBox;
  outbound: Pick<OutboundOptions, 'allowLoopbackHttp' | 'resolve'>;
}

/** Adds an endpoint; the answer's `secret` is the only time it leaves the server. */
export async function createEndpoint(
  deps: EndpointDeps,
  tenantId: string,
  by: Actor,
  input: CreateWebhookInput,
): Promise<{ row: EndpointRow; secret: string }> {
  const url = await checkEndpointUrl(input.url, deps.outbound);
  const id = randomUUID();
  const secret = newWebhookSecret();
  const events = [...new Set(input.events)];
  return inTx(deps.db, async (tx) => {
    // the tenant's row locked: two additions at once cannot both pass the limit
    await tx.execute(sql`select 1 from users where id = ${tenantId} for update`);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.tenantId, tenantId));
    if (n >= MAX_WEBHOOK_ENDPOINTS)
      throw conflict(`You have ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints, the most there can be.`, {
        errorCode: 'TOO_MANY_ENDPOINTS',
      });
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        tenantId,
        url,
        description: input.description ?? '',
        eventTypes: events,
        ordered: input.ordered ?? false,
        secret: deps.secrets.seal(secret, secretContext(id, 'secret')),
        createdBy: by.kind === 'person' ? by.id : null,
      })
      .returning();
    await recordAudit(tx, by, {
      tenantId,
      action: 'webhook.created',
      target: { kind: 'webhookEndpoint', id },
      summary: `Webhook endpoint ${url} added for ${events.join(', ')}`,
      details: { url, events, ordered: row!.ordered },
    });
    return { row: row!, secret };
  });
}

/** Changes an endpoint's settings; enabling it again forgets its failures. */
export async function updateEndpoint(
  deps: EndpointDeps,
  tenantId: string,
  id: string,
  by: Actor,
  input: UpdateWebhookInput,
): Promise<EndpointRow> {
  const url = input.url !== undefined ? await checkEndpointUrl(input.url, deps.outbound) : undefined;
  return inTx(deps.db, async (tx) => {
    const before = await ownEndpoint(tx, tenantId, id, true);
    const changes: Partial<typeof webhookEndpoints.$inferInsert> = {};
    // what changed, in English for the summary and by name for the portal to say in the reader's language
    const said: string[] = [];
    const changed: ('url' | 'description' | 'events' | 'ordered')[] = [];
    if (url !== undefined && url !== before.url) {
      changes.url = url;
      said.push(`address ${before.url} → ${url}`);
      changed.push('url');
    }
    if (input.description !== undefined && input.description !== before.description) {
      changes.description = input.description;
      said.push('description');
      changed.push('description');
    }
    if (input.events !== undefined) {
      const events = [...new Set(input.events)];
      if (events.join() !== before.eventTypes.join()) {
        changes.eventTypes = events;
        said.push(`events ${events.join(', ')}`);
        changed.push('events');
      }
    }
    if (input.ordered !== undefined && input.ordered !== before.ordered) {
      changes.ordered = input.ordered;
      said.push(input.ordered ? 'in order' : 'in any order');
      changed.push('ordered');
    }
    let action: 'webhook.updated' | 'webhook.disabled' | 'webhook.enabled' = 'webhook.updated';
    if (input.enabled === false && before.status === 'ACTIVE') {
      Object.assign(changes, {
        status: 'DISABLED',
        disabledReason: DISABLED_REASONS.TENANT,
        disabledAt: new Date(),
      });
      action = 'webhook.disabled';
    } else if (input.enabled === true && before.status === 'DISABLED') {
      Object.assign(changes, {
        status: 'ACTIVE',
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
      });
      action = 'webhook.enabled';
    }
    if (Object.keys(changes).length === 0) return before;
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    if (action === 'webhook.disabled') {
      // what waited is kept as failed, to redeliver once it is enabled again
      const failed = deliveryError(deliverySaid('deliveries.error.disabled', {}));
      await tx
        .update(webhookDeliveries)
        .set({
          status: 'FAILED',
          nextAttemptAt: null,
          claim: null,
          lastError: failed.message,
          lastErrorParts: failed.parts,
        })
        .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'PENDING')));
    }
    const verb = {
      'webhook.updated': 'changed',
      'webhook.disabled': 'disabled',
      'webhook.enabled': 'enabled',
    }[action];
    await recordAudit(tx, by, {
      tenantId,
      action,
      target: { kind: 'webhookEndpoint', id },
      summary: `Webhook endpoint ${row!.url} ${verb}${said.length ? `: ${said.join('; ')}` : ''}`,
      details: {
        url: row!.url,
        ...(changes.url ? { previousUrl: before.url } : {}),
        events: row!.eventTypes,
        ordered: row!.ordered,
        status: row!.status,
        changed,
      },
    });
    return row!;
  });
}

/** Removes an endpoint and its deliveries: nothing more is claimed for it. */
export async function removeEndpoint(db: Db, tenantId: string, id: string, by: Actor): Promise<void> {
  await inTx(db, async (tx) => {
    const [row] = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.tenantId, tenantId)))
      .returning();
    if (!row) throw notFound('Webhook endpoint not found');
    await recordAudit(tx, by, {
      tenantId,
      action: 'webhook.removed',
      target: { kind: 'webhookEndpoint', id },
      summary: `Webhook endpoint ${row.url} removed`,
      details: { url: row.url, events: row.eventTypes },
    });
  });
}

/**
 * A new signing secret, shown once; the one it replaces signs too for PREVIOUS_SECRET_HOURS (a secret
 * rotated twice within that time drops the oldest).
 */
export async function rotateSecret(
  deps: EndpointDeps,
  tenantId: string,
  id: string,
  by: Actor,
): Promise<{ row: EndpointRow; secret: string }> {
  const secret = newWebhookSecret();
  return inTx(deps.db, async (tx) => {
    const before = await ownEndpoint(tx, tenantId, id, true);
    const previous = deps.secrets.openText(before.secret, secretContext(id, 'secret'));
    const until = new Date(Date.now() + PREVIOUS_SECRET_HOURS * 3600_000);
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        secret: deps.secrets.seal(secret, secretContext(id, 'secret')),
        previousSecret: deps.secrets.seal(previous, secretContext(id, 'previous')),
        previousSecretUntil: until,
        secretRotatedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    await recordAudit(tx, by, {
      tenantId,
      action: 'webhook.secret_rotated',
      target: { kind: 'webhookEndpoint', id },
      summary: `Signing secret of webhook endpoint ${before.url} rotated; the previous one signs too until ${until.toISOString()}`,
      details: { url: before.url, previousValidUntil: until.toISOString() },
    });
    return { row: row!, secret };
  });
}

const mustBeActive = (row: EndpointRow) => {
  if (row.status !== 'ACTIVE')
    throw conflict('The endpoint is disabled: enable it first.', { errorCode: 'ENDPOINT_DISABLED' });
};

/** A test event for the endpoint, queued at once. */
export async function queueTest(db: Db, tenantId: string, id: string): Promise<DeliveryRow> {
  const endpoint = await ownEndpoint(db, tenantId, id);
  mustBeActive(endpoint);
  const test = testEnvelope(tenantId, id, new Date());
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ endpointId: id, tenantId, eventId: test.id, eventType: WEBHOOK_TEST_EVENT, payload: test.body })
    .returning();
  return row!;
}

/** A page of an endpoint's deliveries, newest first (keyset on seq); null when the cursor is not one. */
export async function deliveriesPage(
  db: Db,
  tenantId: string,
  id: string,
  filter: { status?: DeliveryRow['status']; from?: string; to?: string },
  page: { cursor?: string; limit: number },
): Promise<{ deliveries: WebhookDelivery[]; nextCursor: string | null } | null> {
  await ownEndpoint(db, tenantId, id);
  const after = page.cursor ? readSeqCursor(page.cursor) : undefined;
  if (after === null) return null;
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, id),
        filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
        filter.from ? gte(webhookDeliveries.createdAt, new Date(filter.from)) : undefined,
        filter.to ? lt(webhookDeliveries.createdAt, new Date(filter.to)) : undefined,
        after !== undefined ? lt(webhookDeliveries.seq, after) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.seq))
    .limit(page.limit + 1);
  const { shown, nextCursor } = seqPage(rows, page.limit);
  return { deliveries: shown.map(toDelivery), nextCursor };
}

/** Deliveries made due again now, from a clean slate of attempts, with the activity log's entry. */
async function redeliver(
  tx: Tx,
  endpoint: EndpointRow,
  by: Actor,
  where: ReturnType<typeof and>,
  summary: (n: number) => string,
  details: Record<string, unknown>,
): Promise<string[]> {
  const rows = await tx
    .update(webhookDeliveries)
    .set(sendAgain())
    .where(and(eq(webhookDeliveries.endpointId, endpoint.id), where))
    .returning({ id: webhookDeliveries.id });
  if (rows.length) {
    await recordAudit(tx, by, {
      tenantId: endpoint.tenantId,
      action: 'webhook.redelivered',
      target: { kind: 'webhookEndpoint', id: endpoint.id },
      summary: summary(rows.length),
      details: { url: endpoint.url, count: rows.length, ...details },
    });
  }
  return rows.map((r) => r.id);
}

/** Sends one delivery again (finished, or waiting: now); 409 while it is being sent. */
export async function redeliverOne(
  db: Db,
  tenantId: string,
  id: string,
  deliveryId: string,
  by: Actor,
): Promise<DeliveryRow> {
  return inTx(db, async (tx) => {
    const endpoint = await ownEndpoint(tx, tenantId, id);
    mustBeActive(endpoint);
    const [found] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, id)))
      .for('update');
    if (!found) throw notFound('Delivery not found');
    if (found.status === 'SENDING')
      throw conflict('The delivery is being sent right now.', { errorCode: 'DELIVERY_IN_PROGRESS' });
    await redeliver(
      tx,
      endpoint,
      by,
      eq(webhookDeliveries.id, deliveryId),
      () => `Delivery of ${found.eventType} (${found.eventId}) to ${endpoint.url} sent again`,
      { deliveryId, eventId: found.eventId, eventType: found.eventType },
    );
    const [row] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    return row!;
  });
}

/** Sends again every failed delivery of the endpoint whose event came in [from, to); how many. */
export async function redeliverFailed(
  db: Db,
  tenantId: string,
  id: string,
  period: { from: string; to: string },
  by: Actor,
): Promise<number> {
  const from = new Date(period.from);
  const to = new Date(period.to);
  if (to.getTime() - from.getTime() > (DELIVERY_RETENTION_DAYS + 1) * 86_400_000)
    throw badRequest(`must be at most ${DELIVERY_RETENTION_DAYS} days after from`, 'to');
  return inTx(db, async (tx) => {
    const endpoint = await ownEndpoint(tx, tenantId, id);
    mustBeActive(endpoint);
    const rows = await redeliver(
      tx,
      endpoint,
      by,
      and(
        eq(webhookDeliveries.status, 'FAILED'),
        gte(webhookDeliveries.createdAt, from),
        lt(webhookDeliveries.createdAt, to),
      ),
      (n) =>
        `${n} failed ${n === 1 ? 'delivery' : 'deliveries'} to ${endpoint.url} of ${period.from} to ${period.to} sent again`,
      { from: period.from, to: period.to },
    );
    return rows.length;
  });
}
