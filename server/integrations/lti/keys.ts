/**
 * Waymark's own LTI signing keys (decision 044): RS256, 2048 bits, the private key sealed at rest
 * (INTEGRATIONS_SECRET_KEY), the public ones published at /lti/jwks. One key is current; rotating retires it
 * and makes another, and the retired key stays in the key set until everything it signed has expired
 * (`KEY_OVERLAP_MS`, far longer than the 5 minutes any of our JWTs lives). Every process reads the keys
 * from the database; the first process that needs a key makes it, and the partial unique index on the
 * current key lets only one such key exist.
 */
import { createPrivateKey, generateKeyPair, type KeyObject, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { exportJWK, SignJWT } from 'jose';
import type { Db } from '../../db/client';
import { inTx, rowsOf } from '../../db/helpers';
import type { SecretBox } from '../core/sealed';
import { ltiToolKeys } from './tables';

const generate = promisify(generateKeyPair);

/** How long a retired key stays published: a day (our JWTs live 5 minutes; platforms cache key sets). */
export const KEY_OVERLAP_MS = 86_400_000;
/** The lifetime of every JWT Waymark signs (client assertions, deep-linking responses). */
export const JWT_LIFETIME_SECONDS = 300;

const context = (kid: string) => `lti_tool_keys:${kid}`;

export class ToolKeys {
  /** Opened private keys by kid: a function of the sealed value alone, safe to keep per process. */
  private readonly opened = new Map<string, KeyObject>();

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {}

  private async makeKey(tx: Db, now: Date) {
    const { privateKey, publicKey } = await generate('rsa', { modulusLength: 2048 });
    const kid = randomUUID();
    const jwk = await exportJWK(publicKey);
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const inserted = await tx
      .insert(ltiToolKeys)
      .values({
        kid,
        privateKey: this.secrets.seal(pem, context(kid)),
        publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' },
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ kid: ltiToolKeys.kid });
    return inserted[0]?.kid ?? null;
  }

  /** The current key's id and private key; made now when there is none. */
  async current(now = new Date()): Promise<{ kid: string; key: KeyObject }> {
    for (let i = 0; i < 3; i++) {
      const [row] = await this.db.select().from(ltiToolKeys).where(isNull(ltiToolKeys.retiredAt)).limit(1);
      if (row) return { kid: row.kid, key: this.open(row.kid, row.privateKey) };
      // another process may make it at the same moment: one insert wins, the others read it
      await this.makeKey(this.db, now);
    }
    throw new Error('No LTI signing key could be made');
  }

  private open(kid: string, sealed: string): KeyObject {
    let key = this.opened.get(kid);
    if (!key) {
      key = createPrivateKey(this.secrets.openText(sealed, context(kid)));
      this.opened.set(kid, key);
    }
    return key;
  }

  /** The public key set: the current key and the retired ones still published. */
  async jwks(now = new Date()): Promise<{ keys: Record<string, unknown>[] }> {
    await this.current(now);
    const rows = await this.db
      .select({ jwk: ltiToolKeys.publicJwk })
      .from(ltiToolKeys)
      .where(or(isNull(ltiToolKeys.retiredAt), gt(ltiToolKeys.publishedUntil, now)))
      .orderBy(desc(ltiToolKeys.createdAt));
    return { keys: rows.map((r) => r.jwk) };
  }

  /**
   * Retires the current key (published for KEY_OVERLAP_MS more) and makes a new one, in one transaction:
   * when two processes rotate at once, the second finds the key made by the first is new and does nothing.
   * `olderThanMs`: rotate only when the current key is at least that old.
   */
  async rotate(now = new Date(), olderThanMs = 0): Promise<{ rotated: boolean; kid: string }> {
    return inTx(this.db, async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('lti_tool_keys'))`);
      const [current] = await tx.select().from(ltiToolKeys).where(isNull(ltiToolKeys.retiredAt)).limit(1);
      if (current && now.getTime() - current.createdAt.getTime() < olderThanMs) {
        return { rotated: false, kid: current.kid };
      }
      if (current) {
        await tx
          .update(ltiToolKeys)
          .set({ retiredAt: now, publishedUntil: new Date(now.getTime() + KEY_OVERLAP_MS) })
          .where(and(eq(ltiToolKeys.kid, current.kid), isNull(ltiToolKeys.retiredAt)));
      }
      const kid = await this.makeKey(tx, now);
      if (!kid) throw new Error('A new LTI signing key could not be made');
      return { rotated: true, kid };
    });
  }

  /** Signs `payload` with the current key (RS256, `kid` in the header), valid JWT_LIFETIME_SECONDS. */
  async sign(payload: Record<string, unknown>, now = new Date()): Promise<string> {
    const { kid, key } = await this.current(now);
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
      .setIssuedAt(iat)
      .setExpirationTime(iat + JWT_LIFETIME_SECONDS)
      .setJti(randomUUID())
      .sign(key);
  }
}

/**
 * The daily LTI upkeep (a pg-boss job: once per tick across processes): the signing key replaced once it is
 * LTI_KEY_ROTATION_DAYS old, retired keys past their publication dropped, and login states, launches and
 * platform tokens past their time deleted.
 */
export async function ltiUpkeep(db: Db, secrets: SecretBox, rotationDays: number, now = new Date()) {
  const { rotated } = await new ToolKeys(db, secrets).rotate(now, rotationDays * 86_400_000);
  const swept = await db.execute(sql`
    with k as (delete from lti_tool_keys where published_until < ${now} returning 1),
         s as (delete from lti_states where expires_at < ${new Date(now.getTime() - 86_400_000)} returning 1),
         l as (delete from lti_launches where expires_at < ${new Date(now.getTime() - 86_400_000)} returning 1),
         t as (delete from lti_platform_tokens where expires_at < ${now} returning 1)
    select (select count(*) from k)::int as keys, (select count(*) from s)::int as states,
           (select count(*) from l)::int as launches, (select count(*) from t)::int as tokens`);
  return { rotated: rotated ? 1 : 0, ...(rowsOf<Record<string, number>>(swept)[0] ?? {}) };
}
