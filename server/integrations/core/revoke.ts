/**
 * Revoking a tenant's prefixed credential — an API key, a SCIM token — the one way for both: the row is
 * revoked and its audit entry written in one transaction; another tenant's is 404; revoking a revoked one
 * changes nothing and answers it as it is.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { inTx } from '../../db/helpers';
import { type ErrorText, notFound } from '../../http/errors';
import { type AuditRecord, recordAudit } from './audit';
import type { Actor } from './principal';

type Revocable = PgTable & { id: PgColumn; tenantId: PgColumn; revokedAt: PgColumn };

export interface RevokeOptions {
  /** The audit entry's action and target kind. */
  action: AuditRecord['action'];
  kind: AuditRecord['target']['kind'];
  /** What the audit summary calls it: `API key “nightly” (wm_abc…)`. */
  describe: (row: { name: string; prefix: string }) => string;
  /** The 404's message. */
  missing: ErrorText;
}

export function revokeCredential<T extends Revocable, Row extends { name: string; prefix: string }>(
  db: Db,
  table: T,
  tenantId: string,
  id: string,
  by: Actor,
  options: RevokeOptions,
): Promise<Row> {
  const own = and(eq(table.id, id), eq(table.tenantId, tenantId));
  return inTx(db, async (tx) => {
    const [revoked] = (await tx
      .update(table)
      .set({ revokedAt: sql`now()` } as never)
      .where(and(own, isNull(table.revokedAt)))
      .returning()) as unknown as Row[];
    if (revoked) {
      await recordAudit(tx, by, {
        tenantId,
        action: options.action,
        target: { kind: options.kind, id },
        summary: `${options.describe(revoked)} revoked`,
        details: { name: revoked.name, prefix: revoked.prefix },
      });
      return revoked;
    }
    const [row] = (await tx
      .select()
      .from(table as PgTable)
      .where(own)) as unknown as Row[];
    if (!row) throw notFound(options.missing);
    return row;
  });
}
