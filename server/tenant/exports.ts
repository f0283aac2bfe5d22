/**
 * Every mentor table as a file to take away (mentor §2.3–2.5): the users, the Learning Report, the
 * certificates, badges and feathers, and one learner's Resource-wise Report and assessment table — all the
 * rows of the filter, not a page of them. Each export is a list of columns and an async generator of rows,
 * read from the database a page at a time (keyset pagination), written as CSV (shared/rules/csv.ts: BOM,
 * quoting, formula guarding) or as NDJSON (one JSON object a line, keyed by the same column names, for
 * scripts: `waymark reports … --json`). The columns are shared/reports/columns.ts's, which the portal's
 * tables are headed with too.
 */
import {
  AWARDS_REPORT,
  headersOf,
  LEARNING_REPORT,
  RESOURCE_REPORT,
  rowOf,
  TEST_LINKS_REPORT,
  USERS_REPORT,
} from '@shared/reports/columns';
import { CSV_BOM, type CsvValue, csvLine } from '@shared/rules/csv';
import { awardPath } from '@shared/rules/test-status';
import type { TestType } from '@shared/schemas/assessment';
import { sql } from 'drizzle-orm';
import { timeByResource } from '../activity/reports';
import { integrityOfLinks } from '../assessments/integrity';
import type { LinkRow } from '../assessments/tables';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';
import { paged } from '../http/download';
import { AWARD_TYPES, learningReportRows } from './reports';

export type Row = Record<string, CsvValue>;
export interface Export {
  columns: readonly string[];
  rows: AsyncIterable<Row>;
}

type Range = { startTime: number; endTime: number } | undefined;

const PAGE = 1_000;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
const mobile = (countrycode: string | null, phone: string | null) =>
  phone ? `${countrycode ?? ''} ${phone}`.trim() : null;
const seatVisible = (tenantId: string, now: Date) =>
  sql`t.tenant_id = ${tenantId} and (t.access_until is null or t.access_until > ${now.toISOString()})`;

/** The export in a format: CSV (with its BOM and header) or NDJSON. */
export async function* serialise(e: Export, format: 'csv' | 'ndjson'): AsyncGenerator<string> {
  if (format === 'csv') yield CSV_BOM + csvLine(e.columns);
  // many rows a chunk: fewer, larger writes to the socket
  let chunk = '';
  for await (const row of e.rows) {
    chunk += format === 'csv' ? csvLine(e.columns.map((c) => row[c])) : `${JSON.stringify(row)}\n`;
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

// ---- users

export function usersExport(
  db: Db,
  tenantId: string,
  now: Date,
  filter: { searchText?: string; cohortId?: string } & Partial<{ startTime: number; endTime: number }>,
): Export {
  const like = filter.searchText && `%${filter.searchText.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const search = like ? sql`and (u.name ilike ${like} or u.email ilike ${like})` : sql``;
  const cohort = filter.cohortId
    ? sql`and exists (select 1 from cohort_members cm where cm.cohort_id = ${filter.cohortId} and cm.learner_id = t.learner_id)`
    : sql``;
  const added =
    filter.startTime !== undefined && filter.endTime !== undefined
      ? sql`and t.created_at >= ${new Date(filter.startTime * 1000).toISOString()}
            and t.created_at < ${new Date((filter.endTime + 1) * 1000).toISOString()}`
      : sql``;
  type R = {
    id: string;
    key: string;
    learner_id: string;
    name: string | null;
    email: string;
    countrycode: string | null;
    phone_number: string | null;
    is_disabled: boolean;
    created_at: Date | string;
    access_until: Date | string | null;
  };
  const rows = paged<R, { key: string; id: string }>(
    PAGE,
    async (after) =>
      rowsOf<R>(
        await db.execute(sql`
          select t.id, t.created_at::text as key, t.learner_id, u.name, u.email, u.countrycode, u.phone_number,
                 t.is_disabled, t.created_at, t.access_until
          from tenant_users t join users u on u.id = t.learner_id
          where ${seatVisible(tenantId, now)} ${search} ${cohort} ${added}
            ${after ? sql`and (t.created_at, t.id) > (${after.key}::timestamptz, ${after.id}::uuid)` : sql``}
          order by t.created_at, t.id
          limit ${PAGE}`),
      ),
    (r) => ({ key: r.key, id: r.id }),
  );
  return {
    columns: headersOf(USERS_REPORT),
    rows: (async function* () {
      for await (const r of rows) {
        yield rowOf(USERS_REPORT, {
          name: r.name,
          mobile: mobile(r.countrycode, r.phone_number),
          email: r.email,
          status: r.is_disabled ? 'Disabled' : 'Active',
          addedAt: iso(r.created_at),
          accessUntil: iso(r.access_until),
          learnerId: r.learner_id,
        });
      }
    })(),
  };
}

// ---- the Learning Report

export function learningExport(db: Db, tenantId: string, now: Date, range: Range): Export {
  const rows = paged(
    PAGE,
    (after: { createdKey: string; learnerId: string } | null) =>
      learningReportRows(db, tenantId, now, range, { after, limit: PAGE }),
    (r) => ({ createdKey: r.createdKey, learnerId: r.learnerId }),
  );
  return {
    columns: headersOf(LEARNING_REPORT),
    rows: (async function* () {
      for await (const r of rows) {
        yield rowOf(LEARNING_REPORT, {
          name: r.name,
          email: r.email,
          mobile: mobile(r.countrycode, r.phoneNumber),
          joinedAt: r.createdAt,
          days: r.TotalDayReports,
          time: r.TotalTimeSpent,
          average: r.averageTimeSpent,
          learnerId: r.learnerId,
        });
      }
    })(),
  };
}

// ---- certificates, badges and feathers

const AWARD_NAMES: Record<keyof typeof AWARD_TYPES, string> = {
  ROADMAP: 'Certificate',
  SECTION: 'Badge',
  RESOURCE: 'Feather',
};

export function awardsExport(
  db: Db,
  tenantId: string,
  now: Date,
  filter: { certificateType?: keyof typeof AWARD_TYPES } & Partial<{ startTime: number; endTime: number }>,
  publicUrl: string,
): Export {
  const kinds = filter.certificateType
    ? [filter.certificateType]
    : (['ROADMAP', 'SECTION', 'RESOURCE'] as const);
  const types = kinds.flatMap((k) => [...AWARD_TYPES[k]]);
  const within =
    filter.startTime !== undefined && filter.endTime !== undefined
      ? sql`and l.completed_at >= ${new Date(filter.startTime * 1000).toISOString()}
            and l.completed_at < ${new Date((filter.endTime + 1) * 1000).toISOString()}`
      : sql``;
  type R = {
    id: string;
    key: string;
    link_id: string;
    type: TestType;
    name: string | null;
    email: string;
    roadmap: string | null;
    section: string | null;
    resource: string | null;
    subject: string | null;
    percentage: string | number | null;
    completed_at: Date | string | null;
  };
  // newest first, as the tables show them
  const rows = paged<R, { key: string; id: string }>(
    PAGE,
    async (after) =>
      rowsOf<R>(
        await db.execute(sql`
          select l.id, l.completed_at::text as key, l.link_id, l.type, u.name, u.email,
                 l.assigned_roadmap_name as roadmap, l.assigned_section_name as section,
                 l.assigned_resource_name as resource, l.assigned_subject_name as subject,
                 l.percentage, l.completed_at
          from test_links l
          join tenant_users t on t.learner_id = l.user_id and ${seatVisible(tenantId, now)}
          join users u on u.id = l.user_id
          where l.status in ('GENERATE_CERTIFICATE', 'VIEW_CERTIFICATE') and l.completed_at is not null
            and l.type in (${sql.join(
              types.map((t) => sql`${t}`),
              sql`, `,
            )}) ${within}
            ${after ? sql`and (l.completed_at, l.id) < (${after.key}::timestamptz, ${after.id}::uuid)` : sql``}
          order by l.completed_at desc, l.id desc
          limit ${PAGE}`),
      ),
    (r) => ({ key: r.key, id: r.id }),
  );
  const awardOf = (type: TestType) =>
    type === 'SECTION'
      ? AWARD_NAMES.SECTION
      : type === 'RESOURCE'
        ? AWARD_NAMES.RESOURCE
        : AWARD_NAMES.ROADMAP;
  return {
    columns: headersOf(AWARDS_REPORT),
    rows: (async function* () {
      for await (const r of rows) {
        const path = awardPath(r.type, r.link_id);
        yield rowOf(AWARDS_REPORT, {
          name: r.name,
          email: r.email,
          award: awardOf(r.type),
          // a subject certificate names its subject where a roadmap certificate names its roadmap
          roadmap: r.roadmap ?? (r.type === 'SUBJECT' ? r.subject : null),
          section: r.section,
          resource: r.resource,
          percentage: r.percentage === null ? null : Math.ceil(Number(r.percentage)),
          completedAt: iso(r.completed_at),
          page: path ? `${publicUrl}${path}` : null,
        });
      }
    })(),
  };
}

// ---- one learner: the Resource-wise Report and the assessment table

export function resourceReportExport(
  db: Db,
  userId: string,
  range: { startTime: number; endTime: number },
): Export {
  return {
    columns: headersOf(RESOURCE_REPORT),
    rows: (async function* () {
      // one learner's resources are a few hundred at most: one read
      const all = await timeByResource(db, userId, { ...range, skip: 1, limit: 100_000 });
      let i = 0;
      for (const r of all.timeSpentOnResource) {
        yield rowOf(RESOURCE_REPORT, {
          number: ++i,
          title: r.resource.userTitle,
          watchTime: r.timespent,
          resourceId: r.resource._id,
        });
      }
    })(),
  };
}

const STATUS_WORDS: Record<string, string> = {
  TAKE_TEST: 'Take Test',
  EXPIRED: 'Expired',
  NO_ENOUGH_MARKS: 'No Enough Marks',
  GENERATE_CERTIFICATE: 'Not Generated Yet',
  VIEW_CERTIFICATE: 'View Certificate',
};
const TIER_WORDS = { NONE: 'None', SOME: 'Some', NOTABLE: 'Notable' } as const;

export function testLinksExport(
  db: Db,
  links: LinkRow[],
  now: Date,
  answersUrl: (linkId: string) => string,
): Export {
  return {
    columns: headersOf(TEST_LINKS_REPORT),
    rows: (async function* () {
      const records = await integrityOfLinks(db, links, now);
      let i = 0;
      for (const l of links) {
        const focus = records.get(l.id)?.summary;
        yield rowOf(TEST_LINKS_REPORT, {
          number: ++i,
          type: l.type,
          roadmap: l.assignedRoadMapName,
          section: l.assignedSectionName,
          resource: l.assignedResourceName,
          subject: l.assignedSubjectName,
          score: l.isCompleted && l.score !== null ? Number(l.score) : null,
          percentage: l.isCompleted && l.percentage !== null ? Math.ceil(Number(l.percentage)) : null,
          createdAt: iso(l.createdAt),
          completedIn: l.isCompleted ? l.completedIn : null,
          status: STATUS_WORDS[l.status] ?? l.status,
          focus: focus ? TIER_WORDS[focus.tier] : null,
          away: focus?.awaySeconds ?? null,
          absences: focus?.absences ?? null,
          pastes: focus?.pastes ?? null,
          answers: l.isCompleted ? answersUrl(l.linkId) : null,
        });
      }
    })(),
  };
}
