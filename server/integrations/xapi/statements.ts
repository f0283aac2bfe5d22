/**
 * xAPI 1.0.3 statements (IEEE 9274.1.1) made from Waymark's events (issue 29 item 3; decision 042), with the
 * ADL verbs (http://adlnet.gov/expapi/verbs/…) — `experienced`, `attempted`, `passed`, `failed`,
 * `completed`, `interacted` — and, for an award, the xAPI registry's `earned`
 * (http://id.tincanapi.com/verb/earned: ADL's list has no verb for it).
 *
 * - learning.day.closed → one `experienced` per roadmap studied that day, `result.duration` the time tracked,
 *   the roadmap the object and Waymark the grouping (the event counts time per roadmap, not per resource);
 * - assessment.evaluated → `attempted` (at its start), then `passed` or `failed` with `result.score`
 *   (scaled, raw, min 0, max 10 a question), `success`, `completion` and the time taken; the roadmap is
 *   the parent in `context.contextActivities`;
 * - award.issued → `earned` of the award's page, the Open Badges credential's address as an extension;
 * - roadmap.completed → `completed` of the roadmap.
 *
 * The learner is an `account` (homePage: this Waymark's address, name: an HMAC of the learner's id under
 * the tenant's own key — stable for the tenant, meaningless elsewhere) or, when the tenant chooses, an
 * `mbox`. Each statement's id is derived from the event and its place (a UUID of the RFC 4122 variant), so
 * the same event always gives the same statements: a re-send is the same statement, stored once.
 */
import { createHash, createHmac } from 'node:crypto';
import type { EventData } from '@shared/contract/events';
import { POINTS_PER_QUESTION } from '@shared/rules/scoring';

/** An xAPI statement, as sent (JSON). */
export type Statement = Record<string, unknown>;

const ADL = 'http://adlnet.gov/expapi/verbs/';
export const VERBS = {
  experienced: { id: `${ADL}experienced`, display: { 'en-US': 'experienced' } },
  attempted: { id: `${ADL}attempted`, display: { 'en-US': 'attempted' } },
  passed: { id: `${ADL}passed`, display: { 'en-US': 'passed' } },
  failed: { id: `${ADL}failed`, display: { 'en-US': 'failed' } },
  completed: { id: `${ADL}completed`, display: { 'en-US': 'completed' } },
  interacted: { id: `${ADL}interacted`, display: { 'en-US': 'interacted' } },
  earned: { id: 'http://id.tincanapi.com/verb/earned', display: { 'en-US': 'earned' } },
} as const;

const ACTIVITY_TYPES = {
  course: 'http://adlnet.gov/expapi/activities/course',
  assessment: 'http://adlnet.gov/expapi/activities/assessment',
  badge: 'http://activitystrea.ms/schema/1.0/badge',
  application: 'http://activitystrea.ms/schema/1.0/application',
} as const;

export interface StatementOptions {
  /** This Waymark's address (PUBLIC_URL), without a trailing slash. */
  publicUrl: string;
  actorFormat: 'account' | 'mbox';
  /** The tenant's pseudonym key (opened). */
  pseudonymKey: string;
}

interface EventRow {
  id: string;
  type: string;
  occurredAt: Date;
  payload: Record<string, unknown>;
}

/**
 * A UUID from a name (the event and the statement's place in it), with the version nibble 5 and the RFC
 * 4122 variant: the same name, the same id.
 */
export function statementId(name: string): string {
  const h = createHash('sha256').update(`waymark-xapi:${name}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The learner's stable pseudonym for one tenant. */
export const pseudonymOf = (key: string, learnerId: string) =>
  createHmac('sha256', key).update(learnerId).digest('base64url').slice(0, 32);

type Learner = { id: string; email: string; name: string | null };

function actorOf(learner: Learner, o: StatementOptions): Statement {
  if (o.actorFormat === 'mbox')
    return {
      objectType: 'Agent',
      ...(learner.name ? { name: learner.name } : {}),
      mbox: `mailto:${learner.email}`,
    };
  return {
    objectType: 'Agent',
    account: { homePage: o.publicUrl, name: pseudonymOf(o.pseudonymKey, learner.id) },
  };
}

const activity = (id: string, type: string, name: string, more: Statement = {}): Statement => ({
  objectType: 'Activity',
  id,
  definition: { type, name: { 'en-US': name }, ...more },
});

const roadmapActivity = (o: StatementOptions, roadmap: { id: string; name: string }) =>
  activity(`${o.publicUrl}/roadmap/${roadmap.id}`, ACTIVITY_TYPES.course, roadmap.name);

/** Waymark itself: the grouping of every statement it makes. */
const platformGrouping = (o: Pick<StatementOptions, 'publicUrl'>) =>
  activity(o.publicUrl, ACTIVITY_TYPES.application, 'Waymark');

const context = (o: Pick<StatementOptions, 'publicUrl'>, parent?: Statement): Statement => ({
  platform: 'Waymark',
  language: 'en-US',
  contextActivities: {
    ...(parent ? { parent: [parent] } : {}),
    grouping: [platformGrouping(o)],
  },
});

/** ISO 8601 duration of seconds (xAPI keeps 0.01 s). */
export const durationOf = (seconds: number) => `PT${Math.max(0, Math.round(seconds * 100) / 100)}S`;

/** The statements of one event, in their order; each with its stable id. */
export function statementsOf(event: EventRow, o: StatementOptions): Statement[] {
  const made: Omit<Statement, 'id'>[] = [];
  const when = (t: string | null | undefined) => t ?? event.occurredAt.toISOString();
  switch (event.type) {
    case 'learning.day.closed': {
      const d = event.payload as EventData<'learning.day.closed'>;
      // the day's end: the time the statement reports
      const end = new Date(`${d.day}T23:59:59.999Z`).toISOString();
      for (const r of d.roadmaps) {
        if (r.minutes <= 0) continue;
        made.push({
          actor: actorOf(d.learner, o),
          verb: VERBS.experienced,
          object: roadmapActivity(o, { id: r.roadmapId, name: r.name }),
          result: { duration: durationOf(r.minutes * 60) },
          context: {
            ...context(o),
            extensions: { [`${o.publicUrl}/xapi/extensions/day`]: d.day },
          },
          timestamp: end,
        });
      }
      break;
    }
    case 'assessment.evaluated': {
      const d = event.payload as EventData<'assessment.evaluated'>;
      const test = activity(
        `${o.publicUrl}/test/${d.linkId}`,
        ACTIVITY_TYPES.assessment,
        `${d.testType.charAt(0)}${d.testType.slice(1).toLowerCase().replace(/_/g, ' ')} assessment`,
      );
      const parent = d.roadmapId
        ? activity(`${o.publicUrl}/roadmap/${d.roadmapId}`, ACTIVITY_TYPES.course, 'Roadmap')
        : undefined;
      const max = d.questionCount * POINTS_PER_QUESTION;
      const raw = Math.min(Math.max(0, d.score), max);
      made.push({
        actor: actorOf(d.learner, o),
        verb: VERBS.attempted,
        object: test,
        context: context(o, parent),
        timestamp: when(d.startedAt ?? d.completedAt),
      });
      made.push({
        actor: actorOf(d.learner, o),
        verb: d.passed ? VERBS.passed : VERBS.failed,
        object: test,
        result: {
          score: { scaled: max > 0 ? Math.round((raw / max) * 10_000) / 10_000 : 0, raw, min: 0, max },
          success: d.passed,
          completion: true,
          ...(d.completedInSeconds !== null ? { duration: durationOf(d.completedInSeconds) } : {}),
        },
        context: context(o, parent),
        timestamp: when(d.completedAt),
      });
      break;
    }
    case 'award.issued': {
      const d = event.payload as EventData<'award.issued'>;
      const kind = d.kind.charAt(0).toUpperCase() + d.kind.slice(1);
      made.push({
        actor: actorOf(d.learner, o),
        verb: VERBS.earned,
        object: activity(
          `${o.publicUrl}/${d.kind}/${d.awardId}`,
          ACTIVITY_TYPES.badge,
          `${kind} ${d.awardId}`,
        ),
        result: {
          success: true,
          completion: true,
          extensions: {
            [`${o.publicUrl}/xapi/extensions/credential`]: `${o.publicUrl}/api/credentials/${d.awardId}`,
          },
        },
        context: context(
          o,
          d.roadmapId
            ? activity(`${o.publicUrl}/roadmap/${d.roadmapId}`, ACTIVITY_TYPES.course, 'Roadmap')
            : undefined,
        ),
        timestamp: when(d.earnedAt),
      });
      break;
    }
    case 'roadmap.completed': {
      const d = event.payload as EventData<'roadmap.completed'>;
      made.push({
        actor: actorOf(d.learner, o),
        verb: VERBS.completed,
        object: roadmapActivity(o, d.roadmap),
        result: { completion: true },
        context: context(o),
        timestamp: when(d.completedAt),
      });
      break;
    }
  }
  return made.map((s, i) => ({ id: statementId(`${event.id}:${i}`), ...s }));
}

/** The statement the tenant's test sends: the tenant `interacted` with Waymark's LRS connection. */
export function testStatement(
  o: Pick<StatementOptions, 'publicUrl'> & { tenantEmail: string; name: string | null },
  at: Date,
): Statement {
  return {
    id: statementId(`test:${o.tenantEmail}:${at.toISOString()}`),
    actor: { objectType: 'Agent', ...(o.name ? { name: o.name } : {}), mbox: `mailto:${o.tenantEmail}` },
    verb: VERBS.interacted,
    object: activity(
      `${o.publicUrl}/portal/integrations/xapi`,
      ACTIVITY_TYPES.application,
      'Waymark: learning record store connection',
    ),
    context: context(o),
    timestamp: at.toISOString(),
  };
}
