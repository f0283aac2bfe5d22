/**
 * Every portal page on a phone (375 px) and a tablet (768 px), in Chromium against the real server, as
 * docs/ARCHITECTURE.md promises (every page works from 375 px up): the document never scrolls sideways, no
 * table hides columns behind a sideways scroll (on a phone tables become cards), the brand and the
 * person's name are never clipped, and axe passes at 375 px. The signed-in frame collapses to a menu
 * button that opens the sidebar.
 *
 * HOW TO ADD A PAGE: append an entry to `PAGES` below —
 *   { name: 'what it is', as: 'visitor' | 'learner' | 'mentor', path: (f) => '/the/path' }
 * `as` is who opens it (a visitor has no session); `path` may use the fixtures built once in
 * `buildFixtures()` (the learner's roadmap, test links and awards, the mentor's seat, assessment, question,
 * checkout…) — add there what a new page needs, made through the API as a user would. The page is checked
 * once its first h1 shows (give `heading` when the h1 is not the page's own, e.g. a redirect).
 * Nothing else is needed: both widths, the sideways-scroll, table, clipping and axe checks apply to it.
 * To check only some pages: WAYMARK_E2E_PAGES='part of their names' npx playwright test tests/e2e/viewports.spec.ts
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { z } from 'zod';
import type { Client } from '../../shared/client/client';
import { type CreateTestLinkInput, createTestLink, verifyTestLink } from '../../shared/contract/assessments';
import { createAssessment, createQuestion } from '../../shared/contract/authoring';
import { tenantCreateSubscription, tenantSubscriptionInfo } from '../../shared/contract/billing';
import {
  createRoadmap,
  generateInitialAssessment,
  roadmapListNoAuth,
  roadmapNoAuth,
} from '../../shared/contract/catalogue';
import { tenantAddUserV2 } from '../../shared/contract/tenant';
import { attemptHeaders, newAttemptToken } from '../../shared/rules/attempt-token';
import { type Account, apiClient, newAccount, signedInContext } from '../support/accounts';
import { takeTest } from '../support/answers';
import { assignDemoRoadmap } from '../support/catalogue';
import { expect, expectAccessible, test } from '../support/fixtures';

/** What the pages need, made once through the API. */
interface Fixtures {
  learner: Account;
  mentor: Account;
  /** A catalogue roadmap without prerequisites (JavaScript Foundations) and its first resource. */
  roadmapId: string;
  resourceId: string;
  shortId: string;
  /** The learner's copy of it. */
  assignedId: string;
  /** The learner's completed resource test (a feather), section test (a badge), subject test (a certificate). */
  featherId: string;
  badgeId: string;
  certificateId: string;
  /** A test link not started yet, and one started. */
  readyLinkId: string;
  startedLinkId: string;
  /** A visitor's prerequisite assessment and a visitor's selected roadmap. */
  initialLinkId: string;
  previewId: string;
  /** The mentor's assessment, a question of theirs, a checkout session. */
  assessmentId: string;
  questionId: string;
  checkoutId: string;
}

type Who = 'visitor' | 'learner' | 'mentor';

interface PageCase {
  name: string;
  as: Who;
  path: (f: Fixtures) => string;
  /** The h1 to wait for, when it is not simply the page's first h1. */
  heading?: string | RegExp;
}

const PAGES: PageCase[] = [
  // ---- public
  { name: 'landing', as: 'visitor', path: () => '/' },
  { name: 'landing (/landing)', as: 'visitor', path: () => '/landing' },
  { name: 'login', as: 'visitor', path: () => '/login' },
  { name: 'role chooser', as: 'visitor', path: () => '/who-i-am' },
  { name: 'sign up as learner', as: 'visitor', path: () => '/learner' },
  { name: 'sign up as mentor', as: 'visitor', path: () => '/tenant' },
  { name: 'course detail', as: 'visitor', path: (f) => `/course-detail/${f.roadmapId}` },
  { name: 'prerequisite assessment', as: 'visitor', path: (f) => `/initial-assessment/${f.initialLinkId}` },
  { name: 'assigned roadmap preview', as: 'visitor', path: (f) => `/access-assigned-roadmap/${f.previewId}` },
  { name: 'resource short link', as: 'visitor', path: (f) => `/resource/${f.shortId}` },
  { name: 'privacy policy', as: 'visitor', path: () => '/privacy_policy' },
  { name: 'terms and conditions', as: 'visitor', path: () => '/terms_and_conditions' },
  { name: 'terms', as: 'visitor', path: () => '/terms' },
  { name: 'refund policy', as: 'visitor', path: () => '/refund_policy' },
  { name: 'support', as: 'visitor', path: () => '/support' },
  { name: 'local mailbox', as: 'visitor', path: () => '/mailbox' },
  { name: 'feather', as: 'visitor', path: (f) => `/feather/${f.featherId}` },
  { name: 'badge', as: 'visitor', path: (f) => `/badge/${f.badgeId}` },
  { name: 'certificate', as: 'visitor', path: (f) => `/certificate/${f.certificateId}` },
  { name: 'verify a credential', as: 'visitor', path: () => '/verify' },
  { name: 'verify an award', as: 'visitor', path: (f) => `/verify/${f.badgeId}` },
  { name: 'sandbox checkout', as: 'visitor', path: (f) => `/sandbox-checkout/${f.checkoutId}` },
  // ---- both roles
  { name: 'profile (learner)', as: 'learner', path: () => '/profile' },
  { name: 'profile (mentor)', as: 'mentor', path: () => '/profile' },
  { name: 'basic profile', as: 'learner', path: () => '/basic-profile' },
  { name: 'check', as: 'learner', path: () => '/check' },
  { name: 'terminal sign-in', as: 'mentor', path: () => '/cli-login' },
  // ---- learner
  { name: 'dashboard', as: 'learner', path: () => '/dashboard' },
  { name: 'my roadmaps', as: 'learner', path: () => '/my-roadmaps' },
  { name: 'my roadmap', as: 'learner', path: (f) => `/my-roadmap/${f.assignedId}` },
  { name: 'all roadmaps', as: 'learner', path: () => '/all-roadmaps' },
  { name: 'roadmap', as: 'learner', path: (f) => `/roadmap/${f.roadmapId}` },
  { name: 'assessments', as: 'learner', path: () => '/assesments' },
  { name: 'answers of a test', as: 'learner', path: (f) => `/assesments/${f.featherId}/view` },
  { name: 'test, ready', as: 'learner', path: (f) => `/test/${f.readyLinkId}` },
  { name: 'test, started', as: 'learner', path: (f) => `/test/${f.startedLinkId}` },
  { name: 'generate a test link', as: 'learner', path: (f) => `/generate-testlink/${f.resourceId}` },
  { name: 'test link sent', as: 'learner', path: () => '/get-link' },
  { name: 'thanks', as: 'learner', path: () => '/thanks' },
  { name: 'sorry to see you go', as: 'learner', path: () => '/sorry-to-see-you-go' },
  { name: 'delete account', as: 'learner', path: () => '/delete' },
  { name: 'not permitted', as: 'learner', path: () => '/portal/users', heading: 'Not permitted' },
  // ---- mentor
  { name: 'users', as: 'mentor', path: () => '/portal/users' },
  { name: 'roadmap list', as: 'mentor', path: () => '/portal/roadmaps' },
  { name: 'roadmap info', as: 'mentor', path: (f) => `/portal/roadmaps/${f.roadmapId}/roadmap` },
  { name: 'roadmap info (/portal/roadmap)', as: 'mentor', path: (f) => `/portal/roadmap/${f.roadmapId}` },
  { name: 'manage assessment', as: 'mentor', path: () => '/portal/manage-assessment' },
  { name: 'assessment builder', as: 'mentor', path: (f) => `/portal/create-assessment/${f.assessmentId}` },
  { name: 'question bank', as: 'mentor', path: () => '/portal/question-bank' },
  { name: 'question editor', as: 'mentor', path: (f) => `/portal/create-question/${f.questionId}` },
  { name: 'total certificates', as: 'mentor', path: () => '/portal/total-certificates' },
  { name: 'total badges', as: 'mentor', path: () => '/portal/total-badges' },
  { name: 'total feathers', as: 'mentor', path: () => '/portal/total-feathers' },
  { name: 'learning report', as: 'mentor', path: () => '/portal/average-learning-time' },
  { name: 'learner analytics', as: 'mentor', path: (f) => `/portal/users/${f.learner.id}/analytics` },
  {
    name: "learner's test review",
    as: 'mentor',
    path: (f) => `/portal/users/${f.learner.id}/testlink/${f.featherId}`,
  },
  {
    name: "learner's roadmaps",
    as: 'mentor',
    path: (f) => `/portal/users/${f.learner.id}/assigned-roadmaps`,
  },
  {
    name: "learner's roadmap progress",
    as: 'mentor',
    path: (f) => `/portal/users/${f.learner.id}/assigned-roadmaps/${f.assignedId}`,
  },
  {
    name: 'all roadmaps for a learner',
    as: 'mentor',
    path: (f) => `/portal/users/${f.learner.id}/all-roadmaps`,
  },
  {
    name: 'roadmap for a learner',
    as: 'mentor',
    path: (f) => `/portal/users/${f.learner.id}/roadmap/${f.roadmapId}`,
  },
  { name: 'not permitted (mentor)', as: 'mentor', path: () => '/dashboard', heading: 'Not permitted' },
];

/** WAYMARK_E2E_PAGES=text checks only the pages whose name holds it (to try a new entry on its own). */
const only = process.env.WAYMARK_E2E_PAGES?.toLowerCase();
const CHECKED = only ? PAGES.filter((p) => p.name.toLowerCase().includes(only)) : PAGES;

/** Runs `make` on each item in turn and returns the first result that is not null. */
async function firstOf<T, R>(items: readonly T[], make: (item: T) => Promise<R | null>): Promise<R | null> {
  for (const item of items) {
    const made = await make(item).catch(() => null);
    if (made !== null) return made;
  }
  return null;
}

async function passed(api: Client, linkId: string) {
  await takeTest(api, linkId, 'right');
  return linkId;
}

async function buildFixtures(): Promise<Fixtures> {
  const [learner, mentor] = await Promise.all([
    newAccount({ prefix: 'phone', name: 'Pia Phone' }),
    newAccount({ role: 'TENANT', prefix: 'phone-mentor', name: 'Manu Phone-Mentor' }),
  ]);
  const api = learner.api;
  const visitor = apiClient(null);
  const copy = await assignDemoRoadmap(api);
  const link = (body: z.input<typeof CreateTestLinkInput>) =>
    api.call(createTestLink, { body }).then((r) => r.data.testLinkId);
  const resources = copy.sections.flatMap((s) => s.resources.map((r) => ({ section: s, resource: r })));
  const featherId = await firstOf(resources, ({ section, resource }) =>
    link({
      type: 'RESOURCE',
      assignedRoadmapId: copy._id,
      sectionId: section._id,
      resourceId: resource._id,
    }).then((id) => passed(api, id)),
  );
  const badgeId = await firstOf(copy.sections, (section) =>
    link({ type: 'SECTION', assignedRoadmapId: copy._id, sectionId: section._id }).then((id) =>
      passed(api, id),
    ),
  );
  const certificateId = await passed(
    api,
    await link({ type: 'SUBJECT', subject: copy.subject._id, lookingForJob: 'IN FUTURE' }),
  );
  const fresh = async () => {
    const made = await firstOf(resources, ({ section, resource }) =>
      link({
        type: 'RESOURCE',
        assignedRoadmapId: copy._id,
        sectionId: section._id,
        resourceId: resource._id,
      }),
    );
    expect(made, 'a resource test link').toBeTruthy();
    return made!;
  };
  const readyLinkId = await fresh();
  const startedLinkId = await fresh();
  // started as the test page starts it, with an attempt token of its own (decision 031)
  await api.call(verifyTestLink, {
    params: { id: startedLinkId },
    headers: attemptHeaders(newAttemptToken()),
  });
  expect(featherId && badgeId, 'the demo bank gives a feather and a badge').toBeTruthy();

  const catalogue = (await visitor.call(roadmapListNoAuth, { query: {} })).data;
  const dom = catalogue.find((r) => r.prerequisites.length > 0)!;
  const git = catalogue.find((r) => r.prerequisites.length === 0 && r._id !== copy.roadmapId)!;
  const initialLinkId = (await visitor.call(generateInitialAssessment, { params: { id: dom._id } })).data
    .linkId;
  const previewId = (await visitor.call(createRoadmap, { params: { id: git._id } })).data._id;
  const full = (await visitor.call(roadmapNoAuth, { params: { roadmapId: copy.roadmapId } })).data;
  const first = full.sections[0]!.resources[0]!;

  expect((await mentor.api.call(tenantAddUserV2, { body: { email: learner.email } })).data.outcome).toBe(
    'ADDED',
  );
  const assessmentId = (await mentor.api.call(createAssessment, { body: { name: 'Phone check' } })).data._id;
  const questionId = (await mentor.api.call(createQuestion, { body: { questionType: 'MCQ' } })).data
    .questionId;
  const info = (await mentor.api.call(tenantSubscriptionInfo)).data;
  const checkout = (
    await mentor.api.call(tenantCreateSubscription, {
      body: { priceId: info.priceId, quantity: info.freeSeats + 1 },
    })
  ).data;

  return {
    learner,
    mentor,
    roadmapId: copy.roadmapId,
    resourceId: first._id,
    shortId: first.shortId,
    assignedId: copy._id,
    featherId: featherId!,
    badgeId: badgeId!,
    certificateId,
    readyLinkId,
    startedLinkId,
    initialLinkId,
    previewId,
    assessmentId,
    questionId,
    checkoutId: checkout.id,
  };
}

/** What a page shows that a phone or a tablet would get wrong. */
async function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) {
      // name the widest offenders, to say where to look
      const wide = [...document.body.querySelectorAll<HTMLElement>('*')]
        .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1)
        .filter((el) => el.checkVisibility?.() ?? true)
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
      faults.push(
        `the page scrolls sideways: ${doc.scrollWidth} px wide in ${doc.clientWidth} (${wide.join(', ')})`,
      );
    }
    for (const table of document.querySelectorAll<HTMLTableElement>('table')) {
      if (!(table.checkVisibility?.() ?? true) || table.closest('.visually-hidden')) continue;
      const box = table.parentElement!;
      if (box.scrollWidth > box.clientWidth + 1) {
        const name =
          table.querySelector('caption')?.textContent ?? table.getAttribute('aria-label') ?? 'a table';
        faults.push(
          `${name}: ${box.scrollWidth - box.clientWidth} px of the table are behind a sideways scroll`,
        );
      }
    }
    for (const el of document.querySelectorAll<HTMLElement>('.brand, .profile-button')) {
      if (!(el.checkVisibility?.() ?? true)) continue;
      if (el.scrollWidth > el.clientWidth + 1) faults.push(`"${el.textContent?.trim()}" is clipped`);
    }
    return faults;
  });
}

test.describe('every portal page on a phone and a tablet', () => {
  let fixtures: Fixtures;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    fixtures = await buildFixtures();
  });

  async function contexts(browser: Browser, width: number) {
    const made: Record<Who, { context: BrowserContext; page: Page }> = {
      visitor: await (async () => {
        const context = await browser.newContext({
          baseURL: process.env.WAYMARK_E2E_BASE_URL,
          viewport: { width, height: 800 },
        });
        return { context, page: await context.newPage() };
      })(),
      learner: await signedInContext(browser, fixtures.learner, { width }),
      mentor: await signedInContext(browser, fixtures.mentor, { width }),
    };
    return made;
  }

  // each page is loaded once, at 375 px, then widened to 768 px in place: the layout follows the width
  // (CSS media queries, and matchMedia where a component reads it), and half the page loads are saved
  test("at 375 and 768 px no page scrolls sideways, hides a table's columns or clips the top bar", async ({
    browser,
  }) => {
    test.setTimeout(120_000 + CHECKED.length * 15_000); // three signed-in contexts, then each page
    const open = await contexts(browser, 375);
    for (const p of CHECKED) {
      const page = open[p.as].page;
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(p.path(fixtures));
      const heading = page.getByRole('heading', { level: 1, ...(p.heading ? { name: p.heading } : {}) });
      await expect.soft(heading.first(), `${p.name}: its heading`).toBeVisible();
      // measure once what the page loads has come (its loaders gone), not before
      await expect
        .poll(() => page.locator('.loader').count(), { message: `${p.name}: still loading` })
        .toBe(0)
        .catch(() => undefined);
      expect.soft(await layoutFaults(page), `${p.name} (${p.path(fixtures)}) at 375 px`).toEqual([]);
      await expectAccessible(page, `${p.name} at 375 px`).catch((err: Error) => {
        expect.soft(err.message, `${p.name}: axe at 375 px`).toBe('');
      });
      await page.setViewportSize({ width: 768, height: 800 });
      await expect.poll(() => page.evaluate(() => document.documentElement.clientWidth)).toBeGreaterThan(700);
      expect.soft(await layoutFaults(page), `${p.name} (${p.path(fixtures)}) at 768 px`).toEqual([]);
    }
    for (const { context } of Object.values(open)) await context.close();
  });

  test('at 375 px the top bar collapses to a menu button that opens the sidebar', async ({ browser }) => {
    for (const who of ['learner', 'mentor'] as const) {
      const { context, page } = await signedInContext(browser, fixtures[who], { width: 375 });
      await page.goto(who === 'learner' ? '/my-roadmaps' : '/portal/users');
      const nav = page.getByRole('navigation', { name: 'Main' });
      const menu = page.getByRole('button', { name: 'Menu' });
      await expect(menu).toBeVisible();
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(nav).toBeHidden();
      await expect(page.getByRole('link', { name: 'Waymark home' })).toBeVisible();
      await menu.click();
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      await expect(nav).toBeVisible();
      await expect(
        page.getByRole('link', { name: new RegExp(`^Profile of ${fixtures[who].name}`) }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      await expectAccessible(page, `${who}'s menu open`);
      const second = who === 'learner' ? 'Assessments' : 'Roadmaps';
      await nav.getByRole('link', { name: second }).click();
      await expect(nav, 'the menu closes once a page is chosen').toBeHidden();
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      // Escape closes it too, and gives the focus back to the button
      await menu.click();
      await expect(nav).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(nav).toBeHidden();
      await expect(menu).toBeFocused();
      await context.close();
    }
  });
});
