/**
 * The focus record of test links (shared/rules/integrity.ts) from their stored events: the summary for the
 * tables, and the timeline for the answers view. One read for any number of links.
 */
import { type FocusEvent, type IntegrityRecord, integrityOf } from '@shared/rules/integrity';
import type { IntegritySummary, TimelineEntry } from '@shared/schemas/assessment';
import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type LinkRow, testActivity } from './tables';

type Attempt = Pick<LinkRow, 'id' | 'startedAt' | 'completedAt' | 'deadlineAt'>;

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
