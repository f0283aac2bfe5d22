/**
 * Figures over all of a tenant's learners (mentor §2.3, §2.4, §3): the statistics cards, the certificate,
 * badge and feather tables, and the Learning Report. Learning time is read from the sums of the learner's
 * dashboard's rollups (activity_daily), kept by its triggers per learner and day (activity_user_days) and
 * per learner (activity_learning_totals; decision 049); awards from the same test links as the learner's tables. A seat
 * counts while it is readable (a disabled seat until the end of its billing cycle).
 */

import { isoDayOf } from '@shared/rules/learning-days';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';

/** Test statuses that mean an award was earned (mentor §4: GENERATE_CERTIFICATE or VIEW_CERTIFICATE). */
const EARNED = sql`('GENERATE_CERTIFICATE', 'VIEW_CERTIFICATE')`;

/** Which test types each table (certificateType) lists. */
export const AWARD_TYPES = {
  ROADMAP: ['ROADMAP', 'SUBJECT'],
  SECTION: ['SECTION'],
  RESOURCE: ['RESOURCE'],
} as const;

const seats = (tenantId: string, now: Date) => sql`
  select learner_id, created_at from tenant_users
  where tenant_id = ${tenantId} and (access_until is null or access_until > ${now.toISOString()})`;

const n = (v: unknown) => Number(v ?? 0);

export async function tenantStats(db: Db, tenantId: string, now: Date) {
  const [row] = rowsOf<Record<string, string | number | null>>(
    await db.execute(sql`
      with s as (${seats(tenantId, now)}),
      -- each seat's rows looked up by its index (a lateral subquery kept apart by \`offset 0\`), never a scan
      -- of every learner's: the cost follows the seats, not the platform
      l as (
        select t.type, t.status, t.is_completed from s, lateral (
          select type, status, is_completed from test_links
          where user_id = s.learner_id and type <> 'INITIAL-ASSESSMENT' offset 0) t
      ),
      d as (
        select coalesce(sum(t.ms), 0) as ms, coalesce(sum(t.days), 0) as days
        from s, lateral (select ms, days from activity_learning_totals where user_id = s.learner_id offset 0) t
      )
      select
        (select count(*) from s) as users,
        (select count(*) from l) as links,
        (select count(*) from l where is_completed) as completed,
        (select count(*) from l where status in ${EARNED} and type in ('ROADMAP', 'SUBJECT')) as certificates,
        (select count(*) from l where status in ${EARNED} and type = 'SECTION') as badges,
        (select count(*) from l where status in ${EARNED} and type = 'RESOURCE') as feathers,
        (select ms from d) as ms,
        (select days from d) as days`),
  );
  const days = n(row?.days);
  return {
    totalUserCount: n(row?.users),
    totalTestLink: n(row?.links),
    totalTestLinkCompleted: n(row?.completed),
    totalCertificateGenerated: n(row?.certificates),
    totalBadgeGenerated: n(row?.badges),
    totalFeatherGenerated: n(row?.feathers),
    totalUserAverageLearningTime: days ? Math.round(n(row?.ms) / 1000 / days) : 0,
  };
}

export async function awardsByType(
  db: Db,
  tenantId: string,
  certificateType: keyof typeof AWARD_TYPES,
  now: Date,
) {
  const types = AWARD_TYPES[certificateType];
  const rows = rowsOf<{
    user_id: string;
    name: string | null;
    email: string;
    link_id: string;
    type: string;
    roadmap: string | null;
    section: string | null;
    resource: string | null;
    subject: string | null;
    percentage: string | number | null;
    generated: boolean;
    completed_at: Date | string | null;
  }>(
    await db.execute(sql`
      select u.id as user_id, u.name, u.email, t.link_id, t.type,
             t.assigned_roadmap_name as roadmap, t.assigned_section_name as section,
             t.assigned_resource_name as resource, t.assigned_subject_name as subject,
             t.percentage, t.certificate_generated as generated, t.completed_at
      from (${seats(tenantId, now)}) s
      cross join lateral (
        select * from test_links
        where user_id = s.learner_id and status in ${EARNED} and type in (${sql.join(
          types.map((t) => sql`${t}`),
          sql`, `,
        )})
        offset 0) t
      join users u on u.id = t.user_id
      order by t.completed_at desc nulls last, t.id`),
  );
  return rows.map((r) => ({
    userId: r.user_id,
    name: r.name,
    email: r.email,
    testlinks: {
      // a subject certificate names its subject where a roadmap certificate names its roadmap
      assignedRoadMapName: r.roadmap ?? (r.type === 'SUBJECT' ? r.subject : null),
      assignedSectionName: r.section,
      assignedResourceName: r.resource,
      percentage: r.percentage === null ? null : Number(r.percentage),
      linkId: r.link_id,
      type: r.type,
      certificateGenerated: r.generated,
      completedAt: r.completed_at ? new Date(r.completed_at).toISOString() : null,
    },
  }));
}

export interface LearningRow {
  name: string | null;
  email: string;
  countrycode: string | null;
  phoneNumber: string | null;
  createdAt: string;
  TotalDayReports: number;
  TotalTimeSpent: number;
  averageTimeSpent: number;
  /** The learner's user id and the seat's creation to the microsecond: the report's order (keyset cursor). */
  learnerId: string;
  createdKey: string;
}

/**
 * The Learning Report, in seat order (when added, then learner id): all of it, or `page.limit` rows after
 * `page.after` — the export reads it a page at a time, aggregating only that page's learners.
 */
export async function learningReportRows(
  db: Db,
  tenantId: string,
  now: Date,
  range?: { startTime: number; endTime: number },
  page?: { after: { createdKey: string; learnerId: string } | null; limit: number },
): Promise<LearningRow[]> {
  const within = range
    ? sql`and a.day between ${isoDayOf(range.startTime * 1000)} and ${isoDayOf(range.endTime * 1000)}`
    : sql``;
  const after = page?.after
    ? sql`and (created_at, learner_id) > (${page.after.createdKey}::timestamptz, ${page.after.learnerId}::uuid)`
    : sql``;
  const limit = page ? sql`order by created_at, learner_id limit ${page.limit}` : sql``;
  const rows = rowsOf<{
    learner_id: string;
    name: string | null;
    email: string;
    countrycode: string | null;
    phone_number: string | null;
    created_at: Date | string;
    created_key: string;
    days: string | number;
    ms: string | number;
  }>(
    await db.execute(sql`
      with s as (
        select learner_id, created_at from tenant_users
        where tenant_id = ${tenantId} and (access_until is null or access_until > ${now.toISOString()}) ${after}
        ${limit}
      ),
      d as (
        select s.learner_id as user_id, a.day, a.ms from s, lateral (
          select day, ms from activity_user_days a where a.user_id = s.learner_id and a.ms > 0 ${within} offset 0) a
      )
      select u.id as learner_id, u.name, u.email, u.countrycode, u.phone_number, s.created_at,
             s.created_at::text as created_key, count(d.day) as days, coalesce(sum(d.ms), 0) as ms
      from s join users u on u.id = s.learner_id
      left join d on d.user_id = s.learner_id
      group by u.id, s.created_at
      order by s.created_at, u.id`),
  );
  return rows.map((r) => {
    const days = n(r.days);
    const seconds = Math.round(n(r.ms) / 1000);
    return {
      name: r.name,
      email: r.email,
      countrycode: r.countrycode,
      phoneNumber: r.phone_number,
      createdAt: new Date(r.created_at).toISOString(),
      TotalDayReports: days,
      TotalTimeSpent: seconds,
      averageTimeSpent: days ? Math.round(seconds / days) : 0,
      learnerId: r.learner_id,
      createdKey: r.created_key,
    };
  });
}

export async function learningReport(
  db: Db,
  tenantId: string,
  now: Date,
  range?: { startTime: number; endTime: number },
) {
  return (await learningReportRows(db, tenantId, now, range)).map(
    ({ learnerId: _id, createdKey: _key, ...row }) => row,
  );
}

/** Awards the learner earned in the range, by level (user-achievements). */
export async function achievements(db: Db, userId: string, range: { startTime: number; endTime: number }) {
  const rows = rowsOf<{ kind: 'RESOURCE' | 'SECTION' | 'ROADMAP'; count: string | number }>(
    await db.execute(sql`
      select case when type in ('ROADMAP', 'SUBJECT') then 'ROADMAP' else type end as kind, count(*) as count
      from test_links
      where user_id = ${userId} and status in ${EARNED} and type in ('RESOURCE', 'SECTION', 'ROADMAP', 'SUBJECT')
        and completed_at >= ${new Date(range.startTime * 1000).toISOString()}
        and completed_at < ${new Date((range.endTime + 1) * 1000).toISOString()}
      group by 1`),
  );
  const by = new Map(rows.map((r) => [r.kind, n(r.count)]));
  return (['RESOURCE', 'SECTION', 'ROADMAP'] as const).map((kind) => ({
    _id: kind,
    count: by.get(kind) ?? 0,
  }));
}
