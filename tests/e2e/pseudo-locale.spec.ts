/**
 * No string left behind (issue 31), in Chromium against the real server and its demo: every route of the
 * portal's router, signed out, as the demo learner and as the demo mentor, and the main dialogs, shown in the
 * pseudo-locale (`?lang=en-XA`: every message of the catalogue accented, longer and in brackets), and the
 * five elements on a partner page whose `lang` is `en-XA`. On each, the visible text and the accessible
 * names (aria-label, title, placeholder, alt) that have an English word and no pseudo-accent are interface
 * text that did not come through the catalogue — unless they are content: the demo's roadmaps, questions,
 * resources, lists, names and e-mails (server/demo), or what is not words (addresses, numbers, dates,
 * codes). The spec fails listing each leftover with its route.
 *
 * The routes are the router's own: a test reads every `path:` of portal/src/features/<feature>/routes.tsx and
 * fails if one is missing from ROUTES. A route that takes an id is filled from the links of the pages
 * visited before it (the demo's roadmaps, test links, awards, learner), else from the demo's data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { readCatalogue } from '../../scripts/i18n/sources.mjs';
import { DEMO_ACCOUNTS } from '../../server/demo/accounts';
import type { Client } from '../../shared/client/client';
import { testLinkList } from '../../shared/contract/assessments';
import { assessmentList, createAssessment, createQuestion } from '../../shared/contract/authoring';
import {
  generateInitialAssessment,
  myRoadmaps,
  roadmapListNoAuth,
  roadmapNoAuth,
} from '../../shared/contract/catalogue';
import { cohortList, createCohort } from '../../shared/contract/cohorts';
import { tenantUsersList } from '../../shared/contract/tenant';
import { compileCatalogue, compilePseudo } from '../../shared/i18n/compile.mjs';
import { createTranslator } from '../../shared/i18n/translator';
import { apiClient, baseUrl, signIn } from '../support/accounts';
import { expect, test } from '../support/fixtures';
import { collect, demoContent, leftoverOf, links } from '../support/leftovers';

const english = readCatalogue('en');
/** The pseudo-locale's words, for finding buttons by their name. */
const xa = createTranslator('en-XA' as never, compilePseudo(english), compileCatalogue(english));

type Who = 'visitor' | 'learner' | 'tenant';
/**
 * Every route of the router, by who visits it; `skip` says why one is not visited here. An id of a route
 * is filled from the links of the pages before it (or FALLBACK).
 */
const ROUTES: Record<string, Who | { skip: string }> = {
  '/': 'visitor',
  '/landing': 'visitor',
  '/privacy_policy': 'visitor',
  '/terms_and_conditions': 'visitor',
  '/terms': 'visitor',
  '/refund_policy': 'visitor',
  '/support': 'visitor',
  '/mailbox': 'visitor',
  '/login': 'visitor',
  '/login/sso': 'visitor',
  '/who-i-am': 'visitor',
  '/learner': 'visitor',
  '/tenant': 'visitor',
  '/verify': 'visitor',
  '/course-detail/:roadmapId': 'visitor',
  '/initial-assessment/:linkId': 'visitor',
  '/access-assigned-roadmap/:assignedRoadmapId': 'visitor',
  '/resource/:shortId': 'visitor',
  '/feather/:id': 'visitor',
  '/badge/:id': 'visitor',
  '/certificate/:id': 'visitor',
  '/verify/:awardId': 'visitor',
  '/test/:id': 'visitor',
  '/lti/app/:launchId': { skip: 'needs an LTI launch from a platform (tests/e2e/lti.spec.ts)' },
  '/dashboard': 'learner',
  '/what-was-tracked': 'learner',
  '/sorry-to-see-you-go': 'learner',
  '/thanks': 'learner',
  '/assesments': 'learner',
  '/get-link': 'learner',
  '/my-roadmaps': 'learner',
  '/all-roadmaps': 'learner',
  '/profile': 'learner',
  '/basic-profile': 'learner',
  '/check': 'learner',
  '/delete': 'learner',
  '/cli-login': 'learner',
  '/assesments/:linkId/view': 'learner',
  '/generate-testlink/:id': { skip: 'makes a test link on opening (tests/e2e/assessments.spec.ts)' },
  '/my-roadmap/:id': 'learner',
  '/roadmap/:id': 'learner',
  '/portal/users': 'tenant',
  '/portal/cohorts': 'tenant',
  '/portal/total-certificates': 'tenant',
  '/portal/total-badges': 'tenant',
  '/portal/total-feathers': 'tenant',
  '/portal/average-learning-time': 'tenant',
  '/portal/roadmaps': 'tenant',
  '/portal/sandbox': 'tenant',
  '/portal/manage-assessment': 'tenant',
  '/portal/question-bank': 'tenant',
  '/portal/integrations': { skip: 'goes to /portal/integrations/api-keys' },
  '/portal/integrations/api-keys': 'tenant',
  '/portal/integrations/single-sign-on': 'tenant',
  '/portal/integrations/provisioning': 'tenant',
  '/portal/integrations/webhooks': 'tenant',
  '/portal/integrations/learning-record-store': 'tenant',
  '/portal/integrations/lms': 'tenant',
  '/portal/integrations/activity-log': 'tenant',
  '/portal/cohorts/:cohortId': 'tenant',
  '/portal/roadmaps/:roadmapId/roadmap': 'tenant',
  '/portal/roadmap/:id': 'tenant',
  '/portal/create-assessment/:assessmentId': 'tenant',
  '/portal/create-question/:id': 'tenant',
  '/portal/users/:userId': { skip: 'the layout of the pages below it' },
  '/portal/users/:userId/analytics': 'tenant',
  '/portal/users/:userId/testlink/:linkId': 'tenant',
  '/portal/users/:userId/assigned-roadmaps': 'tenant',
  '/portal/users/:userId/assigned-roadmaps/:id': 'tenant',
  '/portal/users/:userId/all-roadmaps': 'tenant',
  '/portal/users/:userId/roadmap/:roadmapId': 'tenant',
};

/**
 * Data, not interface text, that the content filter cannot know: text matched here is not reported. Each
 * says what it is.
 */
const KNOWN: { route: RegExp; text: RegExp; owner: string }[] = [
  // the activity log's user agent of this spec's own API calls (Node's fetch sends "node")
  { route: /^\/portal\/integrations\//, text: /^node$/, owner: 'data: a user agent' },
];

/** The name of the cohort and the assessment the spec makes for the demo mentor, when it has none. */
const SWEEP = 'Pseudo-locale sweep';
const CONTENT = demoContent([SWEEP]);

/**
 * The paths of the routes that take ids, from the demo's data (the learner's roadmap, test links and
 * awards; the mentor's learner, cohort, assessment and question — made when the demo has none).
 */
async function demoPaths(learner: Client, mentor: Client): Promise<string[]> {
  const links = (await learner.call(testLinkList, { query: {} })).data;
  const done = links.filter((l) => l.isCompleted);
  const open = links.find((l) => !l.isCompleted);
  const byType = (type: string) => done.find((l) => l.type === type) ?? done[0];
  const assigned = (await learner.call(myRoadmaps, {})).data[0];
  const catalogue = (await learner.call(roadmapListNoAuth, { query: {} })).data;
  const roadmapId = catalogue[0]!._id;
  // a prerequisite assessment, drawn as a visitor draws one before signing in
  const withPrerequisites = catalogue.find((r) => r.prerequisites.length > 0);
  const initial = withPrerequisites
    ? (await apiClient(null).call(generateInitialAssessment, { params: { id: withPrerequisites._id } })).data
    : null;
  const roadmap = (await learner.call(roadmapNoAuth, { params: { roadmapId } })).data;
  const shortId = roadmap.sections.flatMap((s) => s.resources)[0]?.shortId;
  const userId = (await mentor.call(tenantUsersList, { query: {} })).data.tenantUserList.find(
    (u) => u.learnerId.email === DEMO_ACCOUNTS.learner.email,
  )?.learnerId._id;
  const cohorts = (await mentor.call(cohortList, {})).data;
  const cohortId = cohorts[0]?._id ?? (await mentor.call(createCohort, { body: { name: SWEEP } })).data._id;
  const assessments = (await mentor.call(assessmentList, {})).data;
  const assessmentId =
    assessments[0]?._id ?? (await mentor.call(createAssessment, { body: { name: SWEEP } })).data._id;
  const questionId = (await mentor.call(createQuestion, { body: { assessmentId } })).data.questionId;
  return [
    `/course-detail/${roadmapId}`,
    `/roadmap/${roadmapId}`,
    `/portal/roadmap/${roadmapId}`,
    `/portal/roadmaps/${roadmapId}/roadmap`,
    ...(shortId ? [`/resource/${shortId}`] : []),
    ...(assigned ? [`/my-roadmap/${assigned._id}`, `/access-assigned-roadmap/${assigned._id}`] : []),
    ...(open ? [`/test/${open.linkId}`] : []),
    ...(initial ? [`/initial-assessment/${initial.linkId}`] : []),
    ...(done[0] ? [`/assesments/${done[0].linkId}/view`] : []),
    `/feather/${byType('RESOURCE')?.linkId}`,
    `/badge/${byType('SECTION')?.linkId}`,
    `/certificate/${(byType('SUBJECT') ?? byType('ROADMAP'))?.linkId}`,
    `/verify/${(byType('SUBJECT') ?? byType('ROADMAP'))?.linkId}`,
    `/portal/cohorts/${cohortId}`,
    `/portal/create-assessment/${assessmentId}`,
    `/portal/create-question/${questionId}`,
    ...(userId
      ? [
          `/portal/users/${userId}/analytics`,
          `/portal/users/${userId}/assigned-roadmaps`,
          `/portal/users/${userId}/all-roadmaps`,
          `/portal/users/${userId}/roadmap/${roadmapId}`,
          ...(done[0] ? [`/portal/users/${userId}/testlink/${done[0].linkId}`] : []),
          ...(assigned ? [`/portal/users/${userId}/assigned-roadmaps/${assigned._id}`] : []),
        ]
      : []),
  ];
}

const patternOf = (route: string) => new RegExp(`^${route.replace(/:[A-Za-z]+/g, '[^/]+')}$`);

/** Leftovers found, by route. */
const found = new Map<string, Set<string>>();

function record(route: string, items: { text: string; how: string }[]) {
  for (const { text, how } of items) {
    if (!leftoverOf(text, CONTENT)) continue;
    if (KNOWN.some((k) => k.route.test(route) && k.text.test(text))) continue;
    const set = found.get(route) ?? new Set();
    set.add(`${how}: ${JSON.stringify(text)}`);
    found.set(route, set);
  }
}

/** Waits for the page to have drawn what it loads. */
async function settle(page: Page) {
  await page
    .waitForFunction(
      () => document.querySelector('h1') && !document.querySelector('[aria-busy="true"], .loader'),
      null,
      {
        timeout: 5_000,
      },
    )
    .catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: 2_000 }).catch(() => undefined);
}

/** Opens `path` in the pseudo-locale, records its leftovers under `route`; the links it shows. */
async function sweep(page: Page, route: string, path: string): Promise<string[]> {
  await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=en-XA`);
  await settle(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  record(route, await page.evaluate(collect));
  return page.evaluate(links);
}

/**
 * Opens a dialog by its button's message key (its name starts with the message; a `{name}` in it is
 * content), records it under `route`, and closes it.
 */
async function dialog(page: Page, route: string, button: string) {
  const [head] = xa.t(button as never, { name: '\u0000' }).split('\u0000');
  const name = new RegExp(`^${head!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  const opener = page.getByRole('button', { name }).first();
  const shown = await opener.waitFor({ timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  if (!shown) {
    record(route, [{ text: `(no button ${button} to open its dialog)`, how: 'spec' }]);
    return;
  }
  await opener.click();
  await page
    .getByRole('dialog')
    .last()
    .waitFor({ timeout: 5_000 })
    .catch(() => undefined);
  await settle(page);
  record(`${route} (dialog ${button})`, await page.evaluate(collect));
  await page.keyboard.press('Escape');
}

/** Visits every route of `who`: those without ids first, then each with an id the links give. */
async function sweepAs(
  page: Page,
  who: Who,
  known: Set<string>,
  dialogs: Record<string, string[]>,
): Promise<string[]> {
  const routes = Object.entries(ROUTES)
    .filter(([, w]) => w === who)
    .map(([r]) => r);
  const todo = new Set(routes);
  const paths = (r: string) => [...known].filter((p) => patternOf(r).test(p));
  for (let progress = true; progress && todo.size; ) {
    progress = false;
    for (const route of [...todo]) {
      const path = route.includes(':') ? paths(route)[0] : route;
      if (!path) continue;
      todo.delete(route);
      progress = true;
      for (const link of await sweep(page, route, path)) known.add(link);
      for (const button of dialogs[route] ?? []) await dialog(page, route, button);
    }
  }
  return [...todo];
}

/** A phone's screen: the portal's mobile-only labels and its menu. */
const PHONE = { viewport: { width: 375, height: 800 } };

/** A browser signed in as the account, and a session of its own for the API. */
async function signedIn(
  browser: Browser,
  account: { email: string; password: string },
  screen: typeof PHONE | object = {},
) {
  const context: BrowserContext = await browser.newContext({ baseURL: baseUrl(), ...screen });
  const page = await context.newPage();
  const { session } = await signIn(account.email, { password: account.password });
  await page.goto('/privacy_policy');
  await page.evaluate((s) => localStorage.setItem('waymark.session', JSON.stringify(s)), session);
  // a session of its own: the page's rotates its refresh token
  const { api } = await signIn(account.email, { password: account.password });
  return { context, page, api };
}

test('every route of the router is on the sweep’s list', () => {
  const dir = 'portal/src/features';
  const listed = Object.keys(ROUTES);
  for (const feature of readdirSync(dir)) {
    let source: string;
    try {
      source = readFileSync(`${dir}/${feature}/routes.tsx`, 'utf8');
    } catch {
      continue;
    }
    for (const [, path] of source.matchAll(/path: '([^']+)'/g)) {
      const ok = path!.startsWith('/')
        ? listed.includes(path!)
        : listed.some((r) => r.startsWith('/portal/') && r.includes(`/${path}`));
      expect(ok, `${feature}/routes.tsx's '${path}' is not on ROUTES`).toBe(true);
    }
  }
});

test('the portal in the pseudo-locale: no interface text outside the catalogue', async ({ browser }) => {
  found.clear();
  test.setTimeout(120_000);
  const learner = await signedIn(browser, DEMO_ACCOUNTS.learner);
  const mentor = await signedIn(browser, DEMO_ACCOUNTS.mentor);
  const visitorContext = await browser.newContext({ baseURL: baseUrl() });
  const visitor = await visitorContext.newPage();
  const known = new Set<string>(await demoPaths(learner.api, mentor.api));
  const unreached: string[] = [];
  try {
    const [learnerLeft, tenantLeft, visitorLeft] = await Promise.all([
      sweepAs(learner.page, 'learner', known, {
        '/assesments': ['subjectTest.title'],
      }),
      sweepAs(mentor.page, 'tenant', known, {
        '/portal/users': ['users.add'],
        '/portal/manage-assessment': ['manage.create'],
        '/portal/cohorts/:cohortId': ['cohorts.delete'],
        '/portal/create-assessment/:assessmentId': ['builder.import'],
        '/portal/users/:userId/analytics': ['tenant.viewReportOf'],
      }),
      sweepAs(visitor, 'visitor', known, {}),
    ]);
    unreached.push(...learnerLeft, ...tenantLeft, ...visitorLeft);
  } finally {
    await Promise.all([learner.context.close(), mentor.context.close(), visitorContext.close()]);
  }
  const report = [...found].map(([route, items]) => `${route}\n  ${[...items].join('\n  ')}`);
  // routes with an id the demo does not give; interface text not from the catalogue, by route
  expect({ unreached, report }).toEqual({ unreached: [], report: [] });
});

test('the five elements on a partner page in the pseudo-locale', async ({ page }) => {
  found.clear();
  const { api } = await signIn(DEMO_ACCOUNTS.learner.email, { password: DEMO_ACCOUNTS.learner.password });
  const links = (await api.call(testLinkList, { query: {} })).data;
  const roadmapId = (await api.call(roadmapListNoAuth, { query: {} })).data[0]!._id;
  const open = links.find((l) => !l.isCompleted)?.linkId ?? 'none';
  const award = links.find((l) => l.isCompleted)?.linkId ?? 'none';
  const partner = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><html lang="en-XA"><title>Partner</title><main><h1>Partner</h1>
      <wm-roadmap-catalogue></wm-roadmap-catalogue>
      <wm-course-detail roadmap-id="${roadmapId}"></wm-course-detail>
      <wm-test-taker link-id="${open}"></wm-test-taker>
      <wm-award link-id="${award}"></wm-award>
      <wm-dashboard></wm-dashboard>
      </main>${['roadmap-catalogue', 'course-detail', 'test-taker', 'award', 'dashboard']
        .map((n) => `<script type="module" src="${baseUrl()}/widgets/${n}.js"></script>`)
        .join('')}</html>`,
    );
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://127.0.0.1:${(partner.address() as AddressInfo).port}/`);
    await expect(
      page.locator('wm-roadmap-catalogue').getByRole('heading', { name: xa.t('catalogue.heading') }),
    ).toBeVisible();
    // each element has drawn, in the pseudo-locale (its text accented), not a loader
    const tags = ['wm-roadmap-catalogue', 'wm-course-detail', 'wm-test-taker', 'wm-award', 'wm-dashboard'];
    await page.waitForFunction(
      (names) =>
        names.every((n) => {
          const root = document.querySelector(n)?.shadowRoot;
          return (
            root &&
            !root.querySelector('.loader, [aria-busy="true"]') &&
            /[åéîöûŕšţ]/i.test(root.textContent ?? '')
          );
        }),
      tags,
    );
    record(
      'partner page',
      (await page.evaluate(collect)).filter((x) => x.text !== 'Partner'),
    );
  } finally {
    await new Promise((resolve) => partner.close(resolve));
  }
  const report = [...found].map(([route, items]) => `${route}\n  ${[...items].join('\n  ')}`);
  expect(report, 'element text not from the catalogue').toEqual([]);
});

/** Opens the signed-in layout's menu (a phone's), records it under `route`, and closes it. */
async function menu(page: Page, route: string) {
  const button = page.getByRole('button', { name: xa.t('nav.menu'), exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('navigation', { name: xa.t('nav.main') })).toBeVisible();
  record(`${route} (menu)`, await page.evaluate(collect));
  await button.click();
}

/** A route's pages of a thing that does not exist (an id nobody has). */
const NOBODY = '00000000-0000-4000-8000-000000000000';

test('a phone’s width, the menu opened, and error states in the pseudo-locale', async ({ browser }) => {
  found.clear();
  test.setTimeout(60_000);
  const learner = await signedIn(browser, DEMO_ACCOUNTS.learner, PHONE);
  const mentor = await signedIn(browser, DEMO_ACCOUNTS.mentor, PHONE);
  const visitorContext = await browser.newContext({ baseURL: baseUrl(), ...PHONE });
  const visitor = await visitorContext.newPage();
  const at = (route: string) => `${route} (375 px)`;
  try {
    await Promise.all([
      (async () => {
        const page = learner.page;
        for (const route of ['/dashboard', '/my-roadmaps', '/assesments', '/profile']) {
          await sweep(page, at(route), route);
          await menu(page, at(route));
        }
        // a toast after an action: the profile, saved as it is
        await page.getByRole('button', { name: xa.t('profile.save'), exact: true }).click();
        await expect(page.getByRole('status').filter({ hasText: xa.t('profile.saved') })).toBeVisible();
        record(at('/profile (saved: its toast)'), await page.evaluate(collect));
      })(),
      (async () => {
        for (const route of ['/portal/users', '/portal/cohorts', '/portal/question-bank']) {
          await sweep(mentor.page, at(route), route);
          await menu(mentor.page, at(route));
        }
      })(),
      (async () => {
        for (const route of ['/', '/support']) await sweep(visitor, at(route), route);
        // the sign-in form submitted empty: its fields' errors
        await sweep(visitor, at('/login'), '/login');
        await visitor.getByRole('button', { name: xa.t('auth.login'), exact: true }).click();
        await visitor.locator('[aria-invalid="true"]').first().waitFor({ timeout: 5_000 });
        record(at('/login (submitted empty)'), await visitor.evaluate(collect));
        // pages of what does not exist
        await sweep(visitor, at('/verify/:awardId (none)'), `/verify/${NOBODY}`);
        await sweep(visitor, at('/course-detail/:roadmapId (none)'), `/course-detail/${NOBODY}`);
        await sweep(visitor, at('/test/:id (none)'), `/test/${NOBODY}`);
      })(),
    ]);
  } finally {
    await Promise.all([learner.context.close(), mentor.context.close(), visitorContext.close()]);
  }
  const report = [...found].map(([route, items]) => `${route}\n  ${[...items].join('\n  ')}`);
  expect(report, 'interface text not from the catalogue, at 375 px and in error states').toEqual([]);
});
