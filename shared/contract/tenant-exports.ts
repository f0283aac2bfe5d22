/**
 * Every table of the mentor / organisation side as a file to take away (mentor §7 "Tenant portal"): the
 * users, the Learning Report, the awards, and one learner's resources and assessments, in CSV or NDJSON.
 * Served by server/tenant/routes.ts beside ./tenant.ts, and published under its group (`tenant.*`).
 */
import { z } from 'zod';
import {
  AWARDS_REPORT,
  headersOf,
  LEARNING_REPORT,
  RESOURCE_REPORT,
  type Report,
  TEST_LINKS_REPORT,
  USERS_REPORT,
} from '../reports/columns';
import { errors, Id } from '../schemas/common';
import { FileBody } from '../schemas/file';
import { OptionalReportRange, ReportRange } from '../schemas/report-range';
import { defineCall, defineRouter } from './define';
import { CERTIFICATE_TYPES } from './tenant';

const TENANT = ['TENANT'] as const;
const userParam = z.object({ userId: Id });

/** CSV (UTF-8 with a BOM, for spreadsheets) or NDJSON (one object a line, for scripts). */
export const REPORT_FORMATS = ['csv', 'ndjson'] as const;
const ReportFormat = z.object({
  format: z.enum(REPORT_FORMATS, { error: 'must be csv or ndjson' }).default('csv'),
});
const reportFile = {
  download: { contentTypes: ['text/csv', 'application/x-ndjson'] },
  responses: { 200: FileBody, ...errors },
} as const;
/** A report's columns as the summary names them: its file's header row. */
const columnsNote = (report: Report) => `columns: ${headersOf(report).join(', ')}`;
const fileNote =
  ' All the rows, streamed: CSV is UTF-8 with a byte-order mark, RFC 4180 quoting, and text cells starting with = + - @ prefixed with an apostrophe so a spreadsheet never runs them; NDJSON has one object a line keyed by the same column names.';

export const tenantExportUsers = defineCall({
  method: 'GET',
  path: '/tenant/export/users',
  summary: `The users table as a file (${columnsNote(USERS_REPORT)}): every seat matching searchText, of the cohort cohortId, and added between startTime and endTime, when given.${fileNote}`,
  tags: ['tenant', 'reports'],
  access: TENANT,
  scopes: ['reports:read'],
  query: OptionalReportRange.safeExtend({
    searchText: z.string().trim().max(100).optional(),
    cohortId: Id.optional().describe("Only the members of this cohort (one of the tenant's)"),
  }).safeExtend(ReportFormat.shape),
  ...reportFile,
});

export const tenantExportLearningReport = defineCall({
  method: 'GET',
  path: '/tenant/export/learning-report',
  summary: `The Learning Report as a file (${columnsNote(LEARNING_REPORT)}), over all time or startTime..endTime.${fileNote}`,
  tags: ['tenant', 'reports'],
  access: TENANT,
  scopes: ['reports:read'],
  query: OptionalReportRange.safeExtend(ReportFormat.shape),
  ...reportFile,
});

export const tenantExportAwards = defineCall({
  method: 'GET',
  path: '/tenant/export/awards',
  summary: `The certificates (certificateType ROADMAP), badges (SECTION) and feathers (RESOURCE) — all three when certificateType is left out — as a file (${columnsNote(AWARDS_REPORT)}), newest first, completed between startTime and endTime when given.${fileNote}`,
  tags: ['tenant', 'reports'],
  access: TENANT,
  scopes: ['reports:read'],
  query: OptionalReportRange.safeExtend({
    certificateType: z.enum(CERTIFICATE_TYPES, { error: 'must be ROADMAP, SECTION or RESOURCE' }).optional(),
  }).safeExtend(ReportFormat.shape),
  ...reportFile,
});

export const tenantExportResourceReport = defineCall({
  method: 'GET',
  path: '/tenant/export/resource-report/{userId}',
  summary: `One learner's Resource-wise Report over startTime..endTime as a file (${columnsNote(RESOURCE_REPORT)}): every resource, not a page.${fileNote}`,
  tags: ['tenant', 'reports'],
  access: TENANT,
  scopes: ['reports:read'],
  params: userParam,
  query: ReportRange.safeExtend(ReportFormat.shape),
  ...reportFile,
});

export const tenantExportTestlinks = defineCall({
  method: 'GET',
  path: '/tenant/export/testlinks/{userId}',
  summary: `One learner's assessment table as a file (${columnsNote(TEST_LINKS_REPORT)}): the tests created between startTime and endTime (or all of one assigned roadmap's), with score, status and the focus record's tier and figures.${fileNote}`,
  tags: ['tenant', 'reports'],
  access: TENANT,
  scopes: ['reports:read'],
  params: userParam,
  query: OptionalReportRange.safeExtend({ assignedRoadmapId: Id.optional() }).safeExtend(ReportFormat.shape),
  ...reportFile,
});

/** The exports' calls, served by server/tenant/routes.ts. */
export const tenantExportsRouter = defineRouter({
  tenantExportUsers,
  tenantExportLearningReport,
  tenantExportAwards,
  tenantExportResourceReport,
  tenantExportTestlinks,
});
