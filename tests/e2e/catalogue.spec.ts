/**
 * The catalogue and the public site end to end, in Chromium against the real server and its demo
 * catalogue (mentor §1, §2.9–2.13, §2.15–2.16; learner §2, §4):
 * - a visitor browses the landing page, opens a course, selects it, signs up (Auth emulator) and finds it
 *   in /my-roadmaps; a second roadmap is assigned from /roadmap/{id}, a third refused;
 * - the prerequisite flow: the assessment, then a roadmap whose weak prerequisite sections come first;
 * - /all-roadmaps filters survive a reload, and /my-roadmaps' empty state;
 * - <wm-roadmap-catalogue>, <wm-course-detail> and <wm-dashboard> on the demo page served by the product,
 *   plain and inside its single-page app, firing wm-select; <wm-dashboard> on another origin;
 * - /resource/{shortId} and its errors, the policy pages;
 * - the contact form, whose mail arrives in a local SMTP server (a second server, configured with SMTP_URL).
 * axe runs on every page visited.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { PASSWORD } from '../support/accounts';
import { byName, catalogue, detail } from '../support/catalogue';
import { uniqueEmail } from '../support/emulator';
import { expect, expectAccessible, signUpLearner, test } from '../support/fixtures';
import { startWaymark } from '../support/server';

/** The card of a roadmap in a catalogue (the page's, or an element's). */
function card(scope: Page | ReturnType<Page['locator']>, name: string) {
  const page = 'goto' in scope ? scope : scope.page();
  return scope.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
}

/** Holds a call of the page for a moment, so the state shown meanwhile can be checked. */
async function slowDown(page: Page, glob: string, ms = 700) {
  await page.route(glob, async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  });
}

test.describe('the catalogue and the public site', () => {
  test('a visitor browses the landing page, opens a course, selects it, signs up and finds it in My Roadmaps; a third roadmap is refused', async ({
    page,
    request,
    emulator,
  }) => {
    const list = await catalogue(request);
    const git = byName(list, 'Git and GitHub');
    const gitDetail = await detail(request, git._id);
    expect(gitDetail.tasks.length, 'the Git roadmap has more than five tasks').toBeGreaterThan(5);

    // ---- the landing page
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Select Roadmap' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'LOGIN' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('link', { name: 'GET STARTED' }).first()).toHaveAttribute(
      'href',
      '/who-i-am',
    );
    await expect(page.locator('video source')).toHaveAttribute('src', /waymark-intro/);
    await expect(page.getByRole('heading', { name: 'For Students' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'For Companies' })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Get started in six steps' }).getByRole('listitem'),
    ).toHaveCount(6);
    const plans = page.getByRole('region', { name: 'Pricing' });
    for (const [plan, to] of [
      ['Freemium', '/learner'],
      ['Enterprise', '/tenant'],
      ['Advanced', '/tenant'],
    ] as const) {
      await expect(card(plans, plan).getByRole('link', { name: 'Select' })).toHaveAttribute('href', to);
    }
    await expect(plans).toContainText('₹75');
    await expect(plans).toContainText('₹125');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: /Support/ })).toHaveAttribute('target', '_blank');
    await expect(footer.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/landing');
    for (const link of ['Terms and Conditions', 'Refund Policy', 'Privacy Policy']) {
      await expect(footer.getByRole('link', { name: link })).toBeVisible();
    }
    await expect(footer).toContainText('© 2023');
    // every card: its curator, language and Select; 'Curated By' the first curator, '...' when there are more
    await expect(page.locator('#roadmaps').getByRole('button', { name: 'Select' })).toHaveCount(list.length);
    await expect(card(page, 'Git and GitHub')).toContainText('Curated By Sara Lindqvist...');
    await expect(card(page, 'Modern JavaScript and the DOM')).toContainText(/Curated By Meera Iyer(?!\.)/);
    await expect(card(page, 'Python para principiantes')).toContainText('Spanish');
    await expectAccessible(page, 'landing');
    // sticky nav and the arrow back up after 100 px
    await expect(page.getByRole('button', { name: 'Scroll to top' })).toHaveCount(0);
    await page.mouse.wheel(0, 400);
    await expect(page.getByRole('button', { name: 'Scroll to top' })).toBeVisible();
    await expect(page.locator('header.public-nav')).toHaveAttribute('data-sticky', 'true');
    await page.getByRole('button', { name: 'Scroll to top' }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

    // ---- the course page, from the card's image
    await card(page, 'Git and GitHub')
      .getByRole('link', { name: 'Course details of Git and GitHub' })
      .click();
    await expect(page).toHaveURL(`/course-detail/${git._id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Git and GitHub' })).toBeVisible();
    await expect(page.getByText('Curated By Sara Lindqvist, Daniel Okafor, Kabir Shah')).toBeVisible();
    await expect(page.getByText('Free', { exact: true })).toBeVisible();
    const includes = page.getByRole('region', { name: 'This course includes' });
    await expect(includes).toContainText('11 lectures');
    await expect(includes).toContainText('hours on-demand content');
    await expect(includes).toContainText('Lifetime access');
    await expect(includes).toContainText('Certificate of Completion');
    for (const curator of ['Sara Lindqvist', 'Daniel Okafor', 'Kabir Shah']) {
      await expect(page.getByRole('heading', { name: curator })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
    await expectAccessible(page, 'course detail');
    await page.getByRole('tab', { name: 'Curriculum' }).click();
    await expect(page.getByRole('tab', { name: 'Roadmap' })).toHaveAttribute('aria-selected', 'true');
    const sections = page.locator('details.wm-section');
    await expect(sections).toHaveCount(gitDetail.sections.length);
    await expect(sections.first()).toContainText(gitDetail.sections[0]!.name);
    await expect(sections.first()).toContainText('3 lectures');
    await page.getByRole('tab', { name: 'Task' }).click();
    const tasks = page.getByRole('list', { name: 'Tasks' }).getByRole('listitem');
    await expect(tasks).toHaveCount(5);
    const more = page.getByRole('button', { name: `Show More (${gitDetail.tasks.length - 5} more)` });
    await expect(more).toBeVisible();
    await expectAccessible(page, 'course curriculum');
    await more.click();
    await expect(tasks).toHaveCount(gitDetail.tasks.length);
    await expect(page.getByRole('button', { name: 'Show Less' })).toHaveAttribute('aria-expanded', 'true');

    // ---- Select Course: the assign dialog, its spinner, and the preview
    await slowDown(page, '**/api/roadmap/create-roadmap/**');
    await page.getByRole('button', { name: 'Select Course' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(
      'Would you like to assign Git and GitHub roadmap in Programming subject?',
    );
    await expect(dialog.getByRole('button', { name: 'Not now' })).toBeVisible();
    await expectAccessible(page, 'assign dialog');
    await dialog.getByRole('button', { name: 'Yes, I want to assign' }).click();
    await expect(dialog).toContainText('Assigning the roadmap for you.');
    await expect(page).toHaveURL(/\/access-assigned-roadmap\/[\w-]+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Git and GitHub' })).toBeVisible();
    await expect(page.locator('.access-facts div').filter({ hasText: 'Sections' })).toContainText(
      String(gitDetail.sections.length),
    );
    await expect(page.locator('canvas.confetti'), 'confetti').toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with Microsoft' })).toBeVisible();
    await expectAccessible(page, 'assigned roadmap preview');

    // ---- sign up as a learner: the roadmap is claimed and opens; it is in My Roadmaps
    await page.getByRole('link', { name: 'sign up as a learner' }).click();
    await expect(page).toHaveURL(/\/learner$/);
    await signUpLearner(page, emulator, {
      email: uniqueEmail('visitor'),
      password: PASSWORD,
      name: 'Vera Visitor',
    });
    await expect(page).toHaveURL(/\/my-roadmap\/[\w-]+$/);
    await page.goto('/my-roadmaps');
    const mine = page.getByRole('table', { name: 'Your roadmaps' });
    await expect(mine.getByRole('row', { name: /Git and GitHub/ })).toContainText('ONGOING');
    await expectAccessible(page, 'my roadmaps');

    // ---- a second from /roadmap/{id}: 'Assign this to me...' becomes 'Assigned', then My Roadmaps
    const sql = byName(list, 'SQL Essentials');
    await page.goto(`/roadmap/${sql._id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'SQL Essentials' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Roadmap' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'Task' }).click();
    await expect(page.getByRole('tabpanel')).toContainText('SQLBolt');
    await expectAccessible(page, 'roadmap page');
    await page.getByRole('button', { name: 'Assign this to me...' }).click();
    await expect(page.getByText('Assigned', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/my-roadmaps$/);
    await expect(mine.getByRole('row')).toHaveCount(3);

    // ---- a third is refused
    await page.goto(`/roadmap/${byName(list, 'Python para principiantes')._id}`);
    await page.getByRole('button', { name: 'Assign this to me...' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Can only learn two roadmaps at a time.' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Assign this to me...' })).toBeVisible();
    await expectAccessible(page, 'roadmap refused');
  });

  test('the prerequisite assessment gives a roadmap whose weak prerequisite sections come first', async ({
    page,
    request,
  }) => {
    const list = await catalogue(request);
    const dom = byName(list, 'Modern JavaScript and the DOM');
    const foundations = await detail(request, byName(list, 'JavaScript Foundations')._id);
    const domDetail = await detail(request, dom._id);

    await page.goto('/');
    await slowDown(page, '**/api/roadmap/generate-initial-assessment-questions/**');
    await card(page, 'Modern JavaScript and the DOM').getByRole('button', { name: 'Select' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('list', { name: 'Prerequisites' })).toContainText('JavaScript Foundations');
    await expect(dialog).toContainText('mandatory');
    await expect(dialog.getByRole('button', { name: 'Not now' })).toBeVisible();
    await expectAccessible(page, 'prerequisite dialog');
    await dialog.getByRole('button', { name: 'Yes, I like to take assessment' }).click();
    await expect(dialog).toContainText('Generating questions');
    await expect(page).toHaveURL(/\/initial-assessment\/[\w-]+$/);
    await expect(page.getByText('Pre-requisite Topic: JavaScript Foundations')).toBeVisible();
    await expectAccessible(page, 'initial assessment');

    // two answers of five at most 40 %: the prerequisite is weak, whatever the answers were
    for (let i = 0; i < 2; i++) {
      const main = page.getByRole('main');
      const radio = main.getByRole('radio');
      const box = main.getByRole('checkbox');
      if (await radio.count()) await radio.first().check();
      else if (await box.count()) await box.first().check();
      else await main.getByRole('textbox').first().fill('1');
      await page.getByRole('button', { name: 'Next' }).click();
    }
    await page.getByRole('button', { name: 'Finish' }).click();
    const finish = page.getByRole('alertdialog');
    await expect(finish).toContainText("It seems that you didn't answer for all the questions");
    await finish.getByRole('button', { name: 'Submit' }).click();

    await expect(page).toHaveURL(/\/access-assigned-roadmap\/[\w-]+$/);
    const learned = page.getByRole('region', { name: 'What you will learn' }).locator('ol > li > h3');
    await expect(learned).toHaveText([
      ...foundations.sections.map((s) => s.name),
      ...domDetail.sections.map((s) => s.name),
    ]);
    await expectAccessible(page, 'personalised roadmap');
  });

  test('a short link opened before sign-in reopens after it; My Roadmaps starts empty; filters on All Roadmaps survive a reload', async ({
    page,
    request,
    emulator,
  }) => {
    const list = await catalogue(request);
    const all = list.length;
    // a short link opened before signing in is opened again once signed in (learner §4)
    const git = await detail(request, byName(list, 'Git and GitHub')._id);
    const first = git.sections[0]!.resources[0]!;
    await page.goto(`/resource/${first.shortId}`);
    await expect(page.getByText('Please install Extension to learn the resource.')).toBeVisible();
    await page.goto('/learner');
    await signUpLearner(page, emulator, {
      email: uniqueEmail('filters'),
      password: PASSWORD,
      name: 'Farah Filters',
    });
    await expect(page).toHaveURL(`/resource/${first.shortId}`);
    await expect(page.getByRole('heading', { level: 1, name: first.actualTitle })).toBeVisible();
    await page.goto('/my-roadmaps');
    await expect(page.getByText('No Roadmaps found, Take one now')).toBeVisible();
    await expectAccessible(page, 'my roadmaps, empty');
    await page.getByRole('link', { name: 'Select a Roadmap' }).click();
    await expect(page).toHaveURL(/\/all-roadmaps$/);

    const rows = page.getByRole('table', { name: 'Roadmaps' }).getByRole('row');
    await expect(rows).toHaveCount(all + 1);
    await page.getByLabel('Subject').selectOption({ label: 'Programming' });
    await page.getByLabel('Topic').selectOption({ label: 'Git' });
    await page.getByLabel('Language').selectOption({ label: 'English' });
    await expect(page).toHaveURL(/[?&]subject=[\w-]+/);
    await expect(page).toHaveURL(/[?&]topic=[\w-]+/);
    await expect(page).toHaveURL(/[?&]language=[\w-]+/);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Git and GitHub');
    const address = page.url();

    await page.reload();
    await expect(page).toHaveURL(address);
    await expect(page.getByLabel('Subject').locator('option:checked')).toHaveText('Programming');
    await expect(page.getByLabel('Topic').locator('option:checked')).toHaveText('Git');
    await expect(page.getByLabel('Language').locator('option:checked')).toHaveText('English');
    await expect(rows).toHaveCount(2);
    await expectAccessible(page, 'all roadmaps, filtered');

    await page.getByRole('link', { name: 'View Git and GitHub' }).click();
    await expect(page).toHaveURL(/\/roadmap\/[\w-]+$/);
    await page.goBack();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/all-roadmaps$/);
    await expect(rows).toHaveCount(all + 1);
  });

  test('the widgets render from the API on the demo page, plainly and inside its single-page app, and fire wm-select', async ({
    page,
    request,
    baseURL,
  }) => {
    const list = await catalogue(request);
    await page.goto('/widgets/demo.html');
    await page.evaluate(() => {
      const w = window as unknown as { selected: unknown[] };
      w.selected = [];
      document.addEventListener('wm-select', (e) => w.selected.push((e as CustomEvent).detail));
    });
    const plain = page.locator('#catalogue');
    await expect(plain.getByRole('heading', { name: 'Roadmaps from Waymark' })).toBeVisible();
    await expect(plain.getByRole('button', { name: 'Select' })).toHaveCount(Math.min(6, list.length));
    for (const r of list.slice(0, 6)) await expect(card(plain, r.name)).toBeVisible();
    // the course shown first is the catalogue's first roadmap, from the API
    const course = page.locator('#course');
    await expect(course.getByRole('heading', { level: 2, name: list[0]!.name })).toBeVisible();
    await expect(
      page.locator('#dashboard').getByRole('link', { name: /Open your Waymark dashboard/ }),
    ).toHaveAttribute('href', `${baseURL}/dashboard`);
    await expectAccessible(page, 'widget demo');

    // wm-select, then the dialog inside the element
    const sql = byName(list, 'SQL Essentials');
    await card(plain, 'SQL Essentials').getByRole('button', { name: 'Select' }).click();
    await expect(page.getByRole('dialog')).toContainText('Would you like to assign SQL Essentials roadmap');
    await page.getByRole('button', { name: 'Not now' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { selected: unknown[] }).selected)).toEqual([
      { roadmapId: sql._id, roadmapName: 'SQL Essentials' },
    ]);
    // the page cancels wm-open-course: the image shows that course in the page's own course element
    await card(plain, 'SQL Essentials')
      .getByRole('link', { name: 'Course details of SQL Essentials' })
      .click();
    await expect(page).toHaveURL(/\/widgets\/demo\.html/);
    await expect(course.getByRole('heading', { level: 2, name: 'SQL Essentials' })).toBeVisible();

    // inside the single-page app: elements created and removed by its router
    const spa = page.locator('#spa-view');
    await expect(
      spa.locator('wm-roadmap-catalogue').getByRole('heading', { name: 'Courses in our app' }),
    ).toBeVisible();
    const firstInApp = list[0]!;
    await card(spa, firstInApp.name)
      .getByRole('link', { name: `Course details of ${firstInApp.name}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`#/app/course/${firstInApp._id}$`));
    await expect(spa.locator('wm-roadmap-catalogue')).toHaveCount(0);
    await expect(spa.getByRole('heading', { level: 2, name: firstInApp.name })).toBeVisible();
    await spa.getByRole('button', { name: 'Select Course' }).click();
    await page.getByRole('button', { name: 'Not now' }).click();
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(spa.getByRole('link', { name: /Open your Waymark dashboard/ })).toBeVisible();
    await page.getByRole('link', { name: 'About' }).click();
    await expect(spa.locator('wm-roadmap-catalogue, wm-course-detail, wm-dashboard')).toHaveCount(0);
    await page.getByRole('link', { name: 'Catalogue', exact: true }).click();
    const again = spa.locator('wm-roadmap-catalogue');
    await expect(again.getByRole('button', { name: 'Select' })).toHaveCount(Math.min(4, list.length));
    await card(again, firstInApp.name).getByRole('button', { name: 'Select' }).click();
    await page.getByRole('button', { name: 'Not now' }).click();
    expect(await page.evaluate(() => (window as unknown as { selected: unknown[] }).selected)).toEqual([
      { roadmapId: sql._id, roadmapName: 'SQL Essentials' },
      { roadmapId: firstInApp._id, roadmapName: firstInApp.name },
      { roadmapId: firstInApp._id, roadmapName: firstInApp.name },
    ]);
    await expect(page.locator('#event-log')).toContainText('wm-select from spa-view');
    await expectAccessible(page, 'widget demo, single-page app');

    // on another origin (a partner's page, served for real), the dashboard offers Waymark instead
    const partner = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!doctype html><html lang="en"><title>Partner</title><main><h1>Partner</h1><wm-dashboard></wm-dashboard></main><script type="module" src="${baseURL}/widgets/dashboard.js"></script></html>`,
      );
    });
    await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://127.0.0.1:${(partner.address() as AddressInfo).port}/`);
      await expect(page.getByRole('link', { name: /Open your Waymark dashboard/ })).toHaveAttribute(
        'href',
        `${baseURL}/dashboard`,
      );
      await expectAccessible(page, 'dashboard on a partner page');
    } finally {
      await new Promise((resolve) => partner.close(resolve));
    }
  });

  test('a resource short link opens the resource, or says why not; the policy pages', async ({
    page,
    request,
  }) => {
    const ts = await detail(
      request,
      byName(await catalogue(request), 'TypeScript for JavaScript Developers')._id,
    );
    const modules = ts.sections
      .flatMap((s) => s.resources)
      .find((r) => r.actualTitle === 'JavaScript modules');
    expect(modules, 'the TypeScript roadmap has the JavaScript modules page').toBeTruthy();
    await page.goto(`/resource/${modules!.shortId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'JavaScript modules' })).toBeVisible();
    await expect(page.getByText('Please install Extension to learn the resource.')).toBeVisible();
    await expect(page.getByRole('link', { name: /Install Extension/ })).toHaveAttribute('href', /chrome/);
    await expectAccessible(page, 'resource without the extension');

    await page.goto('/resource/no-such-link');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Resource not found' })).toBeVisible();
    await page.route('**/api/resource/**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"statusCode":503,"error":"Service Unavailable","message":"busy"}',
      }),
    );
    await page.goto(`/resource/${modules!.shortId}`);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('alert').filter({ hasText: "Couldn't load the resource" })).toBeVisible();

    for (const [path, title, facts] of [
      ['/privacy_policy', 'Privacy Policy', ['January 2023', '13 years']],
      ['/terms_and_conditions', 'Terms and Conditions', ['March 2023']],
      ['/terms', 'Terms and Conditions', ['March 2023']],
      ['/refund_policy', 'Refund Policy', ['No refunds', 'end of the current billing period']],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      for (const fact of facts) await expect(page.getByRole('main')).toContainText(fact);
      await expectAccessible(page, title);
    }
  });

  test('the contact form: messages once touched, Sending..., thanks, and the mail in a local SMTP server', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const received: { to: string[]; raw: string }[] = [];
    const smtp = new SMTPServer({
      // its built-in certificate has expired: plain SMTP on loopback
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, done) {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          raw += chunk;
        });
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const server = await startWaymark({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      SUPPORT_EMAIL: 'help@waymark.test',
      FIREBASE_AUTH_EMULATOR_HOST: process.env.WAYMARK_E2E_EMULATOR_HOST ?? '127.0.0.1:9099',
    });
    try {
      await page.goto(`${server.url}/support`);
      await expect(page.getByRole('heading', { level: 1, name: 'Need help?' })).toBeVisible();
      // nothing is said before a field is touched; then each says what it needs
      await expect(page.getByText('Name is required')).toHaveCount(0);
      await page.getByLabel('Name').focus();
      await page.getByLabel('Email').focus();
      await expect(page.getByText('Name is required')).toBeVisible();
      await page.getByLabel('Email').fill('asha@');
      await page.getByLabel('Subject').focus();
      await expect(page.getByText('Invalid email address')).toBeVisible();
      await page.getByLabel('Message').focus();
      await page.getByLabel('Name').focus();
      await expect(page.getByText('Subject is required')).toBeVisible();
      await expect(page.getByText('Message is required')).toBeVisible();
      await expectAccessible(page, 'contact form with errors');

      await page.getByLabel('Name').fill('Asha Visitor');
      await page.getByLabel('Email').fill('asha@example.com');
      await page.getByLabel('Subject').fill('Discount for schools');
      await page.getByLabel('Message').fill('Do you offer a discount for a school of 400 learners?');
      await slowDown(page, '**/api/contact-us/send-email');
      await page.getByRole('button', { name: 'Send Message' }).click();
      await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled();
      await expect(page.getByText('Thanks for contacting Us.')).toBeVisible();
      await expect(page.getByText('We will get back to you in 24 hrs.')).toBeVisible();
      await expectAccessible(page, 'contact form sent');

      await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
      const [mail] = received;
      expect(mail!.to).toEqual(['help@waymark.test']);
      expect(mail!.raw).toMatch(/^Reply-To: asha@example\.com\r?$/m);
      expect(mail!.raw).toMatch(/^Subject: Contact: Discount for schools\r?$/m);
      expect(mail!.raw.replace(/=\r?\n/g, '')).toContain(
        'Do you offer a discount for a school of 400 learners?',
      );
    } finally {
      await server.stop();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
