/**
 * A tenant's API keys (issue 28 item 3; decision 039): made with a name, scopes and an optional expiry — the
 * whole key shown once, its secret's hash kept —, listed, and revoked at once. Each change is recorded in
 * the activity log in its own transaction. Keys are managed by people only: a key never makes or revokes one.
 */
import { type ApiKey, type CreateApiKeyInput, keyDisplay } from '@shared/schemas/integrations';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx } from '../../db/helpers';
import { newApiKey } from '../core/api-keys';
import { recordAudit } from '../core/audit';
import type { Actor } from '../core/principal';
import { revokeCredential } from '../core/revoke';
import { apiKeys } from '../core/tables';

type Row = typeof apiKeys.$inferSelect;

export function toApiKey(row: Row, now: Date): ApiKey {
  const status = row.revokedAt ? 'REVOKED' : row.expiresAt && row.expiresAt <= now ? 'EXPIRED' : 'ACTIVE';
  return {
    _id: row.id,
    name: row.name,
    prefix: keyDisplay(row.prefix),
    scopes: row.scopes as ApiKey['scopes'],
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    status,
  };
}

export async function keysOf(db: Db, tenantId: string): Promise<Row[]> {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.tenantId, tenantId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Makes a key for the tenant; the answer's `key` is the only time the whole key exists outside its holder. */
export async function createKey(
  db: Db,
  tenantId: string,
  by: Actor,
  input: { name: string; scopes: CreateApiKeyInput['scopes']; expiresInDays?: number | null },
  now: Date,
): Promise<{ row: Row; key: string }> {
  const made = newApiKey();
  const scopes = [...new Set(input.scopes)];
  return inTx(db, async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({
        tenantId,
        createdBy: by.kind === 'person' ? by.id : null,
        name: input.name,
        prefix: made.prefix,
        secretHash: made.secretHash,
        scopes,
        createdAt: now,
        expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null,
      })
      .returning();
    await recordAudit(tx, by, {
      tenantId,
      action: 'apikey.created',
      target: { kind: 'apiKey', id: row!.id },
      summary: `API key “${input.name}” (${keyDisplay(made.prefix)}) created with ${scopes.join(', ')}`,
      details: {
        name: input.name,
        prefix: made.prefix,
        scopes,
        expiresAt: row!.expiresAt?.toISOString() ?? null,
      },
    });
    return { row: row!, key: made.key };
  });
}

/** Revokes a key of the tenant (404 for another's); revoking a revoked key changes nothing. */
export function revokeKey(db: Db, tenantId: string, id: string, by: Actor): Promise<Row> {
  return revokeCredential<typeof apiKeys, Row>(db, apiKeys, tenantId, id, by, {
    action: 'apikey.revoked',
    kind: 'apiKey',
    describe: (row) => `API key “${row.name}” (${keyDisplay(row.prefix)})`,
    missing: 'API key not found',
  });
}
