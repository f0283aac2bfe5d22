/**
 * The columns of every mentor report, defined once: the server names its CSV header and its NDJSON keys
 * with them (so the portal's Download CSV and `waymark reports` get the same file), and the portal heads
 * its tables with their titles. One style, Title Case, as the specification's headings mostly are (mentor
 * §2.3–2.5: 'Total Spent Time', 'Watch Time', 'Resource Title', the cards' 'Average Learning Time'); where
 * it names a column, its wording, spelling corrected (docs/copy-errata.json). A number with a unit says it
 * in the file's header, in parentheses: `Total Spent Time (seconds)`; the portal's table shows the time
 * itself ('1h 20m') under the bare title.
 */
import type { MessageKey } from '../i18n/keys';
import type { CsvValue } from '../rules/csv';

export interface Column {
  /** What the column is called in the file, and on screen in English. */
  title: string;
  /** What the column is called on screen: the title's message (the files keep English, decision 040). */
  key: MessageKey;
  /** The unit of its numbers, in the file's header only. */
  unit?: string;
  /** The file's header (CSV) and the NDJSON key: the title, with the unit in parentheses. */
  header: string;
}

const column = (title: string, key: MessageKey, unit?: string): Column => ({
  title,
  key,
  ...(unit ? { unit } : {}),
  header: unit ? `${title} (${unit})` : title,
});

/** A report's columns by key, in the file's order. */
export type Report = Readonly<Record<string, Column>>;

/** The header row of a report's file. */
export const headersOf = (report: Report): string[] => Object.values(report).map((c) => c.header);

/** A row of a report's file from a value for each of its columns: keyed by the headers. */
export function rowOf<R extends Report>(
  report: R,
  values: { readonly [K in keyof R]: CsvValue },
): Record<string, CsvValue> {
  const row: Record<string, CsvValue> = {};
  for (const key of Object.keys(report)) row[report[key]!.header] = values[key as keyof R];
  return row;
}

// the columns several reports share
const name = column('Name', 'column.name');
const email = column('Email', 'column.email');
const mobile = column('Mobile', 'column.mobile');
const learnerId = column('Learner ID', 'column.learnerId');
const percentage = column('Percentage', 'column.percentage');

/** Users (mentor §2.3: Name, Mobile, Email), with each seat's standing. */
export const USERS_REPORT = {
  name,
  mobile,
  email,
  status: column('Status', 'column.status'),
  addedAt: column('Added At', 'column.addedAt'),
  accessUntil: column('Access Until', 'column.accessUntil'),
  learnerId,
} as const satisfies Report;

/** The Learning Report (mentor §2.4: Name, Email, Mobile, Join At, Total Spent Day, …). */
export const LEARNING_REPORT = {
  name,
  email,
  mobile,
  joinedAt: column('Joined At', 'column.joinedAt'),
  days: column('Total Spent Days', 'column.totalSpentDays'),
  time: column('Total Spent Time', 'column.totalSpentTime', 'seconds'),
  average: column('Average Learning Time', 'column.averageLearningTime', 'seconds per learning day'),
  learnerId,
} as const satisfies Report;

/** Certificates, badges and feathers (mentor §2.4: Username, Email, Roadmap name, percentage, …). */
export const AWARDS_REPORT = {
  name,
  email,
  award: column('Award', 'column.award'),
  roadmap: column('Roadmap Name', 'column.roadmapName'),
  section: column('Section Name', 'column.sectionName'),
  resource: column('Resource Name', 'column.resourceName'),
  percentage,
  completedAt: column('Completed At', 'column.completedAt'),
  page: column('Award Page', 'column.awardPage'),
} as const satisfies Report;

/** One learner's Resource-wise Report (mentor §2.5: #, Resource Title, Watch Time). */
export const RESOURCE_REPORT = {
  number: column('#', 'column.number'),
  title: column('Resource Title', 'column.resourceTitle'),
  watchTime: column('Watch Time', 'column.watchTime', 'seconds'),
  resourceId: column('Resource ID', 'column.resourceId'),
} as const satisfies Report;

/** One learner's assessment table (mentor §2.5), with the focus record of each test. */
export const TEST_LINKS_REPORT = {
  number: column('#', 'column.number'),
  type: column('Type', 'column.type'),
  roadmap: column('Roadmap', 'column.roadmap'),
  section: column('Section', 'column.section'),
  resource: column('Resource', 'column.resource'),
  subject: column('Subject', 'column.subject'),
  score: column('Score', 'column.score'),
  percentage,
  createdAt: column('Created At', 'column.createdAt'),
  completedIn: column('Completed In', 'column.completedIn', 'seconds'),
  status: column('Status', 'column.status'),
  focus: column('Focus Record', 'column.focusRecord'),
  away: column('Time Away', 'column.timeAway', 'seconds'),
  absences: column('Absences', 'column.absences'),
  pastes: column('Pastes', 'column.pastes'),
  answers: column('Answers', 'column.answers'),
} as const satisfies Report;

/** Every report, by the name `waymark reports` and cli/README.md give it. */
export const REPORT_COLUMNS = {
  users: USERS_REPORT,
  learning: LEARNING_REPORT,
  awards: AWARDS_REPORT,
  'resource-report': RESOURCE_REPORT,
  assessments: TEST_LINKS_REPORT,
} as const;
