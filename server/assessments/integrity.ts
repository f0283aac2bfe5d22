/**
 * The focus record of test links (shared/rules/integrity.ts) from their stored events: the summary for the
 * tables, and the timeline for the answers view. One read for any number of links.
 */
import type { testActivity as testActivityCall } from '@shared/contract/assessments';
import type { CallBody } from '@shared/contract/define';
import { type FocusEvent, type IntegrityRecord, integrityOf } from '@shared/rules/integrity';
import type { IntegritySummary, TimelineEntry } from '@shared/schemas/assessment';
import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type LinkRow, testActivity } from './tables';

type Attempt = Pick<LinkRow, 'id' | 'startedAt' | 'completedAt' | 'deadlineAt'>;

/**
 * Records one event of an attempt in progress as its page reported it (once per client id), placed on the
 * server's clock: now, less how long the page held the event (an offline queue), within the attempt — and
 * never out of the page's order.
 */
export async function recordFocusEvent(
  db: Db,
  link: Pick<LinkRow, 'id' | 'startedAt'>,
  event: CallBody<typeof testActivityCall>,
  now: Date,
) {
  const toMs = (t: number) => (t < 1e11 ? t * 1000 : t); // unix seconds or milliseconds
  const happened = toMs(event.timeStamp);
  const held = event.sentAt === undefined ? 0 : Math.max(0, toMs(event.sentAt) - happened);
  const placed = new Date(Math.max(link.startedAt!.getTime(), now.getTime() - held)).toISOString();
  const timeStamp = new Date(Math.min(happened, 8.64e15));
  const stamp = timeStamp.toISOString();
  // each request's own delay differs, so a return reported slowly and a departure reported 50 ms later behind
  // it would otherwise swap, and the absence be lost
  const at = sql`greatest(
    least(${placed}::timestamptz,
      (select min(e.at) from test_activity e where e.test_link_id = ${link.id} and e.time_stamp > ${stamp}::timestamptz)),
    (select max(e.at) from test_activity e where e.test_link_id = ${link.id} and e.time_stamp <= ${stamp}::timestamptz))`;
  await db
    .insert(testActivity)
    .values({
      testLinkId: link.id,
      type: event.type,
      timeStamp,
      at,
      question: event.question ?? null,
      chars: event.type === 'PASTE' ? (event.chars ?? null) : null,
      clientId: event.id ?? null,
    })
    .onConflictDoNothing();
}

/** When the attempt ended: finished, or time up, or (still running) now. */
export function attemptEnd(link: Attempt, now: Date): number {
  if (link.completedAt) return link.completedAt.getTime();
  const deadline = link.deadlineAt?.getTime();
  return deadline !== undefined && deadline < now.getTime() ? deadline : now.getTime();
}

/** The record of each started link, by the link's row id. */
export async function integrityOfLinks(
  db: Db,
  links: readonly Attempt[],
  now: Date,
): Promise<Map<string, IntegrityRecord>> {
  const started = links.filter((l) => l.startedAt);
  const out = new Map<string, IntegrityRecord>();
  if (started.length === 0) return out;
  const rows = await db
    .select({
      linkId: testActivity.testLinkId,
      type: testActivity.type,
      at: testActivity.at,
      question: testActivity.question,
      chars: testActivity.chars,
    })
    .from(testActivity)
    .where(
      inArray(
        testActivity.testLinkId,
        started.map((l) => l.id),
      ),
    )
    .orderBy(asc(testActivity.at), asc(testActivity.timeStamp), asc(testActivity.createdAt));
  const events = new Map<string, FocusEvent[]>();
  for (const r of rows) {
    const list = events.get(r.linkId) ?? [];
    list.push({ type: r.type, at: r.at.getTime(), question: r.question, chars: r.chars });
    events.set(r.linkId, list);
  }
  for (const l of started) {
    out.set(l.id, integrityOf(events.get(l.id) ?? [], l.startedAt!.getTime(), attemptEnd(l, now)));
  }
  return out;
}

export const summaryOf = (r: IntegrityRecord | undefined): IntegritySummary | null => (r ? r.summary : null);

export const timelineOf = (r: IntegrityRecord | undefined): TimelineEntry[] =>
  (r?.timeline ?? []).map((t) => ({
    kind: t.kind,
    at: new Date(t.at).toISOString(),
    until: t.until === null ? null : new Date(t.until).toISOString(),
    seconds: t.seconds,
    question: t.question,
    chars: t.chars,
    brief: t.brief,
  }));
