/**
 * Grades back (AGS 2.0; decision 044). A learner's launch of a graded link records where its results go
 * (`lti_grade_targets`: the line item and what counts as an attempt of it). When that learner's test is
 * evaluated, the evaluation's `assessment.evaluated` event (the one events outbox) gets a score post per
 * grade target from the trigger of migration 0027, in the transaction that wrote the event. The
 * `lti-score-post` job claims due posts (FOR UPDATE SKIP LOCKED, status SENDING: one process per post and
 * attempt), sends each with the registration's access token, and marks it DELIVERED, or FAILED with the
 * next attempt after a growing delay, or GAVE_UP after MAX_ATTEMPTS. A post left SENDING by a process that
 * died is claimed again after CLAIM_TIMEOUT_MS.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/helpers';
import { users } from '../../db/schema';
import { conflict, notFound } from '../../http/errors';
import { events } from '../core/tables';
import { type Platforms, SCOPES } from './platform';
import { ltiGradeTargets, ltiRegistrations, ltiScoreDeliveries } from './tables';
import type { Opened } from './targets';

export const MAX_ATTEMPTS = 8;
/** A post claimed longer ago than this (its process died) is claimed again. */
export const CLAIM_TIMEOUT_MS = 5 * 60_000;
/** The delay before attempt n+1: 30 s, 1 min, 2 min, … at most an hour. */
export const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

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

/** Claims up to `limit` due posts for this process (none that another process holds). */
async function claim(db: Db, now: Date, limit: number): Promise<Delivery[]> {
  const stale = new Date(now.getTime() - CLAIM_TIMEOUT_MS);
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      update lti_score_deliveries set status = 'SENDING', claimed_at = ${now}, attempts = attempts + 1
      where id in (
        select id from lti_score_deliveries
        -- due by the caller's clock or the database's (a post made this millisecond is due: now() keeps
        -- microseconds, a JavaScript Date does not)
        where (status in ('PENDING', 'FAILED') and next_attempt_at <= greatest(${now}::timestamptz, now()))
           or (status = 'SENDING' and claimed_at < ${stale})
        order by next_attempt_at
        limit ${limit}
        for update skip locked)
      returning id`),
  );
  if (!rows.length) return [];
  return db
    .select()
    .from(ltiScoreDeliveries)
    .where(
      sql`${ltiScoreDeliveries.id} in (${sql.join(
        rows.map((r) => sql`${r.id}`),
        sql`, `,
      )})`,
    );
}

/** The score a post sends: this attempt's (LATEST), or the best of the target's evaluated attempts (BEST). */
async function scoreOf(db: Db, d: Delivery, policy: 'BEST' | 'LATEST') {
  const [event] = await db.select().from(events).where(eq(events.id, d.eventId)).limit(1);
  if (!event) return null;
  const payload = event.payload as { percentage?: number; completedAt?: string };
  let given = Number(payload.percentage ?? 0);
  if (policy === 'BEST') {
    const [best] = rowsOf<{ best: number | null }>(
      await db.execute(sql`
        select max((e.payload->>'percentage')::float) as best
        from lti_score_deliveries d join events e on e.id = d.event_id
        where d.target_id = ${d.targetId}`),
    );
    given = Math.max(given, Number(best?.best ?? 0));
  }
  return { given, maximum: 100, timestamp: payload.completedAt ?? event.occurredAt.toISOString() };
}

/** Sends the due score posts once each; answers how many were delivered, failed and given up. */
export async function postDueScores(db: Db, platforms: Platforms, now = new Date(), limit = 50) {
  const result = { delivered: 0, failed: 0, gaveUp: 0, waiting: 0 };
  for (const d of await claim(db, now, limit)) {
    const [row] = await db
      .select({ target: ltiGradeTargets, registration: ltiRegistrations })
      .from(ltiGradeTargets)
      .innerJoin(ltiRegistrations, eq(ltiRegistrations.id, ltiGradeTargets.registrationId))
      .where(eq(ltiGradeTargets.id, d.targetId))
      .limit(1);
    const done = (set: Partial<Delivery>) =>
      db
        .update(ltiScoreDeliveries)
        .set(set)
        .where(and(eq(ltiScoreDeliveries.id, d.id), eq(ltiScoreDeliveries.status, 'SENDING')));
    if (!row) {
      await done({ status: 'GAVE_UP', lastError: 'The grade column is no longer known.' });
      result.gaveUp++;
      continue;
    }
    if (row.registration.status === 'PAUSED') {
      // a paused platform keeps its posts waiting, without spending attempts
      await done({
        status: 'PENDING',
        attempts: d.attempts - 1,
        nextAttemptAt: new Date(now.getTime() + 3_600_000),
      });
      result.waiting++;
      continue;
    }
    const score = await scoreOf(db, d, row.registration.attemptPolicy);
    if (!score) {
      await done({ status: 'GAVE_UP', lastError: 'The evaluation is no longer known.' });
      result.gaveUp++;
      continue;
    }
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await platforms.service(
        row.registration,
        [SCOPES.score],
        scoresUrl(row.target.lineItemUrl),
        {
          method: 'POST',
          headers: { 'content-type': 'application/vnd.ims.lis.v1.score+json', accept: 'application/json' },
          body: JSON.stringify({
            userId: row.target.subject,
            scoreGiven: score.given,
            scoreMaximum: score.maximum,
            activityProgress: 'Completed',
            gradingProgress: 'FullyGraded',
            timestamp: score.timestamp,
          }),
        },
      );
      status = res.status;
      if (res.status < 200 || res.status >= 300)
        error = res.body.toString('utf8').slice(0, 500) || `HTTP ${res.status}`;
    } catch (err) {
      error = (err as Error).message.slice(0, 500);
    }
    const sent = { scoreGiven: score.given, scoreMaximum: score.maximum, lastStatus: status };
    if (!error) {
      await done({ ...sent, status: 'DELIVERED', deliveredAt: now, lastError: null });
      result.delivered++;
    } else if (d.attempts >= MAX_ATTEMPTS) {
      await done({ ...sent, status: 'GAVE_UP', lastError: error });
      result.gaveUp++;
    } else {
      await done({
        ...sent,
        status: 'FAILED',
        lastError: error,
        nextAttemptAt: new Date(now.getTime() + backoffMs(d.attempts)),
      });
      result.failed++;
    }
  }
  return result;
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
    createdAt: d.createdAt.toISOString(),
    nextAttemptAt: d.status === 'DELIVERED' || d.status === 'GAVE_UP' ? null : d.nextAttemptAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  }));
}

/** A failed post sent again at the sender's next run, with its attempts counted afresh. */
export async function retryDelivery(db: Db, tenantId: string, id: string, now = new Date()) {
  const [row] = await db
    .select({ status: ltiScoreDeliveries.status })
    .from(ltiScoreDeliveries)
    .where(and(eq(ltiScoreDeliveries.id, id), eq(ltiScoreDeliveries.tenantId, tenantId)))
    .limit(1);
  if (!row) throw notFound('This score post does not exist.');
  if (row.status === 'DELIVERED') throw conflict('This score was delivered already: it is not sent twice.');
  if (row.status === 'FAILED' || row.status === 'GAVE_UP') {
    await db
      .update(ltiScoreDeliveries)
      .set({ status: 'PENDING', attempts: 0, nextAttemptAt: now })
      .where(and(eq(ltiScoreDeliveries.id, id), inArray(ltiScoreDeliveries.status, ['FAILED', 'GAVE_UP'])));
  }
  const [data] = await deliveriesOf(db, tenantId, { status: 'ALL', limit: 1 }, id);
  return data!;
}
