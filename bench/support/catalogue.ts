/**
 * A bench catalogue and its learners, made with bulk SQL (the learning-time benches): `roadmaps` roadmaps of
 * `sections` sections of `perSection` resources each, numbered in tables the benches join on —
 * bench_roadmaps, bench_sections and bench_resources (idx, id; a resource's address is
 * https://bench.example/r/{idx}) — and `learners` users in bench_users (idx, id).
 */
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../server/db/helpers';

type Exec = (q: SQL) => Promise<unknown>;

export async function benchCatalogue(
  exec: Exec,
  o: { roadmaps: number; sections: number; perSection: number },
) {
  await exec(sql`insert into languages (name) values ('Bench') on conflict do nothing`);
  await exec(sql`insert into subjects (name) values ('Bench') on conflict do nothing`);
  await exec(sql`
    create table bench_roadmaps as
    select i as idx, gen_random_uuid() as id from generate_series(0, ${o.roadmaps - 1}) i`);
  await exec(sql`
    insert into roadmaps (id, name, description, language_id, subject_id)
    select b.id, 'Bench roadmap ' || b.idx, 'Benchmark roadmap',
           (select id from languages where name = 'Bench'), (select id from subjects where name = 'Bench')
    from bench_roadmaps b`);
  await exec(sql`
    create table bench_sections as
    select r.idx * ${o.sections} + s as idx, r.id as roadmap_id, s as position, gen_random_uuid() as id
    from bench_roadmaps r cross join generate_series(0, ${o.sections - 1}) s`);
  await exec(sql`
    insert into sections (id, roadmap_id, name, position)
    select id, roadmap_id, 'Section ' || position, position from bench_sections`);
  await exec(sql`
    create table bench_resources as
    select s.idx * ${o.perSection} + k as idx, s.id as section_id, k as position, gen_random_uuid() as id
    from bench_sections s cross join generate_series(0, ${o.perSection - 1}) k`);
  await exec(sql`
    insert into resources (id, actual_title, type, url, short_id)
    select id, 'Bench resource ' || idx, 'READ', 'https://bench.example/r/' || idx, 'bench' || idx
    from bench_resources`);
  await exec(sql`
    insert into section_resources (section_id, resource_id, position)
    select section_id, id, position from bench_resources`);
}

export async function benchLearners(exec: Exec, learners: number) {
  await exec(sql`
    create table bench_users as
    select i as idx, gen_random_uuid() as id from generate_series(0, ${learners - 1}) i`);
  await exec(sql`
    insert into users (id, firebase_uid, email, role, name, is_first_login, is_profile_completed)
    select id, 'bench-' || idx, 'bench' || idx || '@bench.local', 'USER', 'Bench learner ' || idx, false, true
    from bench_users`);
}

/** A mentor (TENANT) with the first `seats` bench learners as seats (added a second apart); its id. */
export async function benchMentor(exec: Exec, seats: number): Promise<string> {
  const id = rowsOf<{ id: string }>(
    await exec(sql`
      insert into users (firebase_uid, email, role, name, is_first_login, is_profile_completed)
      values ('bench-mentor', 'mentor@bench.local', 'TENANT', 'Bench mentor', false, true) returning id`),
  )[0]!.id;
  await exec(sql`
    insert into tenant_users (tenant_id, learner_id, created_at)
    select ${id}, id, now() - (idx || ' seconds')::interval from bench_users where idx < ${seats}`);
  await exec(sql`analyze tenant_users`);
  return id;
}
