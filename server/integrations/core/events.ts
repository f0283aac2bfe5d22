/**
 * The events outbox's writers (decision 039; the catalogue: shared/contract/events.ts). An event is written
 * in the transaction of the change it reports, so it exists exactly when the change was committed: never for
 * one rolled back, never lost for one committed. Each payload is checked against its type's schema first (a
 * payload the catalogue does not describe rolls the change back rather than going out).
 *
 * The evaluation, the roadmap's assignment and completion, and a seat taken through an invitation are written
 * by triggers in the same statements (migration 0020: `waymark_emit_for_learner`), so the one statement of
 * an evaluation (decisions 025, 026) makes no extra round trip; they write the same shapes, which the tests
 * check against the same schemas.
 */
import { currentVersion, type EventData, type EventType, payloadSchema } from '@shared/contract/events';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { events } from './tables';

/** The payload of an event of the type's current version, checked against its schema. */
function checked<T extends EventType>(type: T, data: EventData<T>): Record<string, unknown> {
  const schema = payloadSchema(type, currentVersion(type))!;
  const result = schema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(
      `The ${type} event does not match its schema: ${issue?.path.join('.')} ${issue?.message}`,
    );
  }
  return data as Record<string, unknown>;
}

/** Writes an event for one tenant; call it with the transaction that makes the change. */
export async function emitEvent<T extends EventType>(
  tx: Db,
  event: { tenantId: string; type: T; subjectUserId?: string | null; data: EventData<T>; dedupeKey?: string },
): Promise<void> {
  await tx.insert(events).values({
    tenantId: event.tenantId,
    type: event.type,
    version: currentVersion(event.type),
    subjectUserId: event.subjectUserId ?? null,
    payload: checked(event.type, event.data),
    dedupeKey: event.dedupeKey ?? null,
  });
}

/**
 * Writes an event about a learner for every tenant holding the learner's seat now (a seat removed by a
 * subscribed tenant counts until its access ends), and for no one else: one row each, in one statement.
 */
export async function emitForLearner<T extends EventType>(
  tx: Db,
  learnerId: string,
  type: T,
  data: EventData<T>,
): Promise<void> {
  await tx.execute(
    sql`select waymark_emit_for_learner(${learnerId}::uuid, ${type}, ${currentVersion(type)}::int, ${JSON.stringify(checked(type, data))}::jsonb)`,
  );
}
