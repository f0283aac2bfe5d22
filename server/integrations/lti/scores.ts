/**
 * Grades back (AGS 2.0; decisions 044, 046). A learner's launch of a graded link records where its results go
 * (`lti_grade_targets`: the line item, and the test or the roadmap copy it follows). When that learner's test
 * is evaluated (or the roadmap completed), the event's trigger (migration 0027) writes a score post per grade
 * target, and the post's own trigger (migration 0029) enqueues its pg-boss job (`lti-score`) — both in the
 * transaction that wrote the event, so a post and its job exist exactly when the evaluation was committed.
 *
 * The job (`postScore`) claims the post with a token of its own (SENDING: one worker at a time; a claim
 * older than CLAIM_LEASE_MS is a dead worker's and may be taken over), makes its body once — the score by
 * the registration's attempt policy, the award's address, the timestamp of the evaluation — and keeps it, so
 * every retry sends the same body with the same timestamp: a platform that received a post whose answer was
 * lost keeps one (AGS §3.4.9: a result is never updated from a timestamp that is not later). Only the claim's
 * holder records the outcome, before its job ends: DELIVERED, or FAILED (the job fails, and pg-boss retries it
 * with backoff), or GAVE_UP after MAX_ATTEMPTS. `lti-score-sweep` sends a job again for a post that has none
 * alive (its queue was made after it, or pg-boss ran out of retries first).
 */

import { randomUUID } from 'node:crypto';
import { localMessage } from '@shared/i18n/message';
import { POST_ERRORS, postErrorCode } from '@shared/schemas/lti';
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx, rowsOf } from '../../db/helpers';
import { users } from '../../db/schema';
import { conflict, notFound } from '../../http/errors';
import { recordAudit } from '../core/audit';
import type { Actor } from '../core/principal';
import { events } from '../core/tables';
import { type Platforms, SCOPES } from './platform';
import { ltiGradeTargets, ltiRegistrations, ltiScoreDeliveries } from './tables';
import type { Opened } from './targets';

/** The queue of score posts: one job per post waiting, written by the trigger of migration 0029. */
export const SCORE_QUEUE = 'lti-score';
/** Attempts of one post before it is given up (about six hours of retries; the mentor may send it again). */
export const MAX_ATTEMPTS = 15;
/**
 * A claim older than this is a dead worker's (a live one ends its post within the token's and the post's
 * request deadlines, 10 s each, twice at most); shorter than the job's expiry, so pg-boss's retry of a job
 * whose worker died finds the claim stale.
 */
export const CLAIM_LEASE_MS = 90_000;
/** The job's settings: retried after 2–4 s, then twice as long each time, at most an hour apart. */
export const SCORE_JOB = {
  policy: 'standard',
  retryLimit: MAX_ATTEMPTS + 5,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 3600,
  expireInSeconds: 120,
  deleteAfterSeconds: 7 * 86_400,
  notify: true,
} as const;
/** When pg-boss retries a post that failed its n-th attempt, at the latest (what the mentor is shown). */
const retryDelayMs = (attempts: number) =>
  Math.min(SCORE_JOB.retryDelay * 2 ** attempts, SCORE_JOB.retryDelayMax) * 1000;

/** The scores endpoint of a line item (AGS §3.4: the line item URL with `/scores` added to its path). */
export function scoresUrl(lineItem: string) {
  const u = new URL(lineItem);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/scores`;
  return u.toString();
}

/** Records where a learner's results of a resource link go (called by the launch). */
export async function recordGradeTarget(
  db: Db,
  t: {
    registrationId: string;
    tenantId: string;
    userId: string;
    subject: string;
    resourceLinkId: string;
    lineItemUrl: string;
  } & Opened['grade'],
) {
  const what = {
    kind: t.kind,
    testKey: t.kind === 'TEST' ? t.testKey : null,
    tenantAssessmentId: t.kind === 'TEST' ? t.tenantAssessmentId : null,
    assignedRoadmapId: t.kind === 'ROADMAP' ? t.assignedRoadmapId : null,
  };
  await db
    .insert(ltiGradeTargets)
    .values({ ...t, ...what })
    .onConflictDoUpdate({
      target: [ltiGradeTargets.registrationId, ltiGradeTargets.resourceLinkId, ltiGradeTargets.userId],
      set: { lineItemUrl: t.lineItemUrl, ...what },
    });
}

type Delivery = typeof ltiScoreDeliveries.$inferSelect;

export interface ScoreDeps {
  db: Db;
  platforms: Platforms;
  /** Waymark's address, for the award's page in the score's comment. */
  publicUrl: string;
}

/** What a score job did. `failed` and `held` fail the job, so that pg-boss tries it again later. */
export type ScoreOutcome = 'delivered' | 'failed' | 'gave-up' | 'waiting' | 'held' | 'done';

/** Claims a post for this worker: a waiting one, or one whose claim is a dead worker's. */
async function claim(db: Db, id: string, token: string, now: Date): Promise<Delivery | null> {
  const stale = new Date(now.getTime() - CLAIM_LEASE_MS);
  const [row] = await db
    .update(ltiScoreDeliveries)
    .set({
      status: 'SENDING',
      claimToken: token,
      claimedAt: now,
      attempts: sql`${ltiScoreDeliveries.attempts} + 1`,
    })
    .where(
      and(
        eq(ltiScoreDeliveries.id, id),
        or(
          inArray(ltiScoreDeliveries.status, ['PENDING', 'FAILED']),
          and(eq(ltiScoreDeliveries.status, 'SENDING'), lt(ltiScoreDeliveries.claimedAt, stale)),
        ),
      ),
    )
    .returning();
  return row ?? null;
}

/** The award a test link earned, as its public page (award ids are the links' ids). */
async function awardPage(db: Db, tenantId: string, linkId: string, publicUrl: string) {
  const [award] = await db
    .select({ payload: events.payload })
    .from(events)
    .where(
      and(
        eq(events.tenantId, tenantId),
        eq(events.type, 'award.issued'),
        sql`${events.payload}->>'awardId' = ${linkId}`,
      ),
    )
    .limit(1);
  const kind = (award?.payload as { kind?: string } | undefined)?.kind;
  return kind ? `${publicUrl.replace(/\/+$/, '')}/${kind}/${linkId}` : null;
}

/** A roadmap copy's progress: the share of its sections whose test was passed, the final counting as one. */
async function roadmapProgress(db: Db, tenantId: string, assignedRoadmapId: string) {
  const [row] = rowsOf<{ passed: number; sections: number }>(
    await db.execute(sql`
      select
        (select count(distinct l.section_id)::int from events e
           join test_links l on l.link_id = e.payload->>'linkId'
          where e.tenant_id = ${tenantId} and e.type = 'assessment.evaluated'
            and (e.payload->>'passed')::boolean and l.type = 'SECTION'
            and l.assigned_roadmap_id = ${assignedRoadmapId}) as passed,
        coalesce(
          nullif((select count(*)::int from assigned_sections s where s.assigned_roadmap_id = ${assignedRoadmapId}), 0),
          (select count(*)::int from sections s join assigned_roadmaps a on a.roadmap_id = s.roadmap_id
            where a.id = ${assignedRoadmapId})) as sections`),
  );
  const sections = Number(row?.sections ?? 0);
  return Math.round((100 * Math.min(Number(row?.passed ?? 0), sections)) / (sections + 1));
}

/**
 * The score's body (AGS §3.4): for a test, this attempt's percentage (LATEST) or the best of the target's
 * attempts so far (BEST), Completed and FullyGraded, with the award's page when one was earned; for a
 * roadmap, its progress while it goes on (InProgress, Pending: the final grade is not known yet) and 100 when
 * it is completed (Completed, FullyGraded, with the certificate's page). Null when the event is gone.
 */
async function bodyOf(
  deps: ScoreDeps,
  d: Delivery,
  target: typeof ltiGradeTargets.$inferSelect,
  policy: 'BEST' | 'LATEST',
): Promise<Record<string, unknown> | null> {
  const [event] = await deps.db.select().from(events).where(eq(events.id, d.eventId)).limit(1);
  if (!event) return null;
  const payload = event.payload as {
    percentage?: number;
    completedAt?: string;
    linkId?: string;
    finalLinkId?: string;
  };
  const timestamp = payload.completedAt ?? event.occurredAt.toISOString();
  const base = { userId: target.subject, scoreMaximum: 100, timestamp };
  const comment = async (linkId: string | undefined) => {
    const page = linkId ? await awardPage(deps.db, d.tenantId, linkId, deps.publicUrl) : null;
    return page ? { comment: `Award: ${page}` } : {};
  };
  if (target.kind === 'ROADMAP') {
    if (event.type === 'roadmap.completed') {
      return {
        ...base,
        scoreGiven: 100,
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
        ...(await comment(payload.finalLinkId)),
      };
    }
    const progress = await roadmapProgress(deps.db, d.tenantId, target.assignedRoadmapId!);
    return { ...base, scoreGiven: progress, activityProgress: 'InProgress', gradingProgress: 'Pending' };
  }
  let given = Number(payload.percentage ?? 0);
  if (policy === 'BEST') {
    const [best] = rowsOf<{ best: number | null }>(
      await deps.db.execute(sql`
        select max((e.payload->>'percentage')::float) as best
        from lti_score_deliveries d join events e on e.id = d.event_id
        where d.target_id = ${d.targetId} and e.occurred_at <= ${event.occurredAt}`),
    );
    given = Math.max(given, Number(best?.best ?? 0));
  }
  return {
    ...base,
    scoreGiven: given,
    activityProgress: 'Completed',
    gradingProgress: 'FullyGraded',
    ...(await comment(payload.linkId)),
  };
}

/**
 * The job of one score post: sends it once for this attempt, whichever process runs it, and records the
 * outcome while still holding the claim.
 */
export async function postScore(
  deps: ScoreDeps,
  deliveryId: string,
  now = new Date(),
): Promise<ScoreOutcome> {
  const { db } = deps;
  const token = randomUUID();
  const d = await claim(db, deliveryId, token, now);
  if (!d) {
    const [row] = await db
      .select({ status: ltiScoreDeliveries.status })
      .from(ltiScoreDeliveries)
      .where(eq(ltiScoreDeliveries.id, deliveryId));
    // another worker holds it (its outcome decides) or it is settled
    return row?.status === 'SENDING' ? 'held' : 'done';
  }
  const mine = and(eq(ltiScoreDeliveries.id, d.id), eq(ltiScoreDeliveries.claimToken, token));
  const settle = (set: Partial<Delivery>) =>
    db
      .update(ltiScoreDeliveries)
      .set({ ...set, claimToken: null })
      .where(mine);
  const [row] = await db
    .select({ target: ltiGradeTargets, registration: ltiRegistrations })
    .from(ltiGradeTargets)
    .innerJoin(ltiRegistrations, eq(ltiRegistrations.id, ltiGradeTargets.registrationId))
    .where(eq(ltiGradeTargets.id, d.targetId))
    .limit(1);
  if (!row) {
    await settle({ status: 'GAVE_UP', lastError: POST_ERRORS.TARGET_GONE });
    return 'gave-up';
  }
  if (row.registration.status === 'PAUSED') {
    // a paused platform's post waits an hour without spending an attempt (its job is sent again then)
    await settle({
      status: 'PENDING',
      attempts: d.attempts - 1,
      nextAttemptAt: new Date(now.getTime() + 3_600_000),
    });
    return 'waiting';
  }
  let body = d.payload;
  if (!body) {
    const made = await bodyOf(deps, d, row.target, row.registration.attemptPolicy);
    if (!made) {
      await settle({ status: 'GAVE_UP', lastError: POST_ERRORS.EVALUATION_GONE });
      return 'gave-up';
    }
    // made once, at the first claim: every retry sends it unchanged
    const [kept] = await db
      .update(ltiScoreDeliveries)
      .set({ payload: sql`coalesce(${ltiScoreDeliveries.payload}, ${JSON.stringify(made)}::jsonb)` })
      .where(mine)
      .returning({ payload: ltiScoreDeliveries.payload });
    if (!kept) return 'held';
    body = kept.payload!;
  }
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await deps.platforms.service(
      row.registration,
      [SCOPES.score],
      scoresUrl(row.target.lineItemUrl),
      {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.ims.lis.v1.score+json', accept: 'application/json' },
        body: JSON.stringify(body),
      },
    );
    status = res.status;
    // a retry answered 409: the platform holds this score already (or a later one), as some platforms say
    const already = res.status === 409 && d.attempts > 1;
    if ((res.status < 200 || res.status >= 300) && !already)
      error = res.body.toString('utf8').slice(0, 500) || `HTTP ${res.status}`;
  } catch (err) {
    error = (err as Error).message.slice(0, 500);
  }
  const sent = {
    scoreGiven: typeof body.scoreGiven === 'number' ? body.scoreGiven : null,
    scoreMaximum: typeof body.scoreMaximum === 'number' ? body.scoreMaximum : null,
    lastStatus: status,
  };
  if (!error) {
    await settle({ ...sent, status: 'DELIVERED', deliveredAt: now, lastError: null });
    return 'delivered';
  }
  if (d.attempts >= MAX_ATTEMPTS) {
    await settle({ ...sent, status: 'GAVE_UP', lastError: error });
    return 'gave-up';
  }
  await settle({
    ...sent,
    status: 'FAILED',
    lastError: error,
    nextAttemptAt: new Date(now.getTime() + retryDelayMs(d.attempts)),
  });
  return 'failed';
}

/**
 * Posts left without a live job — made before their queue existed, or whose job pg-boss gave up before the
 * post's own attempts ran out, or whose worker died with pg-boss's job lost — each get a job again.
 */
export async function sweepScores(db: Db, send: (deliveryId: string) => Promise<unknown>, now = new Date()) {
  const stale = new Date(now.getTime() - CLAIM_LEASE_MS);
  const orphans = rowsOf<{ id: string }>(
    await db.execute(sql`
      select d.id from lti_score_deliveries d
      where ((d.status in ('PENDING', 'FAILED') and d.next_attempt_at <= ${now})
          or (d.status = 'SENDING' and d.claimed_at < ${stale}))
        and not exists (
          select 1 from pgboss.job j
          where j.name = ${SCORE_QUEUE} and j.state in ('created', 'retry', 'active')
            and j.data->>'deliveryId' = d.id::text)
      limit 500`),
  );
  for (const { id } of orphans) await send(id);
  return { sent: orphans.length };
}

/** The tenant's score posts, newest first, as the mentor reads them. */
export async function deliveriesOf(
  db: Db,
  tenantId: string,
  q: { status: 'PENDING' | 'FAILED' | 'DELIVERED' | 'ALL'; limit: number },
  id?: string,
) {
  const statuses = {
    PENDING: ['PENDING', 'SENDING'],
    FAILED: ['FAILED', 'GAVE_UP'],
    DELIVERED: ['DELIVERED'],
  } as const;
  const rows = await db
    .select({ d: ltiScoreDeliveries, target: ltiGradeTargets, learner: users, type: events.type })
    .from(ltiScoreDeliveries)
    .innerJoin(ltiGradeTargets, eq(ltiGradeTargets.id, ltiScoreDeliveries.targetId))
    .innerJoin(users, eq(users.id, ltiGradeTargets.userId))
    .innerJoin(events, eq(events.id, ltiScoreDeliveries.eventId))
    .where(
      and(
        eq(ltiScoreDeliveries.tenantId, tenantId),
        id ? eq(ltiScoreDeliveries.id, id) : undefined,
        q.status === 'ALL' ? undefined : inArray(ltiScoreDeliveries.status, [...statuses[q.status]]),
      ),
    )
    .orderBy(desc(ltiScoreDeliveries.createdAt))
    .limit(q.limit);
  return rows.map(({ d, target, learner, type }) => ({
    _id: d.id,
    registrationId: d.registrationId,
    status: d.status,
    attempts: d.attempts,
    learner: { _id: learner.id, name: learner.name, email: learner.email },
    eventType: type,
    lineItemUrl: target.lineItemUrl,
    scoreGiven: d.scoreGiven,
    scoreMaximum: d.scoreMaximum,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    lastErrorCode: postErrorCode(d.lastError),
    createdAt: d.createdAt.toISOString(),
    nextAttemptAt: d.status === 'DELIVERED' || d.status === 'GAVE_UP' ? null : d.nextAttemptAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  }));
}

/**
 * A failed post sent again at the sender's next run, with its attempts counted afresh, and the activity
 * log's entry (who asked, whose score, to which platform) in the same transaction.
 */
export async function retryDelivery(db: Db, tenantId: string, id: string, by: Actor, now = new Date()) {
  return inTx(db, async (tx) => {
    const [row] = await tx
      .select({ status: ltiScoreDeliveries.status })
      .from(ltiScoreDeliveries)
      .where(and(eq(ltiScoreDeliveries.id, id), eq(ltiScoreDeliveries.tenantId, tenantId)))
      .limit(1);
    if (!row) throw notFound(localMessage('errors.lti.postUnknown'));
    if (row.status === 'DELIVERED') throw conflict(localMessage('errors.lti.postDelivered'));
    const retried =
      row.status === 'FAILED' || row.status === 'GAVE_UP'
        ? await tx
            .update(ltiScoreDeliveries)
            .set({ status: 'PENDING', attempts: 0, nextAttemptAt: now })
            .where(
              and(eq(ltiScoreDeliveries.id, id), inArray(ltiScoreDeliveries.status, ['FAILED', 'GAVE_UP'])),
            )
            .returning({ id: ltiScoreDeliveries.id })
        : [];
    const [data] = await deliveriesOf(tx, tenantId, { status: 'ALL', limit: 1 }, id);
    if (retried.length) {
      const [platform] = await tx
        .select({ label: ltiRegistrations.label })
        .from(ltiRegistrations)
        .where(eq(ltiRegistrations.id, data!.registrationId));
      const label = platform?.label ?? data!.lineItemUrl;
      await recordAudit(tx, by, {
        tenantId,
        action: 'lti.score_retried',
        target: { kind: 'ltiScoreDelivery', id },
        summary: `The score of ${data!.learner.email} sent again to the LMS platform ${label}`,
        details: { email: data!.learner.email, label, lineItemUrl: data!.lineItemUrl },
      });
    }
    return data!;
  });
}
