import type { TestLink } from '@shared/schemas/assessment';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TestLinksTable } from './TestLinksTable';

afterEach(() => cleanup());

const HOUR = 3600_000;
const NOW = Date.parse('2026-03-10T12:00:00Z');
let n = 0;

function link(over: Partial<TestLink> = {}): TestLink {
  n += 1;
  return {
    _id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    linkId: `link-${String(n).padStart(8, '0')}`,
    type: 'RESOURCE',
    subject: { _id: '00000000-0000-4000-8000-00000000aaaa', name: 'JavaScript' },
    testId: null,
    isCompleted: false,
    percentage: null,
    score: null,
    createdAt: '2026-03-03T16:05:00Z',
    completedIn: null,
    status: 'TAKE_TEST',
    startTime: null,
    duration: null,
    userId: '00000000-0000-4000-8000-00000000bbbb',
    certificateGenerated: false,
    assignedSectionName: 'Basics',
    assignedRoadMapName: 'JavaScript Foundations',
    assignedResourceName: 'Closures',
    assignedSubjectName: null,
    questionCount: 5,
    assignedRoadmapId: null,
    sectionId: null,
    resourceId: null,
    integrity: null,
    attempt: null,
    retakeAt: null,
    ...over,
  };
}

/** The cells of the only row, by column name. */
function rowOf(l: TestLink, props: Partial<Parameters<typeof TestLinksTable>[0]> = {}) {
  render(<TestLinksTable links={[l]} now={NOW} {...props} />);
  const table = screen.getByRole('table');
  const headers = within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);
  const cells = [...within(table).getAllByRole('row')[1]!.children] as HTMLElement[];
  return Object.fromEntries(headers.map((h, i) => [h, cells[i]!])) as Record<string, HTMLElement>;
}

describe('the assessment links table', () => {
  it('has the columns #, Subject, Score, Created At, Completed In, Status, Action', () => {
    render(<TestLinksTable links={[link()]} now={NOW} />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '#',
      'Subject',
      'Score',
      'Created At',
      'Completed In',
      'Status',
      'Action',
    ]);
  });

  it('names what was assessed: resource, section, roadmap, subject or custom test', () => {
    expect(rowOf(link()).Subject!.textContent).toContain('Closures');
    cleanup();
    expect(rowOf(link({ type: 'SECTION' })).Subject!.textContent).toMatch(/^Basics/);
    cleanup();
    expect(rowOf(link({ type: 'ROADMAP' })).Subject!.textContent).toMatch(/^JavaScript Foundations/);
    cleanup();
    expect(
      rowOf(
        link({
          type: 'SUBJECT',
          assignedSubjectName: 'JavaScript',
          assignedRoadMapName: null,
          assignedSectionName: null,
          assignedResourceName: null,
        }),
      ).Subject!.textContent,
    ).toMatch(/^JavaScript/);
    cleanup();
    expect(
      rowOf(link({ type: 'CUSTOM-TEST', testId: { _id: link()._id, name: 'Week 3 quiz' } })).Subject!
        .textContent,
    ).toMatch(/^Week 3 quiz/);
  });

  it('numbers the attempt once started, for the learner and the mentor alike', () => {
    expect(rowOf(link({ attempt: 2, type: 'SECTION' })).Subject!.textContent).toContain(
      'Section · JavaScript Foundations · Attempt 2',
    );
    cleanup();
    expect(rowOf(link({ attempt: null })).Subject!.textContent).not.toContain('Attempt');
  });

  it('says when a failed test can be taken again while its cool-down lasts', () => {
    const failed = {
      isCompleted: true,
      status: 'NO_ENOUGH_MARKS' as const,
      percentage: 20,
      score: 10,
    };
    const soon = new Date(NOW + 5 * HOUR).toISOString();
    const status = rowOf(link({ ...failed, retakeAt: soon })).Status!;
    expect(status.textContent).toMatch(/^No Enough Marks/);
    expect(status.textContent).toMatch(/Retake from 10th Mar 2026 \d\d:\d\d (am|pm): Closures$/);
    cleanup();
    // once the time has come, only the status
    const past = new Date(NOW - HOUR).toISOString();
    expect(rowOf(link({ ...failed, retakeAt: past })).Status!.textContent).toBe('No Enough Marks');
  });

  it('shows dates as Do MMM YYYY hh:mm a and the time taken with its two largest units', () => {
    const cells = rowOf(
      link({
        isCompleted: true,
        status: 'NO_ENOUGH_MARKS',
        completedIn: 3 * 3600 + 5 * 60 + 9,
        percentage: 10,
      }),
    );
    expect(cells['Created At']!.textContent).toMatch(/^3rd Mar 2026 \d\d:\d\d (am|pm)$/);
    expect(cells['Completed In']!.textContent).toBe('3h 5m');
    cleanup();
    expect(rowOf(link())['Completed In']!.textContent).toBe('-');
  });

  describe('score', () => {
    it('is the percentage rounded up when it exists', () => {
      expect(
        rowOf(link({ isCompleted: true, status: 'NO_ENOUGH_MARKS', percentage: 46.67, score: 23.33 })).Score!
          .textContent,
      ).toBe('47%');
    });
    it('is the raw score without a percentage', () => {
      expect(
        rowOf(link({ isCompleted: true, status: 'NO_ENOUGH_MARKS', percentage: null, score: 7 })).Score!
          .textContent,
      ).toBe('7');
    });
    it('is not shown before the test is completed', () => {
      expect(rowOf(link({ isCompleted: false, percentage: 80, score: 40 })).Score!.textContent).toBe('-');
    });
  });

  describe('status', () => {
    it("TAKE_TEST: 'Take Test' opens the test in a new tab", () => {
      const l = link();
      const status = rowOf(l).Status!;
      const a = within(status).getByRole('link', { name: /^Take Test/ });
      expect(a.getAttribute('href')).toBe(`/test/${l.linkId}`);
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toContain('noopener');
    });

    it("TAKE_TEST for a viewer who may not take it (a mentor): 'Take Test' as a status, no link", () => {
      const status = rowOf(link(), { canTakeTest: false }).Status!;
      expect(status.textContent).toBe('Take Test');
      expect(within(status).queryByRole('link')).toBeNull();
    });

    it("EXPIRED: 'Expired'; NO_ENOUGH_MARKS: 'No Enough Marks'", () => {
      expect(rowOf(link({ status: 'EXPIRED' })).Status!.textContent).toBe('Expired');
      cleanup();
      expect(rowOf(link({ status: 'NO_ENOUGH_MARKS', isCompleted: true })).Status!.textContent).toBe(
        'No Enough Marks',
      );
    });

    it("GENERATE_CERTIFICATE: 'Not Generated Yet', or '-' for a resource-from-whatsapp test", () => {
      const cells = rowOf(link({ status: 'GENERATE_CERTIFICATE', isCompleted: true }));
      expect(cells.Status!.textContent).toBe('Not Generated Yet');
      expect(within(cells.Status!).queryByRole('link')).toBeNull();
      cleanup();
      expect(
        rowOf(link({ type: 'RESOURCE-FROM-WHATSAPP', status: 'GENERATE_CERTIFICATE', isCompleted: true }))
          .Status!.textContent,
      ).toBe('-');
    });

    it('VIEW_CERTIFICATE links to the feather, badge or certificate by type, and to nothing for whatsapp tests', () => {
      const cases = [
        ['RESOURCE', /^View Feather/, 'feather'],
        ['SECTION', /^View Badge/, 'badge'],
        ['ROADMAP', /^View Certificate/, 'certificate'],
        ['SUBJECT', /^View Certificate/, 'certificate'],
      ] as const;
      for (const [type, name, path] of cases) {
        const l = link({ type, status: 'VIEW_CERTIFICATE', isCompleted: true, percentage: 80 });
        const a = within(rowOf(l).Status!).getByRole('link', { name });
        expect(a.getAttribute('href')).toBe(`/${path}/${l.linkId}`);
        cleanup();
      }
      const status = rowOf(
        link({ type: 'RESOURCE-FROM-WHATSAPP', status: 'VIEW_CERTIFICATE', isCompleted: true }),
      ).Status!;
      expect(within(status).queryByRole('link')).toBeNull();
      expect(status.textContent).toBe('-');
    });
  });

  describe('custom test window', () => {
    const custom = (startOffsetHours: number, duration = 2) =>
      link({
        type: 'CUSTOM-TEST',
        startTime: new Date(NOW + startOffsetHours * HOUR).toISOString(),
        duration,
      });

    it("code 0: 'Take Test' while now is between start and start plus duration", () => {
      const status = rowOf(custom(-1)).Status!;
      expect(within(status).getByRole('link', { name: /^Take Test/ })).toBeTruthy();
    });

    it("code 1: 'Assessment will Start at {date time}' before the start, without a link", () => {
      const status = rowOf(custom(3)).Status!;
      expect(status.textContent).toMatch(/^Assessment will Start at 10th Mar 2026 \d\d:\d\d (am|pm)$/);
      expect(within(status).queryByRole('link')).toBeNull();
    });

    it("code -1: 'Link has expired' after start plus duration, without a link", () => {
      const status = rowOf(custom(-5, 2)).Status!;
      expect(status.textContent).toBe('Link has expired');
      expect(within(status).queryByRole('link')).toBeNull();
    });
  });

  describe("'View Answers'", () => {
    it('is offered for VIEW_CERTIFICATE, NO_ENOUGH_MARKS and GENERATE_CERTIFICATE, to /assesments/{linkId}/view', () => {
      for (const status of ['VIEW_CERTIFICATE', 'NO_ENOUGH_MARKS', 'GENERATE_CERTIFICATE'] as const) {
        const l = link({ status, isCompleted: true, percentage: 50 });
        const a = within(rowOf(l).Action!).getByRole('link', { name: /^View Answers/ });
        expect(a.getAttribute('href')).toBe(`/assesments/${l.linkId}/view`);
        cleanup();
      }
    });

    it('is not offered for TAKE_TEST and EXPIRED', () => {
      for (const status of ['TAKE_TEST', 'EXPIRED'] as const) {
        expect(within(rowOf(link({ status })).Action!).queryByRole('link')).toBeNull();
        cleanup();
      }
    });

    it("goes where the host says: a tenant's view of one learner", () => {
      const l = link({ status: 'NO_ENOUGH_MARKS', isCompleted: true, percentage: 20 });
      const a = within(
        rowOf(l, { viewAnswersHref: (x) => `/portal/users/${x.userId}/testlink/${x.linkId}` }).Action!,
      ).getByRole('link', { name: /^View Answers/ });
      expect(a.getAttribute('href')).toBe(`/portal/users/${l.userId}/testlink/${l.linkId}`);
    });
  });

  it('numbers the rows across pages', () => {
    const links = Array.from({ length: 12 }, () => link());
    render(<TestLinksTable links={links} now={NOW} pageSize={5} />);
    expect(screen.getAllByRole('row')).toHaveLength(6);
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.firstElementChild?.textContent)).toEqual(['11', '12']);
  });
});
