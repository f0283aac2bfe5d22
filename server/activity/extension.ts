/**
 * What the browser extension asks of learning time besides its heartbeats: the resources it tracks for the
 * learner, today's time per resource, and the feedback left when it is uninstalled.
 */
import type { createFeedback as createFeedbackCall } from '@shared/contract/activity';
import type { CallBody } from '@shared/contract/define';
import { attribute, type Beat, clip, PULSE_WINDOW_MS } from '@shared/rules/heartbeats';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';
import { badRequest } from '../http/errors';
import type { Caller } from '../http/routes';
import { uninstallFeedback } from './tables';

const DAY = 86_400;

const seconds = (ms: number | string) => Math.round(Number(ms) / 1000);

/** The resources of the learner's assigned roadmaps, which the extension tracks. */
export async function trackedResources(db: Db, caller: Caller) {
  const rows = rowsOf<{ id: string; url: string; title: string }>(
    await db.execute(sql`
        select distinct r.id, r.url, coalesce(r.user_title, r.actual_title) as title
        from assigned_roadmaps ar
        join assigned_sections s on s.assigned_roadmap_id = ar.id
        join section_resources sr on sr.section_id = s.section_id
        join resources r on r.id = sr.resource_id
        where ar.user_id = ${caller.id}
        order by title`),
  );
  return {
    user: { _id: caller.id, name: caller.user.name, email: caller.user.email },
    resources: rows.map((r) => ({ resourceId: r.id, url: r.url, title: r.title })),
  };
}

/**
 * The learner's time per resource since `since` (unix seconds, within the last 36 hours; the start of
 * today, UTC, by default), from the raw heartbeats.
 */
export async function todaySummary(db: Db, caller: Caller, since: number | undefined) {
  const now = Date.now();
  const startTime = since ?? Math.floor(now / 1000 / DAY) * DAY;
  if (startTime * 1000 > now || startTime * 1000 < now - 36 * 3600_000) {
    throw badRequest('startTime: must be within the last 36 hours', 'startTime');
  }
  const from = startTime * 1000;
  const rows = rowsOf<{
    client_id: string;
    resource_id: string;
    at: string | number;
    tab_active: boolean;
    audible: boolean;
  }>(
    await db.execute(sql`
        select client_id, resource_id, at, tab_active, audible from activity_heartbeats
        where user_id = ${caller.id} and at between ${from - PULSE_WINDOW_MS} and ${now + PULSE_WINDOW_MS}`),
  );
  const beats: Beat[] = rows.map((r) => ({
    id: r.client_id,
    resourceId: r.resource_id,
    time: Number(r.at),
    tabActive: r.tab_active,
    audible: r.audible,
  }));
  const perResource = new Map<string, number>();
  for (const s of clip(attribute(beats), [[from, now + PULSE_WINDOW_MS]])) {
    perResource.set(s.resourceId, (perResource.get(s.resourceId) ?? 0) + (s.end - s.start));
  }
  const ids = [...perResource.keys()];
  const titles = new Map<string, string>();
  if (ids.length) {
    const found = rowsOf<{ id: string; title: string }>(
      await db.execute(sql`
          select id, coalesce(user_title, actual_title) as title from resources
          where id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`),
    );
    for (const r of found) titles.set(r.id, r.title);
  }
  const resources = ids
    .map((id) => ({
      resourceId: id,
      title: titles.get(id) ?? 'Resource',
      seconds: seconds(perResource.get(id)!),
    }))
    .filter((r) => r.seconds > 0)
    .sort((a, b) => b.seconds - a.seconds);
  return {
    user: { _id: caller.id, name: caller.user.name, email: caller.user.email },
    startTime,
    totalSeconds: resources.reduce((sum, r) => sum + r.seconds, 0),
    resources,
  };
}

/** Records why the extension was uninstalled (`userId`: the learner, when signed in). */
export async function recordUninstallFeedback(
  db: Db,
  body: CallBody<typeof createFeedbackCall>,
  userId: string | null,
) {
  await db.insert(uninstallFeedback).values({
    emailId: body.emailId,
    reasons: body.reason,
    other: body.reason.includes('other') ? (body.other ?? null) : null,
    message: body.message || null,
    userId,
  });
}
