/**
 * The reports' columns are named in one style, and where the specification names a column (mentor
 * §2.3–2.5), with its words, spelling corrected as docs/copy-errata.json records.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AWARDS_REPORT,
  headersOf,
  LEARNING_REPORT,
  REPORT_COLUMNS,
  RESOURCE_REPORT,
  type Report,
  rowOf,
  TEST_LINKS_REPORT,
  USERS_REPORT,
} from './columns';

const errata = JSON.parse(
  readFileSync(new URL('../../docs/copy-errata.json', import.meta.url), 'utf8'),
) as Record<string, string>;
const corrected = (words: string) => errata[words] ?? words;

describe('the reports’ columns', () => {
  it('take the specification’s words where it names the column, corrected as the errata say', () => {
    // mentor §2.3 Users table: Name, Mobile, email
    const users = [USERS_REPORT.name, USERS_REPORT.mobile, USERS_REPORT.email].map((c) => c.title);
    expect(users).toEqual(['Name', 'Mobile', 'email'].map(corrected));
    // mentor §2.4 Learning Report table
    const { name, email, mobile, joinedAt, days, time, average } = LEARNING_REPORT;
    expect([name, email, mobile, joinedAt, days, time, average].map((c) => c.title)).toEqual(
      [
        'Name',
        'Email',
        'Mobile',
        'Join At',
        'Total Spent Day',
        'Total Spent Time',
        'Average learning Time',
      ].map(corrected),
    );
    // mentor §2.4 Certificates, Badges (Section name), Resources (Resource name)
    const a = AWARDS_REPORT;
    expect([a.name, a.email, a.roadmap, a.section, a.resource, a.percentage].map((c) => c.title)).toEqual(
      ['Username', 'Email', 'Roadmap name', 'Section name', 'Resource name', 'percentage'].map(corrected),
    );
    // mentor §2.5 Resource-wise Report; learner's assessment table (Created At, Completed in)
    expect(
      [RESOURCE_REPORT.number, RESOURCE_REPORT.title, RESOURCE_REPORT.watchTime].map((c) => c.title),
    ).toEqual(['#', 'Resource Title', 'Watch Time'].map(corrected));
    const t = TEST_LINKS_REPORT;
    expect([t.subject, t.score, t.createdAt, t.completedIn, t.status].map((c) => c.title)).toEqual(
      ['Subject', 'Score', 'Created At', 'Completed in', 'Status'].map(corrected),
    );
  });

  it.each(Object.entries(REPORT_COLUMNS))(
    '%s: Title Case, units in parentheses, every header once',
    (_, report: Report) => {
      for (const c of Object.values(report)) {
        // every word capitalised (an abbreviation all in capitals); '#' numbers the rows
        for (const word of c.title.split(' ')) expect(word, c.title).toMatch(/^(#|[A-Z][A-Za-z]*)$/);
        if (c.unit) {
          expect(c.unit, c.title).toMatch(/^[a-z ]+$/);
          expect(c.header).toBe(`${c.title} (${c.unit})`);
        } else expect(c.header).toBe(c.title);
      }
      const headers = headersOf(report);
      expect(new Set(headers).size).toBe(headers.length);
    },
  );

  it('keys a row by the headers, in the order of the file', () => {
    const row = rowOf(RESOURCE_REPORT, { number: 1, title: 'Closures', watchTime: 90, resourceId: 'r1' });
    expect(Object.keys(row)).toEqual(headersOf(RESOURCE_REPORT));
    expect(row).toEqual({
      '#': 1,
      'Resource Title': 'Closures',
      'Watch Time (seconds)': 90,
      'Resource ID': 'r1',
    });
  });
});
