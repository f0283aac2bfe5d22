/**
 * Learners for the benchmarks, made with bulk SQL on a seeded database: each with one of the demo
 * roadmaps that has at least 20 published questions assigned (so a final ROADMAP test draws 20).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { rowsOf } from '../../server/db/helpers';

export interface BenchLearner {
  id: string;
  /** The learner's assigned copy of a demo roadmap. */
  assigned_id: string;
}

/** The published demo roadmaps with at least `questions` questions, and how many each has. */
export async function roadmapsWithQuestions(db: Db, questions = 20) {
  return rowsOf<{ id: string; name: string; questions: number }>(
    await db.execute(sql`
      select rm.id, rm.name, (
        select count(distinct q.id)::int from questions q join question_targets t on t.question_id = q.id
        where q.status = 'PUBLISH' and (
          (t.kind = 'ROADMAP' and t.target_id = rm.id)
          or (t.kind = 'SECTION' and t.target_id in (select id from sections where roadmap_id = rm.id))
          or (t.kind = 'RESOURCE' and t.target_id in (
            select sr.resource_id from section_resources sr join sections s on s.id = sr.section_id
            where s.roadmap_id = rm.id)))
      ) as questions
      from roadmaps rm where rm.is_published order by rm.name`),
  ).filter((r) => r.questions >= questions);
}

/** `count` learners, each with one of `roadmapIds` assigned (round robin); in index order. */
export async function makeLearners(db: Db, count: number, roadmapIds: string[]): Promise<BenchLearner[]> {
  if (roadmapIds.length === 0) throw new Error('no demo roadmap has enough published questions');
  const exec = (q: ReturnType<typeof sql>) => db.execute(q);
  await exec(sql`drop table if exists bench_roadmaps, bench_learners`);
  await exec(sql`
    create temporary table bench_roadmaps as
    select (row_number() over (order by id) - 1)::int as idx, id
    from roadmaps where id in ${roadmapIds}`);
  await exec(sql`
    create temporary table bench_learners as
    select i as idx, gen_random_uuid() as id, gen_random_uuid() as assigned_id
    from generate_series(0, ${count - 1}) i`);
  await exec(sql`
    insert into users (id, firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
    select id, 'bench-' || id, 'taker-' || id || '@bench.local', true, 'USER', 'Bench taker ' || idx, false, true
    from bench_learners`);
  await exec(sql`
    insert into assigned_roadmaps (id, user_id, roadmap_id, status)
    select l.assigned_id, l.id, r.id, 'ONGOING'
    from bench_learners l join bench_roadmaps r on r.idx = l.idx % ${roadmapIds.length}`);
  await exec(sql`
    insert into assigned_sections (assigned_roadmap_id, section_id, position)
    select l.assigned_id, s.id, s.position
    from bench_learners l join bench_roadmaps r on r.idx = l.idx % ${roadmapIds.length}
    join sections s on s.roadmap_id = r.id`);
  await exec(sql`analyze`);
  return rowsOf<BenchLearner>(await exec(sql`select id, assigned_id from bench_learners order by idx`));
}

/**
 * A mentor (TENANT) subscribed (sandbox) for exactly `seats` seats, for a year from `now`: the free seats
 * and a paid quantity for the rest. Its id.
 */
export async function subscribedTenant(
  db: Db,
  key: string,
  seats: number,
  freeSeats: number,
  now = new Date(),
) {
  const [tenant] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
      values (${`bench-${key}-mentor`}, ${`mentor-${key}@bench.local`}, true, 'TENANT', 'Bench Mentor', false, true)
      returning id`),
  );
  await db.execute(sql`
    insert into billing_subscriptions (tenant_id, provider, subscription_id, status, quantity, price_id,
      unit_amount, currency, period_type, start_date, current_period_start, current_period_end)
    values (${tenant!.id}, 'sandbox', ${`sub_bench_${key}`}, 'ACTIVE', ${Math.max(0, seats - freeSeats)}, 'price_bench',
      90000, 'inr', 'year', ${now.toISOString()}, ${now.toISOString()},
      ${new Date(now.getTime() + 300 * 86_400_000).toISOString()})`);
  return tenant!.id;
}
