/**
 * A tenant's learning record store (issue 29 item 3; decision 042): connected with an address the outbound
 * guard accepts, a key and a secret (sealed at rest, never shown again), how learners are named and which
 * statements are sent; changed, disconnected; tried with a test statement; its queue read and its failures
 * sent again. Every change is recorded in the activity log in its own transaction.
 */
import { randomBytes } from 'node:crypto';
import { lrsSaid } from '@shared/rules/lrs-words';
import type { ConnectXapiInput, XapiConnection, XapiQueueEntry } from '@shared/schemas/xapi';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx, rowsOf } from '../../db/helpers';
import { users } from '../../db/schema';
import { badRequest, conflict } from '../../http/errors';
import { recordAudit } from '../core/audit';
import type { Actor } from '../core/principal';
import { sendAgain } from '../core/retries';
import type { SecretBox } from '../core/sealed';
import { readSeqCursor, seqPage } from '../core/seq-cursor';
import { checkEndpointUrl } from '../webhooks/service';
import { type XapiSender, xapiSecretContext } from './send';
import { testStatement } from './statements';
import { xapiConnections, xapiStatements } from './tables';

type ConnectionRow = typeof xapiConnections.$inferSelect;
type EntryRow = typeof xapiStatements.$inferSelect;

const at = (d: Date | null) => d?.toISOString() ?? null;

const notConnected = () =>
  conflict('No learning record store is connected.', { errorCode: 'XAPI_NOT_CONNECTED' });

export async function connectionOf(db: Db, tenantId: string): Promise<XapiConnection | null> {
  const [row] = await db.select().from(xapiConnections).where(eq(xapiConnections.tenantId, tenantId));
  if (!row) return null;
  const [counts] = rowsOf<{ pending: number; sent: number; failed: number }>(
    await db.execute(sql`
      select count(*) filter (where status in ('PENDING', 'SENDING'))::int as pending,
        count(*) filter (where status = 'SENT')::int as sent,
        count(*) filter (where status = 'FAILED')::int as failed
      from xapi_statements where tenant_id = ${tenantId}`),
  );
  return toConnection(row, {
    pending: Number(counts?.pending ?? 0),
    sent: Number(counts?.sent ?? 0),
    failed: Number(counts?.failed ?? 0),
  });
}

function toConnection(row: ConnectionRow, counts: XapiConnection['counts']): XapiConnection {
  return {
    endpoint: row.endpoint,
    username: row.username,
    actorFormat: row.actorFormat,
    statements: row.statements as XapiConnection['statements'],
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastSentAt: at(row.lastSentAt),
    failingSince: at(row.failingSince),
    counts,
  };
}

export function toEntry(row: EntryRow): XapiQueueEntry {
  return {
    _id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: at(row.lastAttemptAt),
    nextAttemptAt: row.status === 'PENDING' ? at(row.nextAttemptAt) : null,
    sentAt: at(row.sentAt),
    responseStatus: row.responseStatus,
    error: row.lastError,
    errorParts: row.lastErrorParts ?? null,
    statementIds: (row.statements ?? []).map((s) => String(s.id)),
  };
}

export interface XapiDeps {
  db: Db;
  secrets: SecretBox;
  xapi: XapiSender;
}

/** Connects the LRS or changes its settings; the secret is required the first time, kept when left out. */
export async function connect(deps: XapiDeps, tenantId: string, by: Actor, input: ConnectXapiInput) {
  const endpoint = await checkEndpointUrl(input.endpoint, deps.xapi.outbound, 'endpoint');
  const statements = [...new Set(input.statements ?? ['studied', 'assessments', 'awards', 'roadmaps'])];
  await inTx(deps.db, async (tx) => {
    const [before] = await tx
      .select()
      .from(xapiConnections)
      .where(eq(xapiConnections.tenantId, tenantId))
      .for('update');
    if (!before && !input.secret) throw badRequest('Required to connect a learning record store', 'secret');
    const values = {
      endpoint,
      username: input.username,
      actorFormat: input.actorFormat ?? 'account',
      statements,
      enabled: input.enabled ?? true,
      updatedAt: new Date(),
      ...(input.secret
        ? { secret: deps.secrets.seal(input.secret, xapiSecretContext(tenantId, 'secret')) }
        : {}),
    };
    if (before) {
      await tx.update(xapiConnections).set(values).where(eq(xapiConnections.tenantId, tenantId));
    } else {
      await tx.insert(xapiConnections).values({
        tenantId,
        ...values,
        secret: values.secret!,
        pseudonymKey: deps.secrets.seal(
          randomBytes(32).toString('base64url'),
          xapiSecretContext(tenantId, 'pseudonym'),
        ),
        createdBy: by.kind === 'person' ? by.id : null,
      });
    }
    await recordAudit(tx, by, {
      tenantId,
      action: before ? 'xapi.updated' : 'xapi.connected',
      target: { kind: 'xapiConnection', id: tenantId },
      summary: `Learning record store ${endpoint} ${before ? 'changed' : 'connected'}: ${statements.join(', ') || 'nothing'} sent, learners as ${values.actorFormat}${values.enabled ? '' : ' (paused)'}${input.secret && before ? '; secret replaced' : ''}`,
      details: {
        endpoint,
        username: input.username,
        actorFormat: values.actorFormat,
        statements,
        enabled: values.enabled,
        secretReplaced: Boolean(input.secret && before),
      },
    });
  });
  return (await connectionOf(deps.db, tenantId))!;
}

/** Disconnects the LRS: its queue goes with it. */
export async function disconnect(db: Db, tenantId: string, by: Actor): Promise<void> {
  await inTx(db, async (tx) => {
    const [row] = await tx.delete(xapiConnections).where(eq(xapiConnections.tenantId, tenantId)).returning();
    if (!row) throw notConnected();
    await recordAudit(tx, by, {
      tenantId,
      action: 'xapi.disconnected',
      target: { kind: 'xapiConnection', id: tenantId },
      summary: `Learning record store ${row.endpoint} disconnected`,
      details: { endpoint: row.endpoint },
    });
  });
}

/** Sends the LRS one test statement now and says what it answered. */
export async function sendTest(deps: XapiDeps, tenantId: string) {
  const [row] = await deps.db.select().from(xapiConnections).where(eq(xapiConnections.tenantId, tenantId));
  if (!row) throw notConnected();
  const [tenant] = await deps.db.select().from(users).where(eq(users.id, tenantId));
  const statement = testStatement(
    {
      publicUrl: deps.xapi.publicUrl,
      tenantEmail: tenant!.email,
      name: tenant!.name ?? null,
    },
    new Date(),
  );
  const answer = await deps.xapi.post(
    {
      endpoint: row.endpoint,
      username: row.username,
      password: deps.secrets.openText(row.secret, xapiSecretContext(tenantId, 'secret')),
    },
    [statement],
  );
  const ok = answer.status === 200 || answer.status === 204;
  const status = answer.status ?? 0;
  const said = ok
    ? lrsSaid('xapi.result.stored', {})
    : (answer.errorSaid ??
      (answer.body
        ? lrsSaid('xapi.result.answeredBody', { status, body: answer.body.slice(0, 300) })
        : lrsSaid('xapi.result.answered', { status })));
  return {
    ok,
    status: answer.status,
    ms: answer.ms,
    statementId: String(statement.id),
    message: said.message,
    code: said.code,
    params: said.params,
  };
}

/** A page of the tenant's queue, newest first; null when the cursor is not one of this list's. */
export async function queuePage(
  db: Db,
  tenantId: string,
  filter: { status?: EntryRow['status'] },
  page: { cursor?: string; limit: number },
): Promise<{ entries: XapiQueueEntry[]; nextCursor: string | null } | null> {
  const after = page.cursor ? readSeqCursor(page.cursor) : undefined;
  if (after === null) return null;
  const rows = await db
    .select()
    .from(xapiStatements)
    .where(
      and(
        eq(xapiStatements.tenantId, tenantId),
        filter.status ? eq(xapiStatements.status, filter.status) : undefined,
        after !== undefined ? lt(xapiStatements.seq, after) : undefined,
      ),
    )
    .orderBy(desc(xapiStatements.seq))
    .limit(page.limit + 1);
  const { shown, nextCursor } = seqPage(rows, page.limit);
  return { entries: shown.map(toEntry), nextCursor };
}

/** Makes every failed entry due again now (the same statements); how many. */
export async function resendFailed(db: Db, tenantId: string, by: Actor): Promise<number> {
  return inTx(db, async (tx) => {
    const [conn] = await tx.select().from(xapiConnections).where(eq(xapiConnections.tenantId, tenantId));
    if (!conn) throw notConnected();
    const rows = await tx
      .update(xapiStatements)
      .set(sendAgain())
      .where(and(eq(xapiStatements.tenantId, tenantId), eq(xapiStatements.status, 'FAILED')))
      .returning({ id: xapiStatements.id });
    if (rows.length)
      await recordAudit(tx, by, {
        tenantId,
        action: 'xapi.resent',
        target: { kind: 'xapiConnection', id: tenantId },
        summary: `${rows.length} failed statement ${rows.length === 1 ? 'entry' : 'entries'} sent again to ${conn.endpoint}`,
        details: { endpoint: conn.endpoint, count: rows.length },
      });
    return rows.length;
  });
}
