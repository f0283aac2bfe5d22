/**
 * The audit log's writer and readers (decision 039). `recordAudit` writes one entry in the transaction of
 * the change it records, so an entry exists exactly when its change was committed. Entries are append-only:
 * the table's trigger (migration 0020) refuses any UPDATE, DELETE or TRUNCATE, except the retention job's
 * deletion of entries older than AUDIT_RETENTION_DAYS, which is never less than a year.
 */
import type { AuditAction, AuditEntry } from '@shared/schemas/integrations';
import { and, desc, eq, gte, like, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/helpers';
import type { Actor } from './principal';
import { auditEvents } from './tables';

/** The shortest retention anyone may set, in days: the trigger lets nothing younger be deleted. */
export const MIN_AUDIT_RETENTION_DAYS = 365;

export interface AuditRecord {
  tenantId: string;
  /** A dotted name: `seat.added`, `apikey.revoked`, … (one of AUDIT_ACTIONS, each said in every language). */
  action: AuditAction;
  target: { kind: string; id: string | null };
  /** One line a person reads: what happened, to whom. */
  summary: string;
  details?: Record<string, unknown>;
}

/** Records a change (or several) in the audit log; call it with the transaction that makes the change. */
export async function recordAudit(tx: Db, actor: Actor, entry: AuditRecord | AuditRecord[]): Promise<void> {
  const entries = Array.isArray(entry) ? entry : [entry];
  if (entries.length === 0) return;
  await tx.insert(auditEvents).values(
    entries.map((e) => ({
      tenantId: e.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      actorLabel: actor.label,
      action: e.action,
      targetKind: e.target.kind,
      targetId: e.target.id,
      summary: e.summary,
      details: e.details ?? {},
      ip: actor.ip,
      userAgent: actor.userAgent,
    })),
  );
}

type Row = typeof auditEvents.$inferSelect;

export function toAuditEntry(row: Row): AuditEntry {
  return {
    _id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    actor: { kind: row.actorKind, id: row.actorId, label: row.actorLabel },
    action: row.action,
    target: { kind: row.targetKind, id: row.targetId },
    summary: row.summary,
    details: row.details,
    ip: row.ip,
    userAgent: row.userAgent,
  };
}

export interface AuditFilter {
  action?: string;
  actorKind?: Row['actorKind'];
  actorId?: string;
  from?: string;
  to?: string;
}

/** The conditions of a filter: an action, or a group of them (`seat` is every `seat.*`). */
function filterOf(tenantId: string, f: AuditFilter): SQL {
  return and(
    eq(auditEvents.tenantId, tenantId),
    f.action
      ? f.action.includes('.')
        ? eq(auditEvents.action, f.action)
        : like(auditEvents.action, `${f.action}.%`)
      : undefined,
    f.actorKind ? eq(auditEvents.actorKind, f.actorKind) : undefined,
    f.actorId ? eq(auditEvents.actorId, f.actorId) : undefined,
    f.from ? gte(auditEvents.occurredAt, new Date(f.from)) : undefined,
    f.to ? lt(auditEvents.occurredAt, new Date(f.to)) : undefined,
  )!;
}

/** A page's end as the next page's cursor: the last entry's time (microseconds) and id. */
const cursorOf = (row: { micros: string; id: string }) =>
  Buffer.from(`${row.micros}.${row.id}`).toString('base64url');

function readCursor(cursor: string): { micros: string; id: string } | null {
  const [micros, id] = Buffer.from(cursor, 'base64url').toString().split('.');
  if (!micros || !id || !/^\d{1,20}$/.test(micros) || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  return { micros, id };
}

/** Microseconds since the epoch of an entry's time: a cursor keeps the whole of it (a Date keeps ms). */
const microsOf = sql<string>`(extract(epoch from ${auditEvents.occurredAt}) * 1000000)::bigint::text`;

/**
 * A page of a tenant's log, newest first, after `cursor` (keyset on time and id: a page never repeats or
 * skips an entry, however many are written meanwhile); null when the cursor is not one of this log's.
 */
export async function auditPage(
  db: Db,
  tenantId: string,
  filter: AuditFilter,
  page: { cursor?: string; limit: number },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null } | null> {
  const after = page.cursor ? readCursor(page.cursor) : undefined;
  if (after === null) return null;
  const before = after
    ? or(
        sql`${auditEvents.occurredAt} < to_timestamp(${after.micros}::numeric / 1000000)`,
        and(
          sql`${auditEvents.occurredAt} = to_timestamp(${after.micros}::numeric / 1000000)`,
          sql`${auditEvents.id} < ${after.id}::uuid`,
        ),
      )
    : undefined;
  const rows = await db
    .select({ row: auditEvents, micros: microsOf })
    .from(auditEvents)
    .where(and(filterOf(tenantId, filter), before))
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown.at(-1);
  return {
    entries: shown.map((r) => toAuditEntry(r.row)),
    nextCursor: more && last ? cursorOf({ micros: last.micros, id: last.row.id }) : null,
  };
}

/** Every entry of the filter, newest first, a page of 1,000 at a time (for the file to take away). */
export async function* auditRows(db: Db, tenantId: string, filter: AuditFilter): AsyncGenerator<AuditEntry> {
  let cursor: string | undefined;
  do {
    const page = await auditPage(db, tenantId, filter, { cursor, limit: 1000 });
    if (!page) return;
    yield* page.entries;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/**
 * Deletes entries older than `days` (never fewer than a year): the one deletion the append-only trigger
 * lets through, and only in this transaction (`waymark.audit_retention`). Returns how many went.
 */
export async function pruneAudit(db: Db, days: number): Promise<number> {
  const keep = Math.max(MIN_AUDIT_RETENTION_DAYS, Math.floor(days));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('waymark.audit_retention', 'on', true)`);
    const [row] = rowsOf<{ n: string | number }>(
      await tx.execute(sql`
        with gone as (
          delete from ${auditEvents} where occurred_at < now() - make_interval(days => ${keep}) returning 1
        ) select count(*) as n from gone`),
    );
    return Number(row?.n ?? 0);
  });
}
