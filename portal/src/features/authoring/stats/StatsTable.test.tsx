import type { QuestionStatsRow } from '@shared/contract/analysis';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { StatsTable } from './StatsTable';

type Row = z.infer<typeof QuestionStatsRow>;
const figures = (over: Partial<Row['figures']> = {}): Row['figures'] => ({
  attempts: 40,
  facility: 0.5,
  discrimination: 0.4,
  discriminationNote: null,
  averageSeconds: 30,
  timedAttempts: 40,
  options: null,
  smallSample: false,
  flags: [],
  ...over,
});
const row = (n: number, question: string, over: Partial<Row['figures']> = {}): Row => ({
  questionId: `00000000-0000-4000-8000-00000000000${n}`,
  question,
  questionType: 'MCQ',
  position: n,
  figures: figures(over),
});
const ROWS = [
  row(1, 'Plain question', { facility: 0.61 }),
  row(2, 'Easy question', {
    facility: 0.95,
    flags: [{ code: 'TOO_EASY', label: 'Too easy', rule: 'Facility above 0.90.', detail: 'Facility 0.95.' }],
  }),
  row(3, 'Miskeyed question', {
    facility: 0.2,
    options: [
      { option: 'a', label: 'Alpha', isKey: true, share: 0.2, upper: 0.1, lower: 0.3 },
      { option: 'b', label: 'Beta', isKey: false, share: 0.7, upper: 0.85, lower: 0.5 },
      { option: 'none', label: 'No answer', isKey: false, share: 0.1, upper: 0.05, lower: 0.2 },
    ],
    flags: [
      {
        code: 'LIKELY_MISKEYED',
        label: 'Likely miskeyed',
        rule: 'A correct option chosen less often than a wrong one by the upper 27 % of takers.',
        detail: 'The upper group chose “Beta” (85 %) more than the key “Alpha” (10 %).',
      },
    ],
  }),
  row(4, 'New question', { attempts: 3, smallSample: true }),
];
afterEach(cleanup);

/** The questions in the table's order (its own rows, not those of the option tables inside them). */
const order = () =>
  [...screen.getByRole('table', { name: 'Statistics' }).querySelectorAll(':scope > tbody > tr')].map(
    (r) => r.querySelector('summary span')?.textContent,
  );

describe('the question table of item analysis', () => {
  it('lists the questions to fix first — a likely miskeyed one before a weak one — and says why', () => {
    render(<StatsTable rows={ROWS} caption="Statistics" />);
    expect(order()).toEqual(['Miskeyed question', 'Easy question', 'Plain question', 'New question']);
    expect(screen.getByText('Small sample (3 of 30 attempts): no flags yet')).toBeTruthy();
    const miskeyed = screen.getByText('Miskeyed question').closest('details')!;
    fireEvent.click(within(miskeyed).getByText('Miskeyed question'));
    expect(miskeyed.textContent).toContain(
      'Rule: A correct option chosen less often than a wrong one by the upper 27 % of takers.',
    );
    const options = within(miskeyed).getByRole('table', { name: 'How its options were chosen' });
    expect(within(options).getByRole('rowheader', { name: /Alpha/ }).textContent).toContain('Correct');
    expect(options.textContent).toContain('85 %');
  });

  it('sorts by any column from its header button, and says the order', () => {
    render(<StatsTable rows={ROWS} caption="Statistics" />);
    const facility = screen.getByRole('button', { name: 'Facility' });
    fireEvent.click(facility);
    expect(facility.closest('th')!.getAttribute('aria-sort')).toBe('ascending');
    expect(order()).toEqual(['Miskeyed question', 'New question', 'Plain question', 'Easy question']);
    fireEvent.click(facility);
    expect(facility.closest('th')!.getAttribute('aria-sort')).toBe('descending');
    expect(order()[0]).toBe('Easy question');
    expect(screen.getByRole('button', { name: 'Flags' }).closest('th')!.getAttribute('aria-sort')).toBe(
      'none',
    );
  });
});
