/**
 * Rosters (NRPS 2.0; decision 044): a course's members read from the platform's membership service and its
 * learners given seats by the seat rules of adding a learner (`addLearner`), idempotently — a learner
 * already seated is PRESENT, one the seat rules refuse is NOT_ADDED with their words. A dry run writes
 * nothing. Every request goes through the outbound guard (platform.ts).
 */
import { localMessage } from '@shared/i18n/message';
import type { LtiSyncResult } from '@shared/schemas/lti';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { tenantUsers } from '../../db/schema';
import { badRequest, HttpError, notFound } from '../../http/errors';
import type { SeatPlans } from '../../tenant/accounting';
import { addLearner } from '../../tenant/seats';
import { userForIdentity } from '../core/identities';
import type { Actor } from '../core/principal';
import { provisionLearner } from '../core/provisioning';
import { roleOf } from './launch';
import { PlatformError, type Platforms, SCOPES } from './platform';
import { ltiContextMembers, ltiContexts, ltiRegistrations } from './tables';

type Result = z.infer<typeof LtiSyncResult>;
type Member = { user_id?: unknown; name?: unknown; email?: unknown; roles?: unknown; status?: unknown };

const MEMBERSHIP_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
/** The most pages of members read in one sync. */
const MAX_PAGES = 50;
const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** The courses of a tenant's platform, newest launch first. */
export async function contextsOf(db: Db, tenantId: string, registrationId: string) {
  const [reg] = await db
    .select({ tenantId: ltiRegistrations.tenantId })
    .from(ltiRegistrations)
    .where(eq(ltiRegistrations.id, registrationId));
  if (!reg || reg.tenantId !== tenantId) throw notFound(localMessage('errors.lti.notRegistered'));
  const rows = await db
    .select()
    .from(ltiContexts)
    .where(eq(ltiContexts.registrationId, registrationId))
    .orderBy(desc(ltiContexts.lastLaunchAt));
  return rows.map((c) => ({
    _id: c.id,
    contextId: c.contextId,
    title: c.title,
    canSyncMembers: Boolean(c.membershipsUrl),
    lastLaunchAt: c.lastLaunchAt.toISOString(),
  }));
}

/** Every member of the course, following the service's `Link: <…>; rel="next"` pages. */
async function readMembers(
  platforms: Platforms,
  registration: typeof ltiRegistrations.$inferSelect,
  url: string,
) {
  const members: Member[] = [];
  let next: string | null = url;
  for (let page = 0; next && page < MAX_PAGES; page++) {
    const res = await platforms.service(registration, [SCOPES.memberships], next, {
      headers: { accept: MEMBERSHIP_TYPE },
    });
    if (res.status < 200 || res.status >= 300) {
      throw new PlatformError(
        `The LMS answered ${res.status} when asked for the course's members.`,
        res.status,
      );
    }
    const body = JSON.parse(res.body.toString('utf8')) as { members?: Member[] };
    members.push(...(Array.isArray(body.members) ? body.members : []));
    const link = String(res.headers.link ?? '');
    next = /<([^>]+)>\s*;\s*rel="?next"?/.exec(link)?.[1] ?? null;
  }
  return members;
}

export async function syncMembers(
  deps: { db: Db; platforms: Platforms; plans: SeatPlans },
  tenantId: string,
  contextRowId: string,
  dryRun: boolean,
  actor: Actor,
  now: Date,
): Promise<Result> {
  const { db } = deps;
  const [row] = await db
    .select({ context: ltiContexts, registration: ltiRegistrations })
    .from(ltiContexts)
    .innerJoin(ltiRegistrations, eq(ltiRegistrations.id, ltiContexts.registrationId))
    .where(eq(ltiContexts.id, contextRowId));
  if (!row || row.registration.tenantId !== tenantId)
    throw notFound(localMessage('errors.lti.courseUnknown'));
  const { context, registration } = row;
  if (!context.membershipsUrl) {
    throw badRequest(localMessage('errors.lti.noMemberList'), 'id');
  }
  let members: Member[];
  try {
    members = await readMembers(deps.platforms, registration, context.membershipsUrl);
  } catch (err) {
    throw new HttpError(502, localMessage('errors.lti.membersUnread', { reason: (err as Error).message }), {
      errorCode: 'LTI_PLATFORM_ERROR',
    });
  }
  const result: Result = { dryRun, members: [], counts: { added: 0, present: 0, notAdded: 0 }, skipped: 0 };
  for (const m of members) {
    const subject = str(m.user_id);
    const status = str(m.status) ?? 'Active';
    if (!subject || status !== 'Active' || roleOf(m.roles) !== 'LEARNER') {
      result.skipped++;
      continue;
    }
    const name = str(m.name);
    const email = str(m.email);
    const outcome = (
      o: 'ADDED' | 'PRESENT' | 'NOT_ADDED',
      reason: string | null,
      reasonCode: Result['members'][number]['reasonCode'] = null,
    ) => {
      result.members.push({ subject, name, email, outcome: o, reason, reasonCode });
      result.counts[o === 'ADDED' ? 'added' : o === 'PRESENT' ? 'present' : 'notAdded']++;
    };
    const identity = { tenantId, issuer: registration.issuer, subject };
    if (dryRun) {
      const linked = await userForIdentity(db, identity);
      const [seat] = linked
        ? await db
            .select({ id: tenantUsers.id })
            .from(tenantUsers)
            .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.learnerId, linked)))
        : [];
      if (seat) outcome('PRESENT', null);
      else outcome('ADDED', 'Would be given a seat, if one is free.', 'WOULD_ADD');
      continue;
    }
    const person = await provisionLearner(db, {
      ...identity,
      source: 'lti',
      email,
      emailVerified: registration.emailsVerified,
      name,
    });
    await db
      .insert(ltiContextMembers)
      .values({ contextRowId: context.id, userId: person.userId })
      .onConflictDoNothing();
    try {
      const added = await addLearner(db, deps.plans, tenantId, person.email, now, actor);
      if (added.data.outcome === 'ADDED') outcome('ADDED', null);
      else outcome('NOT_ADDED', added.message, added.data.outcome);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 409) outcome('PRESENT', null);
      else if (err instanceof HttpError && err.statusCode < 500) outcome('NOT_ADDED', err.message, 'REFUSED');
      else throw err;
    }
  }
  return result;
}
