/**
 * The catalogue widget as a host sees it: cards with their 'Curated By' rules and placeholder photo,
 * Select opening the prerequisite or assign dialog with the specification's texts, the events a host
 * can cancel, and the failures. The client is a stand-in answering the widget's calls.
 */
import { ApiError, type Client } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';
import type { RoadmapSummary } from '@shared/schemas/catalogue';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type WidgetEventMap,
  type WidgetEventName,
  type WidgetHost,
  WidgetHostProvider,
} from '../embed/host';
import { PLACEHOLDER_MENTOR_IMAGE } from '../embed/placeholder';
import { curatedBy, curatorNames } from './curators';
import { RoadmapCatalogue } from './RoadmapCatalogue';

beforeAll(() => {
  // happy-dom's <dialog> has no showModal: open it the way the browser would
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});
afterEach(() => cleanup());

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const author = (n: number, name: string, profilePath: string | null = `/images/authors/${n}.svg`) => ({
  authorId: {
    _id: id(100 + n),
    name,
    profilePath,
    designation: null,
    shortDescription: null,
    longDescription: null,
  },
});
const roadmap = (n: number, name: string, authors: ReturnType<typeof author>[]): RoadmapSummary =>
  ({
    _id: id(n),
    name,
    description: '',
    language: { _id: id(50), name: n === 3 ? 'Spanish' : 'English' },
    subject: { _id: id(60), name: 'Programming', topics: [] },
    topic: null,
    imgPath: `/images/roadmaps/${n}.svg`,
    authors,
    prerequisites: [],
    duration: 0,
    totalLectures: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
  }) as RoadmapSummary;

const LIST = [
  roadmap(1, 'Git and GitHub', [author(1, 'Sara Lindqvist'), author(2, 'Daniel Okafor')]),
  roadmap(2, 'SQL Essentials', [author(3, 'Arjun Rao', null)]),
  roadmap(3, 'Python para principiantes', []),
];

interface Script {
  list?: () => unknown;
  selection?: (roadmapId: string) => unknown;
  create?: () => unknown;
  generate?: () => unknown;
}

function setup(script: Script = {}, cancel: WidgetEventName[] = []) {
  const events: { type: WidgetEventName; detail: unknown }[] = [];
  const navigated: string[] = [];
  const calls: string[] = [];
  const client = {
    options: { baseUrl: '/api', device: 'WEB_APP' },
    refresh: async () => true,
    async call(def: CallDef, args?: { params?: Record<string, string> }) {
      calls.push(def.path);
      if (def.path === '/roadmap/list/no-auth') return (script.list ?? (() => ({ data: LIST })))();
      if (def.path === '/roadmap/prerequisite-selected-roadmap/{id}') {
        const rid = args!.params!.id!;
        return (
          script.selection ??
          (() => {
            const r = LIST.find((x) => x._id === rid)!;
            return {
              data: {
                selectedRoadmap: { roadmapId: r._id, roadmapName: r.name, subject: { name: 'Programming' } },
                prerequisites: [],
              },
            };
          })
        )(rid);
      }
      if (def.path === '/roadmap/create-roadmap/{id}')
        return (script.create ?? (() => ({ data: { _id: id(900) } })))();
      if (def.path === '/roadmap/generate-initial-assessment-questions/{id}')
        return (script.generate ?? (() => ({ data: { linkId: 'link-1' } })))();
      throw new Error(`unexpected call ${def.path}`);
    },
  } as unknown as Client;
  const host: WidgetHost = {
    client,
    siteBase: 'https://waymark.test',
    emit<E extends WidgetEventName>(type: E, detail: WidgetEventMap[E]) {
      events.push({ type, detail });
      return !cancel.includes(type);
    },
    navigate: (path) => navigated.push(path),
    role: () => null,
  };
  render(
    <WidgetHostProvider host={host}>
      <RoadmapCatalogue limit="3" />
    </WidgetHostProvider>,
  );
  return { events, navigated, calls };
}

const cardOf = (name: string) => screen.getByRole('heading', { name }).closest('li')!;
async function select(name: string) {
  await screen.findByRole('heading', { name });
  fireEvent.click(within(cardOf(name)).getByRole('button', { name: 'Select' }));
}

describe('curators', () => {
  it("'Curated By' the first curator, '...' when there are more, the product when none", () => {
    expect(curatedBy([author(1, 'Sara')])).toBe('Sara');
    expect(curatedBy([author(1, 'Sara'), author(2, 'Dan')])).toBe('Sara...');
    expect(curatedBy([])).toBe('Waymark');
  });
  it('the course page names up to three, then ...', () => {
    const four = [author(1, 'A'), author(2, 'B'), author(3, 'C'), author(4, 'D')];
    expect(curatorNames(four.slice(0, 3))).toBe('A, B, C');
    expect(curatorNames(four)).toBe('A, B, C...');
    expect(curatorNames([])).toBe('Waymark');
  });
});

describe('<RoadmapCatalogue>', () => {
  it('shows a card per roadmap: image linking to the course page, curator photo or placeholder, language, Select', async () => {
    const { events } = setup();
    await screen.findByRole('heading', { name: 'Select Roadmap' });
    const git = within(cardOf('Git and GitHub'));
    expect(git.getByText('Sara Lindqvist...')).toBeTruthy();
    expect(git.getByRole('link', { name: 'Course details of Git and GitHub' }).getAttribute('href')).toBe(
      `https://waymark.test/course-detail/${id(1)}`,
    );
    expect(cardOf('SQL Essentials').querySelector('img.wm-avatar')!.getAttribute('src')).toBe(
      PLACEHOLDER_MENTOR_IMAGE,
    );
    const python = within(cardOf('Python para principiantes'));
    expect(python.getByText('Waymark')).toBeTruthy();
    expect(python.getByText('Spanish')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Select' })).toHaveLength(3);
    await waitFor(() => expect(events).toContainEqual({ type: 'wm-load', detail: { count: 3 } }));
    expect(events).toContainEqual({ type: 'wm-ready', detail: { count: 3 } });
  });

  it('the image opens the course page unless the host cancels wm-open-course', async () => {
    const { navigated, events } = setup();
    fireEvent.click(await screen.findByRole('link', { name: 'Course details of SQL Essentials' }));
    expect(navigated).toEqual([`/course-detail/${id(2)}`]);
    expect(events.at(-1)).toEqual({
      type: 'wm-open-course',
      detail: { roadmapId: id(2), href: `https://waymark.test/course-detail/${id(2)}` },
    });
    cleanup();
    const cancelled = setup({}, ['wm-open-course']);
    fireEvent.click(await screen.findByRole('link', { name: 'Course details of SQL Essentials' }));
    expect(cancelled.navigated).toEqual([]);
  });

  it('Select without prerequisites asks to assign, then assigns and opens the preview', async () => {
    let release: (v: unknown) => void = () => {};
    const { events, navigated } = setup({
      create: () => new Promise((r) => (release = () => r({ data: { _id: id(900) } }))),
    });
    await select('Git and GitHub');
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(
      'Would you like to assign Git and GitHub roadmap in Programming subject?',
    );
    expect(within(dialog).getByRole('button', { name: 'Not now' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, I want to assign' }));
    await within(dialog).findByText('Assigning the roadmap for you.');
    release(undefined);
    await waitFor(() => expect(navigated).toEqual([`/access-assigned-roadmap/${id(900)}`]));
    expect(events.map((e) => e.type)).toEqual(['wm-load', 'wm-ready', 'wm-select', 'wm-assigned']);
    expect(localStorage.getItem('assessed_roadmap_id')).toBe(id(900));
  });

  it('Select with prerequisites lists them and offers the assessment, then opens it', async () => {
    let release: (v: unknown) => void = () => {};
    const { navigated } = setup({
      selection: (rid) => ({
        data: {
          selectedRoadmap: {
            roadmapId: rid,
            roadmapName: 'SQL Essentials',
            subject: { name: 'Data Science' },
          },
          prerequisites: [{ roadmapId: id(7), roadmapName: 'Spreadsheets' }],
        },
      }),
      generate: () => new Promise((r) => (release = () => r({ data: { linkId: 'link-7' } }))),
    });
    await select('SQL Essentials');
    const dialog = await screen.findByRole('dialog');
    expect(
      within(await within(dialog).findByRole('list', { name: 'Prerequisites' })).getByText('Spreadsheets'),
    ).toBeTruthy();
    expect(within(dialog).getByText(/mandatory/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, I like to take assessment' }));
    await within(dialog).findByText('Generating questions');
    release(undefined);
    await waitFor(() => expect(navigated).toEqual(['/initial-assessment/link-7']));
  });

  it('a host that cancels wm-select keeps the dialog closed', async () => {
    const { calls } = setup({}, ['wm-select']);
    await select('Git and GitHub');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls).not.toContain('/roadmap/prerequisite-selected-roadmap/{id}');
  });

  it('says why an assignment was refused, and what failed otherwise', async () => {
    setup({
      create: () => {
        throw new ApiError(400, {
          statusCode: 400,
          error: 'Bad Request',
          message: 'Can only learn two roadmaps at a time.',
        });
      },
    });
    await select('Git and GitHub');
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Yes, I want to assign' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Can only learn two roadmaps at a time.',
    );
    // back at the question, with Not now to leave
    expect(within(dialog).getByRole('button', { name: 'Yes, I want to assign' })).toBeTruthy();
  });

  it("says 'Couldn't fetch the Roadmap please try later.' when the list fails", async () => {
    const { events } = setup({
      list: () => {
        throw new ApiError(503, { statusCode: 503, error: 'Service Unavailable', message: 'busy' });
      },
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      "Couldn't fetch the Roadmap please try later.",
    );
    expect(events).toContainEqual({
      type: 'wm-error',
      detail: { status: 503, code: 'busy', message: "Couldn't fetch the Roadmap please try later." },
    });
  });
});
