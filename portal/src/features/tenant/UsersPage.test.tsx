import type { CallDef } from '@shared/contract/define';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../testing/render';

vi.mock('./users/invite', () => ({ sendFirebaseInviteLink: vi.fn() }));

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const seats = Array.from({ length: 12 }, (_, i) => ({
  _id: id(100 + i),
  learnerId: {
    _id: id(i + 1),
    name: `Learner ${i + 1}`,
    phoneNumber: i === 0 ? '9876543210' : null,
    countrycode: i === 0 ? '+91' : null,
    email: `learner${i + 1}@example.com`,
  },
  isDisabled: i === 1,
  cohorts: i % 2 === 0 ? [{ _id: id(900), name: 'Sales EMEA' }] : [],
}));
const cohortRows = [
  {
    _id: id(900),
    name: 'Sales EMEA',
    externalId: null,
    scimManaged: false,
    memberCount: 4,
    roadmaps: [],
    createdAt: '2026-03-01T00:00:00.000Z',
  },
  {
    _id: id(901),
    name: 'Support',
    externalId: 'grp-1',
    scimManaged: true,
    memberCount: 0,
    roadmaps: [],
    createdAt: '2026-03-01T00:00:00.000Z',
  },
];

const calls: { path: string; query?: Record<string, unknown>; params?: Record<string, unknown> }[] = [];
const call = vi.fn(
  async (def: CallDef, args?: { query?: Record<string, unknown>; params?: Record<string, unknown> }) => {
    calls.push({ path: def.path, query: args?.query, params: args?.params });
    switch (def.path) {
      case '/tenant/dashboard/stats':
        return {
          data: {
            totalUserCount: 12,
            totalTestLink: 30,
            totalTestLinkCompleted: 21,
            totalCertificateGenerated: 2,
            totalBadgeGenerated: 5,
            totalFeatherGenerated: 9,
            totalUserAverageLearningTime: 3900,
          },
        };
      case '/tenant/users/list': {
        const {
          page = 1,
          limit = 5,
          searchText,
          cohortId,
        } = (args?.query ?? {}) as {
          page?: number;
          limit?: number;
          searchText?: string;
          cohortId?: string;
        };
        const found = seats.filter(
          (s) =>
            (!searchText || s.learnerId.email.includes(searchText)) &&
            (!cohortId || s.cohorts.some((c) => c._id === cohortId)),
        );
        return {
          data: {
            tenantUserList: found.slice((page - 1) * limit, page * limit),
            totalUserCount: found.length,
          },
        };
      }
      case '/tenant/cohorts':
        return { data: cohortRows };
      case '/tenant/users/remove-user/{learnerId}':
        return { data: { removed: false, isDisabled: true, accessUntil: '2026-04-01T00:00:00.000Z' } };
      default:
        throw new Error(`unexpected call ${def.path}`);
    }
  },
);
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: UsersPage } = await import('./UsersPage');

function renderPage(url = '/portal/users') {
  return renderPortal(<UsersPage />, {
    url,
    path: '/portal/users',
    routes: { '*': <p>elsewhere</p> },
    location: true,
    toasts: true,
  });
}

const listCalls = () => calls.filter((c) => c.path === '/tenant/users/list');

afterEach(() => {
  calls.length = 0;
  toasts.value = [];
});

describe('/portal/users', () => {
  it('shows the statistics cards, the cards with tables linking to them', async () => {
    renderPage();
    const stats = screen.getByRole('list', { name: 'Statistics' });
    await waitFor(() => expect(within(stats).getByText('30')).toBeTruthy());
    expect(within(stats).getByText('Total TestLink Completed').nextSibling?.textContent).toBe('21');
    const links = within(stats)
      .getAllByRole('link')
      .map((a) => [a.querySelector('.stat-label')?.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Total Certificate', '/portal/total-certificates'],
      ['Total Badge', '/portal/total-badges'],
      ['Total Feather', '/portal/total-feathers'],
      ['Average Learning Time', '/portal/average-learning-time'],
    ]);
    expect(within(stats).getByText('1h 5m')).toBeTruthy();
  });

  it('lists 5 users a page by default, with 10 and 15 to choose, and pages through them', async () => {
    renderPage();
    const table = (await screen.findByText('learner1@example.com')).closest('table')!;
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    expect(
      [...(screen.getByLabelText('Rows per page') as HTMLSelectElement).options].map((o) => o.value),
    ).toEqual(['5', '10', '15']);
    expect(within(table).getByText('+91 9876543210')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await screen.findByText('learner11@example.com');
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '10' } });
    await screen.findByText('learner10@example.com');
    expect(listCalls().at(-1)?.query).toEqual({ page: 1, limit: 10, searchText: undefined });
  });

  it('searches on Enter and on Search, from page 1', async () => {
    renderPage();
    await screen.findByText('learner1@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByText('learner6@example.com');
    const box = screen.getByRole('searchbox', { name: 'Search users' });
    fireEvent.change(box, { target: { value: ' learner12 ' } });
    fireEvent.submit(box.closest('form')!);
    await screen.findByText('learner12@example.com');
    expect(listCalls().at(-1)?.query).toEqual({ page: 1, limit: 5, searchText: 'learner12' });
    fireEvent.change(box, { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No data found')).toBeTruthy();
  });

  it('shows each learner’s cohorts and filters by cohort, kept in the address with the search and page', async () => {
    renderPage();
    const first = (await screen.findByText('learner1@example.com')).closest('tr')!;
    const cohortCell = within(first).getByRole('link', { name: 'Sales EMEA' });
    expect(cohortCell.getAttribute('href')).toBe(`/portal/cohorts/${id(900)}`);
    expect(
      screen.getByText('learner2@example.com').closest('tr')!.querySelector('td[data-label="Cohort"]')
        ?.textContent,
    ).toBe('—');
    const filter = screen.getByRole('combobox', { name: 'Cohort' }) as HTMLSelectElement;
    await waitFor(() =>
      expect([...filter.options].map((o) => o.textContent)).toEqual(['All cohorts', 'Sales EMEA', 'Support']),
    );
    fireEvent.change(filter, { target: { value: id(900) } });
    await waitFor(() => expect(screen.queryByText('learner2@example.com')).toBeNull());
    expect(screen.getByText('learner3@example.com')).toBeTruthy();
    expect(listCalls().at(-1)?.query).toEqual({
      page: 1,
      limit: 5,
      searchText: undefined,
      cohortId: id(900),
    });
    expect(screen.getByTestId('where').textContent).toBe(`/portal/users?cohort=${id(900)}`);
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(`/portal/users?cohort=${id(900)}&page=2`),
    );
    // another filter starts from page 1 again
    fireEvent.change(filter, { target: { value: '' } });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/portal/users'));
    expect(screen.getByRole('link', { name: 'Manage cohorts' }).getAttribute('href')).toBe('/portal/cohorts');
  });

  it('reads the search, the cohort, the rows per page and the page from the address', async () => {
    renderPage(`/portal/users?q=learner1&cohort=${id(900)}&size=10&page=1`);
    await screen.findByText('learner1@example.com');
    expect(listCalls().at(-1)?.query).toEqual({
      page: 1,
      limit: 10,
      searchText: 'learner1',
      cohortId: id(900),
    });
    expect((screen.getByRole('searchbox', { name: 'Search users' }) as HTMLInputElement).value).toBe(
      'learner1',
    );
    expect((screen.getByLabelText('Rows per page') as HTMLSelectElement).value).toBe('10');
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Cohort' }) as HTMLSelectElement).value).toBe(id(900)),
    );
  });

  it('reads rubbish in the address as the defaults', async () => {
    renderPage('/portal/users?size=7&page=x&cohort=nope');
    await waitFor(() =>
      expect(listCalls().at(-1)?.query).toEqual({
        page: 1,
        limit: 5,
        searchText: undefined,
        cohortId: undefined,
      }),
    );
  });

  it('greys a disabled row with its tooltip and no Remove learner; active rows say Active', async () => {
    renderPage();
    const disabled = (await screen.findByText('learner2@example.com')).closest('tr')!;
    expect(disabled.className).toBe('disabled');
    const tip = within(disabled).getByRole('tooltip');
    expect(tip.textContent).toBe('The tenant can access the user only until the end of this billing cycle.');
    expect(within(disabled).getByText('Disabled').getAttribute('aria-describedby')).toBe(tip.id);
    fireEvent.click(within(disabled).getByRole('button', { name: 'Action for Learner 2' }));
    expect(
      within(disabled)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['Analytics', 'Assigned Roadmap']);
    const active = screen.getByText('learner1@example.com').closest('tr')!;
    expect(within(active).getByText('Active')).toBeTruthy();
  });

  it('opens the row menu by keyboard and goes to the Analytics of the learner', async () => {
    renderPage();
    const row = (await screen.findByText('learner1@example.com')).closest('tr')!;
    const button = within(row).getByRole('button', { name: 'Action for Learner 1' });
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const items = within(row).getAllByRole('menuitem');
    expect(items.map((m) => m.textContent)).toEqual(['Analytics', 'Assigned Roadmap', 'Remove learner']);
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(items[1]));
    expect(items[1]!.getAttribute('href')).toBe(`/portal/users/${id(1)}/assigned-roadmaps`);
    fireEvent.keyDown(items[1]!, { key: 'Escape' });
    await waitFor(() => expect(document.activeElement).toBe(button));
    fireEvent.click(button);
    fireEvent.click(within(row).getByRole('menuitem', { name: 'Analytics' }));
    expect(screen.getByTestId('where').textContent).toBe(`/portal/users/${id(1)}/analytics`);
  });

  it('removes a learner after the billing-cycle confirmation', async () => {
    renderPage();
    const row = (await screen.findByText('learner3@example.com')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Action for Learner 3' }));
    fireEvent.click(within(row).getByRole('menuitem', { name: 'Remove learner' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toMatch(/until the end of this billing cycle/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.path.startsWith('/tenant/users/remove-user'))).toBe(false);
    fireEvent.click(within(row).getByRole('button', { name: 'Action for Learner 3' }));
    fireEvent.click(within(row).getByRole('menuitem', { name: 'Remove learner' }));
    await act(async () => {
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    });
    expect(calls.find((c) => c.path.startsWith('/tenant/users/remove-user'))?.params).toEqual({
      learnerId: id(3),
    });
    expect(await screen.findByText(/Learner 3 stays with you until 1st Apr 2026/)).toBeTruthy();
  });

  it.each([
    ['success', 'Payment was successfully paid!', 'toast-success'],
    ['failed', 'Payment failed', 'toast-error'],
  ])(
    'shows the Payment Status toast for stripe-status=%s once and drops the query',
    async (status, text, kind) => {
      renderPage(`/portal/users?stripe-status=${status}&session_id=cs_test_1`);
      const message = await screen.findByText(text);
      expect(message.closest('.toast')?.classList.contains(kind)).toBe(true);
      await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/portal/users'));
      expect(screen.getAllByText(text)).toHaveLength(1);
    },
  );
});
