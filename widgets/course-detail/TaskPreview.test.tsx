/** The course page's tasks and durations (mentor §2.10, §9). */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { courseHours, resourceSeconds } from './duration';
import { TaskPreview } from './TaskPreview';

afterEach(() => cleanup());

const tasks = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    _id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    actualTitle: `Task ${i + 1}`,
    userTitle: null,
    type: 'READ' as const,
  }));

describe('<TaskPreview>', () => {
  it('shows the first five, the next ones faded and hidden from screen readers, and Show More (N more)', () => {
    render(<TaskPreview tasks={tasks(8)} />);
    const list = screen.getByRole('list', { name: 'Tasks' });
    expect(list.querySelectorAll('li')).toHaveLength(5);
    const faded = document.querySelector('.wm-faded')!;
    expect(faded.getAttribute('aria-hidden')).toBe('true');
    expect(faded.textContent).toContain('Task 6');
    const more = screen.getByRole('button', { name: 'Show More (3 more)' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    expect(screen.getByRole('list', { name: 'Tasks' }).querySelectorAll('li')).toHaveLength(8);
    expect(document.querySelector('.wm-faded')).toBeNull();
    expect(screen.getByRole('button', { name: 'Show Less' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('five or fewer: all of them, no Show More', () => {
    render(<TaskPreview tasks={tasks(5)} />);
    expect(screen.getByRole('list', { name: 'Tasks' }).querySelectorAll('li')).toHaveLength(5);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it("none: 'No Task Found'", () => {
    render(<TaskPreview tasks={[]} />);
    expect(screen.getByText('No Task Found')).toBeTruthy();
  });
});

describe('durations', () => {
  const mark = (h: number, m: number, s: number) => ({ hour: h, minute: m, second: s });
  it('a resource lasts end minus start; a negative or unknown span counts 0', () => {
    expect(resourceSeconds({ start: mark(0, 1, 0), end: mark(0, 11, 30) })).toBe(630);
    expect(resourceSeconds({ start: null, end: mark(0, 2, 0) })).toBe(120);
    expect(resourceSeconds({ start: mark(0, 5, 0), end: mark(0, 1, 0) })).toBe(0);
    expect(resourceSeconds({ start: mark(0, 5, 0), end: null })).toBe(0);
  });
  it('hours show only above 0.1, to one decimal', () => {
    expect(courseHours(360)).toEqual({ hours: 0.1, show: false });
    expect(courseHours(361)).toEqual({ hours: 0.1, show: true });
    expect(courseHours(7790)).toEqual({ hours: 2.2, show: true });
  });
});
