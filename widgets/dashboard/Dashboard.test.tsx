import type { Client } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';
import { dateRange } from '@shared/rules/date-ranges';
import type { DashboardCard } from '@shared/schemas/activity';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { extensionStatus } from '@widgets/core/extension';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dashboard } from './Dashboard';

const DAY = 86_400;

afterEach(() => cleanup());

const card: DashboardCard = {
  roadmapName: 'JavaScript basics',
  resourceName: 'Closures',
  resourceUrl: 'https://example.com/closures',
  resourceType: 'READ',
  latestTimestamp: 1_700_000_000,
  totalTimeSpent: 1_530,
  roadmapId: '00000000-0000-4000-8000-000000000001',
  sectionId: '00000000-0000-4000-8000-000000000002',
  resourceId: '00000000-0000-4000-8000-000000000003',
};

function fakeClient(opts: { rows?: number; daily?: number[]; card?: DashboardCard } = {}) {
  const calls: { path: string; query?: Record<string, number> }[] = [];
  const client = {
    options: { baseUrl: '/api', device: 'WEB_APP' },
    refresh: async () => true,
    async call(def: CallDef, args?: { query?: Record<string, number> }) {
      calls.push({ path: def.path, query: args?.query });
      if (def.path === '/reports/dashboard/time-spent-by-user-daywise') {
        const { startTime, endTime } = args!.query as { startTime: number; endTime: number };
        const days = Math.round((endTime + 1 - startTime) / DAY);
        return {
          data: Array.from({ length: days }, (_, i) => ({
            date: startTime + i * DAY,
            timespent: opts.daily?.[i] ?? 0,
          })),
        };
      }
      if (def.path === '/reports/dashboard/time-spent-on-resource-by-user') {
        const { skip, limit } = args!.query as { skip: number; limit: number };
        const total = opts.rows ?? 0;
        const rows = Array.from({ length: total }, (_, i) => ({
          resource: {
            _id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            userTitle: `Resource ${i + 1}`,
          },
          timespent: 3600 - i * 60,
        })).slice((skip - 1) * limit, skip * limit);
        return { data: { totalCount: total, timeSpentOnResource: rows } };
      }
      if (def.path === '/reports/dashboard/get-current-resource')
        return { data: opts.rows ? [opts.card ?? card] : [] };
      if (def.path === '/reports/dashboard/learning-days') {
        const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
        return {
          data: {
            from: today - 364 * DAY,
            to: today,
            thresholdSeconds: 60,
            days: [
              { date: today - 2 * DAY, timespent: 1200 },
              { date: today - DAY, timespent: 4000 },
            ],
            learningDays: 2,
            totalSeconds: 5200,
            currentStreak: 2,
            currentStreakEnd: today - DAY,
            longestStreak: 9,
            longestStreakEnd: today - 100 * DAY,
          },
        };
      }
      if (def.path === '/reports/dashboard/time-spent-by-topic') {
        return {
          data: [
            {
              subject: { _id: '00000000-0000-4000-8000-0000000000a1', name: 'Web Development' },
              timespent: 4800,
              topics: [
                {
                  topic: { _id: '00000000-0000-4000-8000-0000000000b1', name: 'JavaScript' },
                  timespent: 3000,
                },
                { topic: null, timespent: 1800 },
              ],
            },
          ],
        };
      }
      throw new Error(`unexpected call ${def.path}`);
    },
  };
  return { client: client as unknown as Client, calls };
}

describe('the learner dashboard', () => {
  it('shows Past 7 days by default, ending at the end of yesterday UTC', async () => {
    const { client, calls } = fakeClient({ daily: [3600, 0, 0, 0, 0, 0, 3600 * 6] });
    render(<Dashboard client={client} />);
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect((screen.getByLabelText('Date range') as HTMLSelectElement).value).toBe('Past 7 days');
    expect(
      [...screen.getByLabelText('Date range').querySelectorAll('option')].map((o) => o.textContent),
    ).toEqual(['Yesterday', 'Past 7 days', 'Last 28 Days']);
    await screen.findByText('1h');
    const range = dateRange('Past 7 days');
    expect(calls.find((c) => c.path.endsWith('daywise'))?.query).toEqual(range);
    // 7 h over 7 days
    expect(screen.getByText(/a day over past 7 days/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your Daily Time spent on Learning' })).toBeTruthy();
    const chart = screen.getByRole('table', { name: /Your Daily Time spent on Learning/ });
    const hours = within(chart)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.lastElementChild?.textContent);
    expect(hours).toEqual(['1', '0', '0', '0', '0', '0', '6']);
    // the drawing: one bar per day, its value over it, the axis up to a round top (0, 2, 4, 6 h)
    const svg = document.querySelector('.wm-chart-canvas svg')!;
    expect(svg.querySelectorAll('rect.wm-chart-bar')).toHaveLength(7);
    expect([...svg.querySelectorAll('.wm-chart-value')].map((t) => t.textContent)).toEqual(['1', '6']);
    expect([...svg.querySelectorAll('.wm-chart-tick')].map((t) => t.textContent)).toEqual([
      '0',
      '2',
      '4',
      '6',
    ]);
    // nothing is styled inline: a page's Content Security Policy without 'unsafe-inline' refuses that
    expect(document.querySelector('.wm-chart [style]')).toBeNull();
    expect(document.querySelector('.wm-chart style')).toBeNull();
  });

  it("says 'No Data Found' when nothing was learnt", async () => {
    const { client } = fakeClient({ rows: 0 });
    render(<Dashboard client={client} />);
    expect(await screen.findByText('No Data Found')).toBeTruthy();
  });

  it('pages the Resource-wise Report 5 at a time, numbering rows across pages', async () => {
    const { client, calls } = fakeClient({ rows: 7 });
    render(<Dashboard client={client} />);
    const table = (await screen.findByText('Resource 1')).closest('table')!;
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    expect(within(table).getByText('1h')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByText('Resource 6');
    expect(screen.getByText('6').tagName).toBe('TD');
    expect(calls.filter((c) => c.path.endsWith('by-user')).at(-1)?.query).toMatchObject({
      skip: 2,
      limit: 5,
    });
  });

  it('changes the range and starts the report again at page 1', async () => {
    const { client, calls } = fakeClient({ rows: 7 });
    render(<Dashboard client={client} />);
    await screen.findByText('Resource 1');
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByText('Resource 6');
    fireEvent.change(screen.getByLabelText('Date range'), { target: { value: 'Last 28 Days' } });
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('by-user')).at(-1)?.query).toEqual({
        ...dateRange('Last 28 Days'),
        skip: 1,
        limit: 5,
      }),
    );
  });

  it('offers the assessment of a card after confirmation when the extension is present', async () => {
    extensionStatus.value = { isPresent: true, isLogedIn: true, isChecked: true };
    const { client } = fakeClient({ rows: 1 });
    const onAssessmentStart = vi.fn(async () => 'link-1');
    render(<Dashboard client={client} onAssessmentStart={onAssessmentStart} />);
    expect(await screen.findByText('26 minutes')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Assessment of Closures' }));
    expect(screen.getByText('Would you like to attempt an Closures assessment?')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    });
    expect(onAssessmentStart).toHaveBeenCalledWith(card);
  });

  it('says when a failed test of a card can be retaken, in place of the action', async () => {
    extensionStatus.value = { isPresent: true, isLogedIn: true, isChecked: true };
    const retakeAt = new Date(Date.now() + 5 * 3600_000).toISOString();
    const { client } = fakeClient({ rows: 1, card: { ...card, retakeAt } });
    render(<Dashboard client={client} />);
    expect(await screen.findByText(/^Retake from \d+\w\w \w{3} \d{4} \d\d:\d\d (am|pm)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Assessment of Closures' })).toBeNull();
  });

  it('tells the time a refused retake opens on the card', async () => {
    extensionStatus.value = { isPresent: true, isLogedIn: true, isChecked: true };
    const { client } = fakeClient({ rows: 1 });
    const opensAt = new Date(Date.now() + 3 * 3600_000).toISOString();
    const onAssessmentStart = vi.fn(async () => {
      throw Object.assign(new Error('You can retake this test from …'), {
        body: { errorCode: 'RETAKE_COOLDOWN', opensAt },
      });
    });
    render(<Dashboard client={client} onAssessmentStart={onAssessmentStart} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Assessment of Closures' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    });
    expect((await screen.findByRole('alert')).textContent).toMatch(/^You can retake this test from /);
    expect(screen.queryByRole('button', { name: 'Assessment of Closures' })).toBeNull();
  });

  it('shows the Install prompt on cards without the extension', async () => {
    extensionStatus.value = { isPresent: false, isLogedIn: false, isChecked: true };
    const { client } = fakeClient({ rows: 1 });
    render(
      <Dashboard
        client={client}
        storeUrls={{
          chromeStoreUrl: 'https://chrome.example/waymark',
          firefoxStoreUrl: 'https://amo.example/waymark',
        }}
      />,
    );
    const install = await screen.findByRole('link', { name: 'Install Extension' });
    expect(install.getAttribute('href')).toBe('https://chrome.example/waymark');
    expect(screen.queryByRole('button', { name: /Assessment/ })).toBeNull();
  });

  it('shows the learning days of 12 months with the streaks, and the time per subject and topic', async () => {
    const { client, calls } = fakeClient();
    render(<Dashboard client={client} />);
    const days = await screen.findByRole('region', { name: 'Learning days' });
    await within(days).findByText('2 days');
    expect(within(days).getByText('9 days')).toBeTruthy();
    const map = within(days).getByRole('img', {
      name: /^Learning days from .* 2 days with learning, 1 hour 26 minutes/,
    });
    // a square per day, one path per shade: the darkest for an hour or more
    const squares = (shade: number) =>
      (map.querySelector(`path.wm-heat-${shade}`)?.getAttribute('d') ?? '').split('M').length - 1;
    expect(squares(4)).toBe(1);
    expect(squares(2)).toBe(1);
    expect([0, 1, 2, 3, 4].reduce((n, shade) => n + squares(shade), 0)).toBe(365);
    const months = within(days).getByRole('table', { name: 'Learning days and time by month' });
    expect(within(months).getAllByRole('row').length).toBeGreaterThan(1);
    const topics = screen.getByRole('region', { name: 'Time per subject and topic' });
    await within(topics).findByText('Web Development');
    expect(topics.textContent).toContain('Over past 7 days.');
    expect(within(topics).getByText('JavaScript')).toBeTruthy();
    expect(within(topics).getByText('No topic')).toBeTruthy();
    const week = dateRange('Past 7 days');
    expect(calls.find((c) => c.path === '/reports/dashboard/time-spent-by-topic')?.query).toEqual(week);
    // another range asks again for the topics, not for the year
    fireEvent.change(screen.getByLabelText('Date range'), { target: { value: 'Last 28 Days' } });
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/reports/dashboard/time-spent-by-topic')).toHaveLength(2),
    );
    expect(calls.filter((c) => c.path === '/reports/dashboard/learning-days')).toHaveLength(1);
  });
});
