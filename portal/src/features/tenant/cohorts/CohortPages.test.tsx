import { ApiError } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../../testing/render';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const OWN = id(900);
const SCIM = id(901);
const member = (n: number, name: string) => ({
  _id: id(n),
  name,
  email: `${name.toLowerCase()}@example.com`,
  isDisabled: n === 2,
  addedAt: '2026-03-01T00:00:00.000Z',
});
const cohort = (cid: string, scimManaged: boolean) => ({
  _id: cid,
  name: scimManaged ? 'Support' : 'Sales EMEA',
  externalId: scimManaged ? 'grp-1' : null,
  scimManaged,
  memberCount: 2,
  roadmaps: scimManaged ? [] : [{ _id: id(50), name: 'Web Basics' }],
  createdAt: '2026-03-01T00:00:00.000Z',
});

type Args = {
  query?: Record<string, unknown>;
  params?: Record<string, string>;
  body?: Record<string, unknown>;
};
const calls: { method: string; path: string; args?: Args }[] = [];
let failNext: Error | null = null;
const call = vi.fn(async (def: CallDef, args?: Args) => {
  calls.push({ method: def.method, path: def.path, args });
  if (failNext) {
    const e = failNext;
    failNext = null;
    throw e;
  }
  switch (`${def.method} ${def.path}`) {
    case 'GET /tenant/cohorts':
      return { data: [cohort(OWN, false), cohort(SCIM, true)] };
    case 'POST /tenant/cohorts':
      return { data: { ...cohort(id(902), false), name: args?.body?.name, memberCount: 0 } };
    case 'GET /tenant/cohorts/{id}':
      return {
        data: {
          ...cohort(args!.params!.id!, args!.params!.id === SCIM),
          members: [member(1, 'Ana'), member(2, 'Li')],
        },
      };
    case 'PUT /tenant/cohorts/{id}':
      return { data: { ...cohort(OWN, false), name: args?.body?.name } };
    case 'DELETE /tenant/cohorts/{id}':
      return { data: { ok: true } };
    case 'GET /tenant/users/search-list':
      return {
        data: [
          { _id: id(1), email: 'ana@example.com', name: 'Ana' },
          { _id: id(3), email: 'bo@example.com', name: 'Bo' },
        ],
      };
    case 'POST /tenant/cohorts/{id}/members':
      return { data: { added: args?.body?.learnerIds } };
    case 'POST /tenant/cohorts/{id}/members/remove':
      return { data: { removed: args?.body?.learnerIds } };
    case 'GET /tenant/roadmap/list':
      return {
        data: [
          { _id: id(50), name: 'Web Basics', prerequisites: [] },
          { _id: id(51), name: 'React', prerequisites: [{ _id: id(50), name: 'Web Basics' }] },
        ],
      };
    case 'POST /tenant/cohorts/{id}/roadmaps':
      return {
        data: {
          roadmapId: id(51),
          roadmapName: 'React',
          results: [
            { learnerId: id(1), email: 'ana@example.com', outcome: 'ASSIGNED' },
            { learnerId: id(2), email: 'li@example.com', outcome: 'ROADMAP_LIMIT' },
          ],
        },
      };
    default:
      throw new Error(`unexpected call ${def.method} ${def.path}`);
  }
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: CohortsPage } = await import('./CohortsPage');
const { default: CohortPage } = await import('./CohortPage');

const callsTo = (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path);

afterEach(() => {
  calls.length = 0;
  toasts.value = [];
});

function renderCohort(cid: string) {
  return renderPortal(<CohortPage />, {
    url: `/portal/cohorts/${cid}`,
    path: '/portal/cohorts/:cohortId',
    routes: { '/portal/cohorts': <p>the cohorts</p> },
    location: true,
    toasts: true,
  });
}

describe('/portal/cohorts', () => {
  it('lists the cohorts with their members, roadmaps and who manages each, and makes one', async () => {
    renderPortal(<CohortsPage />, { url: '/portal/cohorts', toasts: true });
    const table = (await screen.findByRole('table', { name: 'Your cohorts' })) as HTMLTableElement;
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['Sales EMEA', '2 members', 'Web Basics', 'You, here'],
      ['Support', '2 members', '—', 'Your directory (SCIM)'],
    ]);
    expect(within(table).getByRole('link', { name: 'Support' }).getAttribute('href')).toBe(
      `/portal/cohorts/${SCIM}`,
    );
    const name = screen.getByLabelText("New cohort's name");
    fireEvent.change(name, { target: { value: 'Support EMEA' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create cohort' }));
    });
    expect(callsTo('POST', '/tenant/cohorts')[0]?.args?.body).toEqual({ name: 'Support EMEA' });
    expect(await screen.findByText('Cohort “Support EMEA” created.')).toBeTruthy();
    await waitFor(() => expect(callsTo('GET', '/tenant/cohorts')).toHaveLength(2));
  });

  it('names the server’s refusal beside the form', async () => {
    renderPortal(<CohortsPage />, { url: '/portal/cohorts' });
    await screen.findByRole('table', { name: 'Your cohorts' });
    failNext = new ApiError(409, {
      statusCode: 409,
      error: 'Conflict',
      message: 'A cohort with this name already exists.',
    });
    fireEvent.change(screen.getByLabelText("New cohort's name"), { target: { value: 'sales emea' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create cohort' }));
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('A cohort with this name already exists.');
    expect(screen.getByLabelText("New cohort's name").getAttribute('aria-describedby')).toBe(alert.id);
  });
});

describe('/portal/cohorts/:cohortId', () => {
  it('shows a directory’s cohort read-only: the notice, its members, no rename, delete, add or remove', async () => {
    renderCohort(SCIM);
    expect(await screen.findByRole('heading', { level: 1, name: 'Support' })).toBeTruthy();
    expect(screen.getByText(/directory manages this cohort over SCIM/)).toBeTruthy();
    const members = screen.getByRole('table', { name: 'Members' });
    expect(within(members).getAllByRole('row')).toHaveLength(3);
    expect(within(members).getByText('Removed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Remove|Delete cohort|Rename/ })).toBeNull();
    expect(screen.queryByRole('searchbox')).toBeNull();
    // roadmaps may still be given to it
    expect(screen.getByRole('button', { name: 'Assign to the cohort' })).toBeTruthy();
  });

  it('finds a learner and adds them, and takes a member out', async () => {
    renderCohort(OWN);
    await screen.findByRole('heading', { level: 1, name: 'Sales EMEA' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Find one of your learners by name or e-mail' }), {
      target: { value: 'example' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Find' }));
    const add = await screen.findByRole('button', { name: 'Add Bo to the cohort' });
    // Ana is a member already
    expect(screen.queryByRole('button', { name: 'Add Ana to the cohort' })).toBeNull();
    await act(async () => {
      fireEvent.click(add);
    });
    expect(callsTo('POST', '/tenant/cohorts/{id}/members')[0]?.args).toMatchObject({
      params: { id: OWN },
      body: { learnerIds: [id(3)] },
    });
    expect(await screen.findByText('Bo joined the cohort.')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Remove Ana from the cohort' }));
    });
    expect(callsTo('POST', '/tenant/cohorts/{id}/members/remove')[0]?.args?.body).toEqual({
      learnerIds: [id(1)],
    });
    expect(await screen.findByText('Ana left the cohort.')).toBeTruthy();
  });

  it('renames, and deletes after the confirmation', async () => {
    renderCohort(OWN);
    await screen.findByRole('heading', { level: 1, name: 'Sales EMEA' });
    const rename = screen.getByRole('button', { name: 'Rename' }) as HTMLButtonElement;
    expect(rename.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Sales Europe' } });
    await act(async () => {
      fireEvent.click(rename);
    });
    expect(callsTo('PUT', '/tenant/cohorts/{id}')[0]?.args?.body).toEqual({ name: 'Sales Europe' });
    expect(await screen.findByText('Cohort renamed “Sales Europe”.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete cohort' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toMatch(/keep their seats and the roadmaps/);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    });
    expect(callsTo('DELETE', '/tenant/cohorts/{id}')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/portal/cohorts'));
  });

  it('assigns a roadmap with prerequisites to the whole cohort with the mentor’s choice, and says what came of it', async () => {
    renderCohort(OWN);
    await screen.findByRole('heading', { level: 1, name: 'Sales EMEA' });
    expect(screen.getByRole('link', { name: 'Web Basics' }).getAttribute('href')).toBe(
      `/portal/roadmap/${id(50)}`,
    );
    const select = screen.getByRole('combobox', { name: 'Roadmap' });
    await waitFor(() => expect(within(select).getByRole('option', { name: 'React' })).toBeTruthy());
    expect(screen.queryByRole('group', { name: 'Prerequisites' })).toBeNull();
    fireEvent.change(select, { target: { value: id(51) } });
    const group = screen.getByRole('group', { name: 'Prerequisites' });
    fireEvent.click(within(group).getByRole('radio', { name: /Waive the prerequisites/ }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Assign to the cohort' }));
    });
    expect(callsTo('POST', '/tenant/cohorts/{id}/roadmaps')[0]?.args?.body).toEqual({
      roadmapId: id(51),
      prerequisites: 'WAIVE',
    });
    expect(
      await screen.findByText(
        'React assigned. Members who got it now: 1. Already with two ongoing roadmaps: 1.',
      ),
    ).toBeTruthy();
  });
});
