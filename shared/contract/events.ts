/**
 * The events Waymark sends out (issue 29; decision 039): a versioned catalogue, one payload schema per type
 * and version, with an example each. The server writes an event in the same transaction as the change it
 * reports (its `events` table, an outbox), one for every tenant the change concerns: a learner's events go to
 * each tenant holding the learner's seat, and to no one else. Webhooks, xAPI statements and LTI grades are
 * deliveries of these rows. The OpenAPI document lists them under `webhooks`.
 *
 * A payload is additive within a version: fields may be added, never removed, renamed or given another
 * meaning. Anything else is a new version of the type, listed beside the old one, and the server writes
 * the type's `current` version. An assessment's event never carries the answer key, nor the answers.
 */
import { z } from 'zod';
import { TEST_TYPES } from '../schemas/assessment';
import { DateTime, Id } from '../schemas/common';

/** A person an event is about: the learner. */
const Learner = z.object({ id: Id, email: z.string(), name: z.string().nullable() });

/** The level of an assessment: a resource's (feather), a section's (badge), a roadmap's or a subject's (certificate), a mentor's own test, a prerequisite assessment. */
export const ASSESSMENT_LEVELS = [
  'resource',
  'section',
  'roadmap',
  'subject',
  'custom',
  'prerequisite',
] as const;
const Level = z.enum(ASSESSMENT_LEVELS);
const AwardKind = z.enum(['feather', 'badge', 'certificate']);
const TestType = z.enum(TEST_TYPES);

const awardIssued = z.object({
  /** The award's id: the id of the test link that earned it (its page is /{kind}/{awardId}). */
  awardId: z.string(),
  kind: AwardKind,
  level: Level,
  testType: TestType,
  learner: Learner,
  score: z.number(),
  percentage: z.number(),
  earnedAt: DateTime,
  /** The roadmap (for a resource, section or roadmap test) or null (a subject test). */
  roadmapId: Id.nullable(),
  assignedRoadmapId: Id.nullable(),
});

const assessmentEvaluated = z.object({
  /** The test link's id. */
  linkId: z.string(),
  testType: TestType,
  level: Level,
  learner: Learner,
  score: z.number(),
  percentage: z.number(),
  /** Whether the score earns the test's award (its pass mark). */
  passed: z.boolean(),
  questionCount: z.number().int(),
  attempt: z.number().int().nullable(),
  startedAt: DateTime.nullable(),
  completedAt: DateTime,
  /** Seconds taken, within the time limit. */
  completedInSeconds: z.number().int().nullable(),
  /** The mentor's assessment a custom test was shared from; null for the others. */
  assessmentId: Id.nullable(),
  roadmapId: Id.nullable(),
  assignedRoadmapId: Id.nullable(),
});

const awardRevoked = z.object({
  awardId: z.string(),
  kind: AwardKind.nullable(),
  learner: Learner,
  reason: z.string(),
  /** MENTOR (the mentor who assigned the roadmap) or PLATFORM (platform staff). */
  revokedAs: z.enum(['MENTOR', 'PLATFORM']),
  revokedAt: DateTime,
});

const roadmapAssigned = z.object({
  assignedRoadmapId: Id,
  roadmap: z.object({ id: Id, name: z.string() }),
  learner: Learner,
  /** TENANT: a mentor assigned it; the learner's own choices otherwise (SELF, INITIAL_ASSESSMENT, …). */
  source: z.string(),
  /** How the roadmap's prerequisites were settled: ASSESSED, INCLUDED or WAIVED (by the mentor); null: it has none. */
  prerequisites: z.string().nullable(),
  assignedAt: DateTime,
});

const roadmapCompleted = z.object({
  assignedRoadmapId: Id,
  roadmap: z.object({ id: Id, name: z.string() }),
  learner: Learner,
  /** The final test whose certificate completed it. */
  finalLinkId: z.string().nullable(),
  completedAt: DateTime,
});

const seatAdded = z.object({
  seatId: Id,
  learner: Learner,
  /** ADDED by the mentor (portal, CLI, API key) or by accepting an INVITATION. */
  via: z.enum(['ADDED', 'INVITATION']),
  addedAt: DateTime,
});

const seatRemoved = z.object({
  seatId: Id,
  learner: Learner,
  removedAt: DateTime,
  /** Subscribed tenants keep a removed seat readable until the end of the billing cycle; null: gone at once. */
  accessUntil: DateTime.nullable(),
});

const learningDayClosed = z.object({
  /** The finished UTC day, YYYY-MM-DD. */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  learner: Learner,
  /** Minutes tracked on the learner's roadmaps that day, two decimals. */
  minutes: z.number(),
  roadmaps: z.array(
    z.object({
      assignedRoadmapId: Id,
      roadmapId: Id,
      name: z.string(),
      minutes: z.number(),
    }),
  ),
});

const learner = { id: '0b8c3c52-5f0e-4c59-9d44-6f7c2f1f6a11', email: 'asha@example.com', name: 'Asha Rao' };
const roadmap = { id: '7d1f4a0e-2b9c-4c1e-8f5a-3e2d1c0b9a88', name: 'Git and GitHub' };
const assignedRoadmapId = 'c3a9e7f1-6b2d-4f8e-9a1c-5d4e3f2a1b00';

/** Every event type with its versions: each version's payload schema, what it means, and an example. */
export const EVENT_CATALOGUE = {
  'award.issued': {
    current: 1,
    summary:
      'A learner earned an award (a feather, badge or certificate): the test passed. Its page is {PUBLIC_URL}/{kind}/{awardId}, its Open Badges credential {PUBLIC_URL}/api/credentials/{awardId}.',
    versions: {
      1: {
        payload: awardIssued,
        example: {
          awardId: 'Xq3v9TnB2kLw8RzA',
          kind: 'certificate',
          level: 'roadmap',
          testType: 'ROADMAP',
          learner,
          score: 170,
          percentage: 85,
          earnedAt: '2026-03-02T10:14:05.000Z',
          roadmapId: roadmap.id,
          assignedRoadmapId,
        } satisfies z.input<typeof awardIssued>,
      },
    },
  },
  'award.revoked': {
    current: 1,
    summary: "An award's credential was revoked: verifiers see it revoked within a minute.",
    versions: {
      1: {
        payload: awardRevoked,
        example: {
          awardId: 'Xq3v9TnB2kLw8RzA',
          kind: 'certificate',
          learner,
          reason: 'Issued in error',
          revokedAs: 'MENTOR',
          revokedAt: '2026-03-03T08:00:00.000Z',
        } satisfies z.input<typeof awardRevoked>,
      },
    },
  },
  'assessment.evaluated': {
    current: 1,
    summary:
      'A test was evaluated: its score, whether it passed, its level. Never the correct answers, nor the answers given.',
    versions: {
      1: {
        payload: assessmentEvaluated,
        example: {
          linkId: 'Xq3v9TnB2kLw8RzA',
          testType: 'ROADMAP',
          level: 'roadmap',
          learner,
          score: 170,
          percentage: 85,
          passed: true,
          questionCount: 20,
          attempt: 1,
          startedAt: '2026-03-02T09:55:12.000Z',
          completedAt: '2026-03-02T10:14:05.000Z',
          completedInSeconds: 1133,
          assessmentId: null,
          roadmapId: roadmap.id,
          assignedRoadmapId,
        } satisfies z.input<typeof assessmentEvaluated>,
      },
    },
  },
  'roadmap.assigned': {
    current: 1,
    summary: 'A roadmap was assigned to a learner (by the mentor, or the learner chose it).',
    versions: {
      1: {
        payload: roadmapAssigned,
        example: {
          assignedRoadmapId,
          roadmap,
          learner,
          source: 'TENANT',
          prerequisites: null,
          assignedAt: '2026-02-20T09:00:00.000Z',
        } satisfies z.input<typeof roadmapAssigned>,
      },
    },
  },
  'roadmap.completed': {
    current: 1,
    summary: "A learner completed a roadmap: its final test earned the roadmap's certificate.",
    versions: {
      1: {
        payload: roadmapCompleted,
        example: {
          assignedRoadmapId,
          roadmap,
          learner,
          finalLinkId: 'Xq3v9TnB2kLw8RzA',
          completedAt: '2026-03-02T10:14:05.000Z',
        } satisfies z.input<typeof roadmapCompleted>,
      },
    },
  },
  'seat.added': {
    current: 1,
    summary: 'A learner took one of the seats: added by the mentor, or by accepting an invitation.',
    versions: {
      1: {
        payload: seatAdded,
        example: {
          seatId: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
          learner,
          via: 'ADDED',
          addedAt: '2026-02-19T16:30:00.000Z',
        } satisfies z.input<typeof seatAdded>,
      },
    },
  },
  'seat.removed': {
    current: 1,
    summary:
      "A learner's seat was removed: at once, or (subscribed) kept readable until accessUntil, the end of the billing cycle.",
    versions: {
      1: {
        payload: seatRemoved,
        example: {
          seatId: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
          learner,
          removedAt: '2026-04-01T12:00:00.000Z',
          accessUntil: '2026-04-30T23:59:59.000Z',
        } satisfies z.input<typeof seatRemoved>,
      },
    },
  },
  'learning.day.closed': {
    current: 1,
    summary:
      "A learner's tracked minutes of a finished UTC day, per roadmap: sent once a day after the day ends, only to the tenants holding the learner's seat, and only for a day with tracked time.",
    versions: {
      1: {
        payload: learningDayClosed,
        example: {
          day: '2026-03-01',
          learner,
          minutes: 47.5,
          roadmaps: [{ assignedRoadmapId, roadmapId: roadmap.id, name: roadmap.name, minutes: 47.5 }],
        } satisfies z.input<typeof learningDayClosed>,
      },
    },
  },
} as const;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

type Catalogue = typeof EVENT_CATALOGUE;
type Current<T extends EventType> = Catalogue[T]['current'];
type VersionOf<T extends EventType> = Catalogue[T]['versions'][Current<T> & keyof Catalogue[T]['versions']];
/** The payload of an event type's current version, as the server writes it. */
export type EventData<T extends EventType> =
  VersionOf<T> extends { payload: infer S extends z.ZodType } ? z.input<S> : never;

/** The payload schema of one version of a type (null when there is no such version). */
export function payloadSchema(type: string, version: number): z.ZodType | null {
  const entry = (EVENT_CATALOGUE as Record<string, { versions: Record<number, { payload: z.ZodType }> }>)[
    type
  ];
  return entry?.versions[version]?.payload ?? null;
}

/** The version the server writes of a type. */
export const currentVersion = (type: EventType): number => EVENT_CATALOGUE[type].current;

/**
 * What a consumer receives (the body of a webhook): the event's id — the same for every delivery of it —,
 * its type and version, when the change happened, the tenant, and the payload.
 */
export function eventEnvelope<S extends z.ZodType>(type: string, version: number, data: S) {
  return z.object({
    id: Id,
    type: z.literal(type),
    version: z.literal(version),
    timestamp: DateTime,
    tenantId: Id,
    data,
  });
}
