/**
 * A tenant's SCIM bearer tokens (decision 043): `wmscim_{prefix}_{secret}` — the prefix shown and finding
 * the row, the secret's SHA-256 kept, as API keys are (decision 039). Shown once, rotatable (the new token
 * replaces the old at once), revocable. A token reaches only /scim/v2 and acts as its tenant's directory; it
 * is the actor of everything it changes. Each request reads the token's row, so a revoked token stops on
 * its next request on every process.
 */
import { localMessage } from '@shared/i18n/message';
import { scimTokenDisplay } from '@shared/schemas/integrations';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx, preparedPer } from '../../db/helpers';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import { hashSecret, newPrefixedSecret, secretMatches } from '../core/api-keys';
import { recordAudit } from '../core/audit';
import type { Actor } from '../core/principal';
import { revokeCredential } from '../core/revoke';
import { scimTokens } from './tables';

export const SCIM_TOKEN_PATTERN = /^wmscim_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

/** How a token is shown after it was made. */

export const newScimToken = () => newPrefixedSecret('wmscim');

type Row = typeof scimTokens.$inferSelect;

export interface ScimTokenView {
  _id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  status: 'ACTIVE' | 'REVOKED';
}

export const toScimToken = (row: Row): ScimTokenView => ({
  _id: row.id,
  name: row.name,
  prefix: scimTokenDisplay(row.prefix),
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
  status: row.revokedAt ? 'REVOKED' : 'ACTIVE',
});

export function scimTokensOf(db: Db, tenantId: string): Promise<Row[]> {
  return db
    .select()
    .from(scimTokens)
    .where(eq(scimTokens.tenantId, tenantId))
    .orderBy(desc(scimTokens.createdAt), desc(scimTokens.id));
}

/**
 * Makes a token (or, with `replaces`, rotates one: the old token is revoked in the same transaction, so
 * exactly one of the two works at any moment). The answer's `token` is the only time it exists in full.
 */
export async function createScimToken(
  db: Db,
  tenantId: string,
  by: Actor,
  input: { name: string; replaces?: string },
): Promise<{ row: Row; token: string }> {
  const made = newScimToken();
  return inTx(db, async (tx) => {
    let replaced: Row | undefined;
    if (input.replaces) {
      [replaced] = await tx
        .update(scimTokens)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(scimTokens.id, input.replaces),
            eq(scimTokens.tenantId, tenantId),
            isNull(scimTokens.revokedAt),
          ),
        )
        .returning();
      if (!replaced) throw notFound(localMessage('errors.scim.tokenNotFoundOrRevoked'));
    }
    const [row] = await tx
      .insert(scimTokens)
      .values({
        tenantId,
        createdBy: by.kind === 'person' ? by.id : null,
        name: input.name,
        prefix: made.prefix,
        secretHash: made.secretHash,
        replaces: replaced?.id ?? null,
      })
      .returning();
    await recordAudit(tx, by, {
      tenantId,
      action: replaced ? 'scim.token_rotated' : 'scim.token_created',
      target: { kind: 'scimToken', id: row!.id },
      summary: replaced
        ? `SCIM token “${row!.name}” (${scimTokenDisplay(made.prefix)}) replaced ${scimTokenDisplay(replaced.prefix)}`
        : `SCIM token “${row!.name}” (${scimTokenDisplay(made.prefix)}) created`,
      details: { name: row!.name, prefix: made.prefix, replaces: replaced?.prefix ?? null },
    });
    return { row: row!, token: made.token };
  });
}

/** Revokes a token of the tenant (404 for another's); revoking a revoked token changes nothing. */
export function revokeScimToken(db: Db, tenantId: string, id: string, by: Actor): Promise<Row> {
  return revokeCredential<typeof scimTokens, Row>(db, scimTokens, tenantId, id, by, {
    action: 'scim.token_revoked',
    kind: 'scimToken',
    describe: (row) => `SCIM token “${row.name}” (${scimTokenDisplay(row.prefix)})`,
    missing: localMessage('errors.scim.tokenNotFound'),
  });
}

/**
 * The token of a prefix with its tenant's account, in one statement that also dates the token's use when
 * the last date is a minute old (only for the right secret of a token not revoked).
 */
const tokenCaller = preparedPer((db) => {
  const p = (name: string) => sql.placeholder(name);
  const touched = db.$with('touched', {}).as(sql`
    update ${scimTokens} set last_used_at = now()
    where prefix = ${p('prefix')} and secret_hash = ${p('hash')} and revoked_at is null
      and (last_used_at is null or last_used_at < now() - interval '1 minute')
    returning 1`);
  return db
    .with(touched)
    .select({
      token: scimTokens,
      tenant: { id: users.id, role: users.role, isDeleted: users.isDeleted },
      touched: sql<number>`(select count(*)::int from touched)`,
    })
    .from(scimTokens)
    .innerJoin(users, eq(users.id, scimTokens.tenantId))
    .where(eq(scimTokens.prefix, sql.placeholder('prefix')))
    .limit(1)
    .prepare('scim_token_caller');
});

export type ScimTokenCheck = { ok: false; reason: 'INVALID' | 'REVOKED' } | { ok: true; token: Row };

/** Checks a bearer token on a SCIM request: one statement, then the hash compared in constant time. */
export async function checkScimToken(db: Db, bearer: string): Promise<ScimTokenCheck> {
  const m = SCIM_TOKEN_PATTERN.exec(bearer);
  if (!m) return { ok: false, reason: 'INVALID' };
  const [prefix, secret] = [m[1]!, m[2]!];
  const [row] = await tokenCaller(db).execute({ prefix, hash: hashSecret(secret) });
  if (!row || !secretMatches(secret, row.token.secretHash)) return { ok: false, reason: 'INVALID' };
  if (row.token.revokedAt) return { ok: false, reason: 'REVOKED' };
  if (row.tenant.isDeleted || row.tenant.role !== 'TENANT') return { ok: false, reason: 'INVALID' };
  return { ok: true, token: row.token };
}
