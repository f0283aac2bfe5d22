/**
 * A revocation's record outside the credentials: the activity log of the tenants it concerns and the
 * award.revoked event (decision 039), written in the revocation's transaction (service.ts revoke).
 */
import { awardKindOf } from '@shared/rules/test-status';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { testLinks } from '../assessments/tables';
import type { Db } from '../db/client';
import { tenantUsers, users } from '../db/schema';
import { recordAudit } from '../integrations/core/audit';
import { emitForLearner } from '../integrations/core/events';
import type { Actor } from '../integrations/core/principal';
import type { RevocationRow } from './service';

/**
 * A revocation in the activity log — of the mentor who revoked, or (platform staff) of every tenant holding
 * the learner's seat — and its award.revoked event, in the revocation's transaction (decision 039).
 */
export async function revocationRecorded(
  tx: Db,
  testLinkId: string,
  revocation: RevocationRow,
  by: { id: string; as: 'MENTOR' | 'PLATFORM'; actor: Actor },
) {
  const [about] = await tx
    .select({ type: testLinks.type, id: users.id, email: users.email, name: users.name })
    .from(testLinks)
    .innerJoin(users, eq(users.id, testLinks.userId))
    .where(eq(testLinks.id, testLinkId));
  if (!about) return;
  const kind = awardKindOf(about.type);
  const tenants =
    by.as === 'MENTOR'
      ? [by.id]
      : (
          await tx
            .select({ id: tenantUsers.tenantId })
            .from(tenantUsers)
            .where(
              and(
                eq(tenantUsers.learnerId, about.id),
                or(isNull(tenantUsers.accessUntil), gt(tenantUsers.accessUntil, sql`now()`)),
              ),
            )
        ).map((t) => t.id);
  await recordAudit(
    tx,
    by.actor,
    tenants.map((tenantId) => ({
      tenantId,
      action: 'award.revoked',
      target: { kind: 'award', id: revocation.awardId },
      summary: `${about.email}'s ${kind ?? 'award'} ${revocation.awardId} revoked: ${revocation.reason}`,
      details: {
        awardId: revocation.awardId,
        learnerId: about.id,
        email: about.email,
        kind,
        reason: revocation.reason,
        revokedAs: by.as,
      },
    })),
  );
  await emitForLearner(tx, about.id, 'award.revoked', {
    awardId: revocation.awardId,
    kind,
    learner: { id: about.id, email: about.email, name: about.name },
    reason: revocation.reason,
    revokedAs: revocation.revokedAs,
    revokedAt: revocation.revokedAt.toISOString(),
  });
}
