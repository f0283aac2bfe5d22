/**
 * Demo content of the tenant side, so `npm start` shows a living mentor portal: the demo mentor holds the
 * demo learner as a seat (server/db/seed.ts adds it), and the learner has learnt on most of the last twelve
 * days — heartbeats through the same ingestion the extension's batches use, on the resources of the
 * learner's assigned roadmaps — plus a demo offer code. Safe to run again: nothing is added while the
 * learner has learning time in the last 14 days.
 */
import { sql } from 'drizzle-orm';
import { ingestHeartbeats } from '../activity/ingest';
import { offerCodes } from '../billing/tables';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';
import { tenantUsers } from '../db/schema';

export const DEMO_OFFER_CODE = 'WAYMARK20';
const DAY_MS = 86_400_000;

export async function seedDemoTenant(
  db: Db,
  opts: { mentorEmail: string; learnerEmail: string; log?: (m: string) => void; now?: number },
) {
  const log = opts.log ?? (() => {});
  const now = opts.now ?? Date.now();
  await db
    .insert(offerCodes)
    .values({ code: DEMO_OFFER_CODE, description: 'Demo offer: 20% off every seat', percentOff: 20 })
    .onConflictDoNothing();
  const people = rowsOf<{ id: string; email: string }>(
    await db.execute(
      sql`select id, lower(email) as email from users where lower(email) in (${opts.mentorEmail}, ${opts.learnerEmail})`,
    ),
  );
  const mentor = people.find((p) => p.email === opts.mentorEmail);
  const learner = people.find((p) => p.email === opts.learnerEmail);
  if (!mentor || !learner) return;
  await db.insert(tenantUsers).values({ tenantId: mentor.id, learnerId: learner.id }).onConflictDoNothing();

  const recent = rowsOf<{ n: string | number }>(
    await db.execute(sql`
      select count(*) as n from activity_daily
      where user_id = ${learner.id} and day >= ${new Date(now - 14 * DAY_MS).toISOString().slice(0, 10)}`),
  );
  if (Number(recent[0]?.n ?? 0) > 0) return;
  const resources = rowsOf<{ id: string; url: string }>(
    await db.execute(sql`
      select distinct r.id, r.url, s.position, sr.position as rp from assigned_roadmaps ar
      join assigned_sections s on s.assigned_roadmap_id = ar.id
      join section_resources sr on sr.section_id = s.section_id
      join resources r on r.id = sr.resource_id
      where ar.user_id = ${learner.id} and ar.status = 'ONGOING'
      order by s.position, rp
      limit 8`),
  );
  if (resources.length === 0) return;
  // twelve days ending yesterday; a rest day now and then; 10 to 45 minutes a session
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const beats = [];
  for (let d = 12; d >= 1; d--) {
    if (d % 5 === 0) continue;
    const sessions = 1 + (d % 2);
    for (let s = 0; s < sessions; s++) {
      const resource = resources[(12 - d + s) % resources.length]!;
      const minutes = 10 + ((d * 7 + s * 11) % 36);
      const start = today - d * DAY_MS + (9 + s * 5) * 3600_000 + (d % 4) * 600_000;
      for (let i = 0; i <= minutes * 2; i++) {
        beats.push({
          id: `demo-${d}-${s}-${i}`,
          resourceId: resource.id,
          url: resource.url,
          time: start + i * 30_000,
          tabActive: true,
          audible: i % 3 === 0,
        });
      }
    }
  }
  for (let i = 0; i < beats.length; i += 100) {
    await ingestHeartbeats(db, learner.id, beats.slice(i, i + 100), now);
  }
  log(`seeded ${beats.length} demo heartbeats for ${opts.learnerEmail}`);
}
