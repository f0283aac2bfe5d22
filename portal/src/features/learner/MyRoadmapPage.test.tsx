import type { CallDef } from '@shared/contract/define';
import type { TestLink } from '@shared/schemas/assessment';
import type { AssignedRoadmap } from '@shared/schemas/catalogue';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { extensionStatus } from '@widgets/core/extension';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../testing/render';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const resource = (n: number, title: string) => ({
  _id: id(n),
  actualTitle: title,
  userTitle: null,
  type: 'READ' as const,
  url: `https://example.com/${n}`,
  shortId: `s${n}`,
  start: null,
  end: null,
  assesmentIds: [],
  belongToRoadmap: [],
});

function roadmap(over: Partial<AssignedRoadmap> = {}): AssignedRoadmap {
  return {
    _id: id(1),
    roadmapId: id(2),
    name: 'JavaScript Foundations',
    description: 'From values to the DOM.',
    subject: { _id: id(3), name: 'JavaScript', topics: [] },
    language: { _id: id(4), name: 'English' },
    status: 'ONGOING',
    userId: id(5),
    sections: [
      {
        _id: id(10),
        name: 'Basics',
        resources: [resource(11, 'Closures'), resource(12, 'Scope')],
        assesmentIds: [],
        duration: 0,
        resourceScores: { [id(11)]: 79.5, [id(12)]: 40 },
      },
    ],
    tasks: [],
    finalAssesmentId: null,
    createdAt: '2026-03-01T10:00:00Z',
    ...over,
  };
}

const linkOf = (n: number, over: Partial<TestLink>): TestLink => ({
  _id: id(100 + n),
  linkId: `link-${String(n).padStart(10, '0')}`,
  type: 'RESOURCE',
  subject: null,
  testId: null,
  isCompleted: true,
  percentage: 80,
  score: 40,
  createdAt: '2026-03-02T10:00:00Z',
  completedIn: 200,
  status: 'VIEW_CERTIFICATE',
  startTime: null,
  duration: null,
  userId: id(5),
  certificateGenerated: true,
  assignedSectionName: 'Basics',
  assignedRoadMapName: 'JavaScript Foundations',
  assignedResourceName: 'Closures',
  assignedSubjectName: null,
  questionCount: 5,
  assignedRoadmapId: id(1),
  sectionId: id(10),
  resourceId: id(11),
  integrity: null,
  attempt: 1,
  retakeAt: null,
  ...over,
});

let current = roadmap();
let links: TestLink[] = [];
let createFails = false;
const call = vi.fn(async (def: CallDef, _args?: unknown) => {
  if (def.path === '/roadmap/assigned-roadmap/{id}') return { data: current };
  if (def.path === '/testlink/list') return { data: links };
  if (def.path === '/testlink/create') {
    if (createFails) throw new Error('network down');
    return { data: { testLinkId: 'created-link-000001' } };
  }
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('../../lib/config', () => ({
  appConfig: () => ({
    extension: {
      chromeStoreUrl: 'https://chrome.example/waymark',
      firefoxStoreUrl: 'https://addons.example/waymark',
    },
  }),
}));
vi.mock('@widgets/core/api', () => ({ client: { call: (def: CallDef, args?: unknown) => call(def, args) } }));

const { default: MyRoadmapPage } = await import('./MyRoadmapPage');

const tab = {
  closed: false,
  opener: {},
  location: { href: '' },
  document: { title: '', body: {} },
  close: vi.fn(),
};
beforeEach(() => {
  current = roadmap();
  links = [];
  createFails = false;
  tab.location.href = '';
  toasts.value = [];
  extensionStatus.value = { isPresent: true, isLogedIn: true, isChecked: true };
  vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
});
afterEach(() => {
  call.mockClear();
  vi.restoreAllMocks();
});

function renderPage() {
  return renderPortal(<MyRoadmapPage />, { url: `/my-roadmap/${id(1)}`, path: '/my-roadmap/:id' });
}
const created = () => call.mock.calls.find(([def]) => def.path === '/testlink/create')?.[1];

describe('/my-roadmap/{id}', () => {
  it('needs the extension', async () => {
    extensionStatus.value = { isPresent: false, isLogedIn: false, isChecked: true };
    renderPage();
    expect(await screen.findByText('Please Install Extension')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Install' }).getAttribute('href')).toBe(
      'https://chrome.example/waymark',
    );
    // the page still says which roadmap it is, as its heading, but shows none of it
    expect(await screen.findByRole('heading', { level: 1, name: 'JavaScript Foundations' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Progress' })).toBeNull();
  });

  it('counts certificates, badges and feathers earned (VIEW_CERTIFICATE or GENERATE_CERTIFICATE)', async () => {
    links = [
      linkOf(1, {}),
      linkOf(2, { status: 'GENERATE_CERTIFICATE', resourceId: id(12) }),
      linkOf(3, { status: 'NO_ENOUGH_MARKS', percentage: 20 }),
      linkOf(4, { type: 'SECTION', status: 'VIEW_CERTIFICATE' }),
      linkOf(5, { type: 'ROADMAP', status: 'NO_ENOUGH_MARKS', percentage: 30 }),
    ];
    renderPage();
    const progress = await screen.findByRole('list', { name: 'Progress' });
    await waitFor(() => expect(progress.textContent).toContain('2 FEATHER'));
    expect(progress.textContent).toContain('1 BADGE');
    expect(progress.textContent).toContain('0 CERTIFICATE');
    // the section's badge is one click away
    expect(screen.getByRole('link', { name: /^View Badge ?: Basics$/ }).getAttribute('href')).toBe(
      `/badge/${links[3]!.linkId}`,
    );
  });

  it('shows the highest score of each resource and its tick at 60', async () => {
    renderPage();
    const closures = (await screen.findByRole('link', { name: /^Closures/ })).closest('li')!;
    expect(within(closures).getByText('Highest score 80%')).toBeTruthy();
    expect(within(closures).getByRole('img', { name: 'Passed' })).toBeTruthy();
    const scope = screen.getByRole('link', { name: /^Scope/ }).closest('li')!;
    expect(within(scope).getByText('Highest score 40%')).toBeTruthy();
    expect(within(scope).getByRole('img', { name: 'Not passed yet' })).toBeTruthy();
  });

  it("asks 'Would you like to attempt an {resource} assessment?', then opens the new RESOURCE test in the tab opened at the click", async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /^Take Assessment ?: Closures$/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Would you like to attempt an Closures assessment?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(window.open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tab.location.href).toBe('/test/created-link-000001'));
    expect(created()).toEqual({
      body: { type: 'RESOURCE', assignedRoadmapId: id(1), sectionId: id(10), resourceId: id(11) },
    });
  });

  it('No leaves without creating anything', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /^Take Assessment ?: Scope$/ }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.open).not.toHaveBeenCalled();
    expect(created()).toBeUndefined();
  });

  it('starts a section assessment and the final assessment', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /^Section Assessment ?: Basics$/ }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() =>
      expect(created()).toEqual({ body: { type: 'SECTION', assignedRoadmapId: id(1), sectionId: id(10) } }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    call.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Take Final Assessment' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/final assessment of JavaScript Foundations/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(created()).toEqual({ body: { type: 'ROADMAP', assignedRoadmapId: id(1) } }));
  });

  it('tells the learner when the assessment could not start, and logs it', async () => {
    createFails = true;
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /^Take Assessment ?: Closures$/ }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(toasts.value.map((t) => t.kind)).toEqual(['error']));
    expect(toasts.value[0]!.message).toMatch(/couldn't start the assessment/);
    expect(tab.close).toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith('Something went wrong', expect.any(Error));
  });

  it('once COMPLETED: resources as plain text, no take-assessment actions, View assessment for the final one', async () => {
    current = roadmap({ status: 'COMPLETED', finalAssesmentId: 'final-link-00000001' });
    renderPage();
    await screen.findByRole('heading', { name: 'JavaScript Foundations' });
    expect(screen.getByText('Closures').tagName).toBe('SPAN');
    expect(screen.queryByRole('link', { name: /^Closures/ })).toBeNull();
    expect(
      screen.queryByRole('button', { name: /Take Assessment|Section Assessment|Take Final Assessment/ }),
    ).toBeNull();
    expect(screen.getByRole('link', { name: 'View assessment' }).getAttribute('href')).toBe(
      '/assesments/final-link-00000001/view',
    );
  });

  it('shows the links of this roadmap in the assessments modal', async () => {
    links = [
      linkOf(1, {}),
      linkOf(2, {
        status: 'NO_ENOUGH_MARKS',
        percentage: 20,
        resourceId: id(12),
        assignedResourceName: 'Scope',
      }),
    ];
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Assessments' }));
    const dialog = await screen.findByRole('dialog');
    const rows = within(dialog).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(dialog).getByRole('link', { name: /^View Feather ?: Closures$/ })).toBeTruthy();
    expect(within(dialog).getByText('No Enough Marks')).toBeTruthy();
    expect(call.mock.calls.find(([def]) => def.path === '/testlink/list')?.[1]).toMatchObject({
      query: { assignedRoadmapId: id(1) },
    });
  });
});
