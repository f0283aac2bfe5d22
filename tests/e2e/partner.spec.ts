/**
 * The elements on a partner's site: a second origin (tests/support/partner.ts) that loads them from the
 * Waymark server, in Chromium, against the real server and its demo catalogue.
 *
 * This part proves the promises of decision 015 and docs/embed.md, each on plain pages:
 * - a property set before the element's file has loaded is applied, and so is the lower-case attribute
 *   React 19 and Vue 3 write for a camelCase prop before the element is defined (`linkId` → `linkid`);
 * - the documented custom properties set on the host change what the element draws;
 * - sizes do not follow the partner page's root font size;
 * - `wm-load`'s count is what is shown (it honours `limit`).
 * And what a partner relies on:
 * - the copy-paste snippet of /widgets/manifest.json, pinned to /widgets/{version}/ with SRI, works and a
 *   file that is not the release's is refused; the versioned files are immutable, "latest" short-lived;
 * - every documented part and custom property (read from /widgets/custom-elements.json) is there and
 *   changes what it names;
 * - every documented event fires on the partner's origin as its visitor drives the element (Select and its
 *   dialog, a real test taken through <wm-test-taker>, unknown ids, the Assessment action of a dashboard
 *   given a learner's session and a dashboard given a revoked one), with the `detail` and cancelability
 *   custom-elements.json documents; a documented event nothing fires fails, and so does an undocumented one;
 * - every documented attribute and property, set either way, changes the element (a table the manifest is
 *   checked against: a new attribute without its line fails);
 * - a React 19 app and a Vue 3 app, built with the npm package installed from its tarball and type-checked
 *   against its typings (tests/partner-apps/build.mjs), route between views that create and remove the
 *   elements, set their props before the elements are defined, and get their events; nothing is left
 *   behind; every view passes axe.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { APIRequestContext, Locator } from '@playwright/test';
import type { Client } from '../../shared/client/client';
import { getCurrentResource } from '../../shared/contract/activity';
import { createTestLink, testLinkList } from '../../shared/contract/assessments';
import { logout } from '../../shared/contract/auth';
import { roadmapListNoAuth } from '../../shared/contract/catalogue';
import { createSandbox } from '../../shared/contract/sandbox';
import { apiClient, baseUrl, newAccount, signIn } from '../support/accounts';
import { answerShown, takeTest } from '../support/answers';
import { assignDemoRoadmap } from '../support/catalogue';
import { expect, expectAccessible, test } from '../support/fixtures';
import { type PartnerSite, partnerPage, startPartnerSite } from '../support/partner';

const widget = (name: string) => `${baseUrl()}/widgets/${name}.js`;

/** Answers a fresh RESOURCE link of the learner's first resource with questions right: its link id. */
async function earnFeather(api: Client): Promise<string> {
  const roadmap = await assignDemoRoadmap(api);
  for (const section of roadmap.sections) {
    for (const resource of section.resources) {
      const link = await api
        .call(createTestLink, {
          body: {
            type: 'RESOURCE',
            assignedRoadmapId: roadmap._id,
            sectionId: section._id,
            resourceId: resource._id,
          },
        })
        .catch(() => null);
      if (!link) continue;
      const { result } = await takeTest(api, link.data.testLinkId, 'right');
      expect(result.status).toBe('GENERATE_CERTIFICATE');
      return link.data.testLinkId;
    }
  }
  throw new Error('no demo resource has questions');
}

let site: PartnerSite;
let learnerApi: Client;
let featherId: string;
let roadmaps: { _id: string; name: string }[];

test.beforeAll(async () => {
  site = await startPartnerSite();
  site.page('/config.js', `window.WAYMARK_URL = ${JSON.stringify(baseUrl())};`);
  const learner = await newAccount({ prefix: 'partner', name: 'Priya Partner' });
  learnerApi = learner.api;
  featherId = await earnFeather(learner.api);
  roadmaps = (await apiClient(null).call(roadmapListNoAuth, { query: {} })).data;
});

test.afterAll(async () => {
  await site?.close();
});

test.describe('promises that did not hold', () => {
  test('properties set before the file loads, and the attributes React and Vue write then, are applied', async ({
    page,
  }) => {
    const url = site.page(
      '/plain/early.html',
      partnerPage(
        'Set early',
        '<wm-award id="by-property"></wm-award><wm-award id="by-framework-attribute"></wm-award><wm-roadmap-catalogue id="limited"></wm-roadmap-catalogue>',
        {
          script: `
            window.loads = [];
            document.addEventListener('wm-load', (e) => loads.push({ id: e.target.id, detail: e.detail }));
            document.getElementById('by-property').linkId = ${JSON.stringify(featherId)};
            // what React 19 and Vue 3 do with <wm-award linkId={…}> while wm-award is not defined yet
            document.getElementById('by-framework-attribute').setAttribute('linkId', ${JSON.stringify(featherId)});
            document.getElementById('limited').limit = 1;
            await import(${JSON.stringify(widget('award'))});
            await import(${JSON.stringify(widget('roadmap-catalogue'))});
          `,
        },
      ),
    );
    await page.goto(url);
    for (const id of ['by-property', 'by-framework-attribute']) {
      const award = page.locator(`#${id}`);
      await expect(award.getByRole('img', { name: /^Feather: .+, awarded to Priya Partner/ })).toBeVisible();
      await expect(award.getByRole('alert')).toHaveCount(0);
    }
    // the property reads back, and sets its attribute
    expect(
      await page.locator('#by-property').evaluate((el) => (el as unknown as { linkId: string }).linkId),
    ).toBe(featherId);
    await expect(page.locator('#by-property')).toHaveAttribute('link-id', featherId);
    const limited = page.locator('#limited');
    await expect(limited.getByRole('button', { name: 'Select' })).toHaveCount(1);
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (window as unknown as { loads: { id: string; detail: { count?: number } }[] }).loads.find(
              (l) => l.id === 'limited',
            )?.detail,
        ),
      )
      .toEqual({ count: 1 });
    await expectAccessible(page, 'properties set early');
  });

  test('wm-load reports the roadmaps shown', async ({ page }) => {
    expect(roadmaps.length).toBeGreaterThan(2);
    const url = site.page(
      '/plain/count.html',
      partnerPage('Count', '<wm-roadmap-catalogue limit="2"></wm-roadmap-catalogue>', {
        script: `
          window.counts = [];
          document.addEventListener('wm-load', (e) => counts.push(e.detail.count));
          await import(${JSON.stringify(widget('roadmap-catalogue'))});
        `,
      }),
    );
    await page.goto(url);
    await expect(page.getByRole('button', { name: 'Select' })).toHaveCount(2);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { counts: number[] }).counts))
      .toEqual([2]);
  });

  test('the custom properties the guide names change the element when set on the host', async ({ page }) => {
    const roadmap = roadmaps[0]!;
    const themed = `
      wm-roadmap-catalogue { --wm-card-min-width: 140px; --wm-card-gap: 3px; --wm-card-image-ratio: 2 / 1; }
      wm-course-detail { --wm-course-hero-background: rgb(1, 2, 3); }
      wm-test-taker { --wm-test-max-width: 333px; }`;
    const body = `<wm-roadmap-catalogue limit="3"></wm-roadmap-catalogue><wm-course-detail roadmap-id="${roadmap._id}"></wm-course-detail><wm-test-taker link-id="no-such-link-0000"></wm-test-taker>`;
    const script = `for (const w of ['roadmap-catalogue', 'course-detail', 'test-taker']) await import(${JSON.stringify(`${baseUrl()}/widgets/`)} + w + '.js');`;
    await page.goto(
      site.page(
        '/plain/themed.html',
        partnerPage('Themed', body, { head: `<style>${themed}</style>`, script }),
      ),
    );
    const catalogue = page.locator('wm-roadmap-catalogue');
    await expect(catalogue.getByRole('button', { name: 'Select' })).toHaveCount(3);
    const grid = catalogue.locator('[part="grid"]');
    await expect(grid).toHaveCSS('column-gap', '3px');
    await expect(grid).toHaveCSS('row-gap', '3px');
    // 140px columns: as many as fit the grid's width
    const columns = await grid.evaluate((g) => getComputedStyle(g).gridTemplateColumns.split(' ').length);
    const width = await grid.evaluate((g) => g.getBoundingClientRect().width);
    expect(columns).toBe(Math.floor((width + 3) / (140 + 3)));
    await expect(catalogue.locator('[part="card-image"]').first()).toHaveCSS('aspect-ratio', '2 / 1');
    await expect(page.locator('wm-course-detail').locator('[part="hero"]')).toHaveCSS(
      'background-color',
      'rgb(1, 2, 3)',
    );
    await expect(page.locator('wm-test-taker').locator('[part="test"]').first()).toHaveCSS(
      'max-width',
      '333px',
    );
  });

  test("sizes do not follow the partner page's root font size", async ({ page }) => {
    const body = `<wm-roadmap-catalogue limit="1"></wm-roadmap-catalogue>`;
    const script = `await import(${JSON.stringify(widget('roadmap-catalogue'))});`;
    const sizes: string[] = [];
    for (const root of ['16px', '10px', '24px']) {
      await page.goto(
        site.page(
          `/plain/root-${root}.html`,
          partnerPage('Root font size', body, {
            head: `<style>html { font-size: ${root}; }</style>`,
            script,
          }),
        ),
      );
      const heading = page.locator('wm-roadmap-catalogue').getByRole('heading', { name: 'Select Roadmap' });
      await expect(heading).toBeVisible();
      sizes.push(await heading.evaluate((h) => getComputedStyle(h).fontSize));
    }
    expect(sizes).toEqual(['24px', '24px', '24px']);
  });
});

interface Manifest {
  version: string;
  files: Record<string, { integrity: string }>;
  elements: { tag: string; file: string; imports: string[]; lazy: string[]; snippet: string }[];
}
/** /widgets/manifest.json: the newest release's files, hashes and snippets. */
const latestManifest = async (request: APIRequestContext) =>
  (await (await request.get(`${baseUrl()}/widgets/manifest.json`)).json()) as Manifest;
interface Cem {
  modules: {
    declarations: {
      tagName: string;
      cssParts?: { name: string }[];
      cssProperties?: { name: string; syntax?: string }[];
    }[];
  }[];
}

test.describe('pinned, documented, themable', () => {
  test("the manifest's snippet pins a release with SRI; a file that is not the release's is refused", async ({
    page,
    request,
  }) => {
    const manifest = await latestManifest(request);
    const award = manifest.elements.find((e) => e.tag === 'wm-award')!;
    expect(award.snippet).toContain(`${baseUrl()}/widgets/${manifest.version}/award.js`);
    expect(award.snippet).toContain(manifest.files['award.js']!.integrity);
    // the versioned files never change; "latest" is revalidated within minutes
    const pinned = await request.get(`${baseUrl()}/widgets/${manifest.version}/award.js`);
    expect(pinned.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pinned.headers()['access-control-allow-origin']).toBe('*');
    expect((await request.get(`${baseUrl()}/widgets/award.js`)).headers()['cache-control']).toBe(
      'public, max-age=300',
    );
    expect((await request.get(`${baseUrl()}/widgets/custom-elements.json`)).ok()).toBe(true);

    const body = `${award.snippet}<wm-award link-id="${featherId}"></wm-award>`;
    await page.goto(site.page('/plain/pinned.html', partnerPage('Pinned', body)));
    await expect(page.locator('wm-award').getByRole('img', { name: /^Feather: / })).toBeVisible();
    await expectAccessible(page, 'pinned award');

    // the same snippet with a hash that is not the file's: the browser refuses the file
    const tampered = award.snippet.replace(manifest.files['award.js']!.integrity, `sha384-${'A'.repeat(64)}`);
    await page.goto(
      site.page(
        '/plain/tampered.html',
        partnerPage('Tampered', `${tampered}<wm-award link-id="${featherId}"></wm-award>`),
      ),
    );
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => customElements.get('wm-award') === undefined)).toBe(true);
  });

  test("the dashboard's second file is pinned too: given a session, the page loads it by its hash and refuses another", async ({
    page,
    request,
  }) => {
    const manifest = await latestManifest(request);
    const dashboard = manifest.elements.find((e) => e.tag === 'wm-dashboard')!;
    // its lazily loaded files: the dashboard itself, and the catalogues of the other languages
    const later = dashboard.lazy.find((file) => /^Dashboard-.+\.js$/.test(file));
    expect(later, dashboard.lazy.join(', ')).toBeDefined();
    const url = `${baseUrl()}/widgets/${manifest.version}/${later}`;
    // a dynamically imported module is checked only through an import map's integrity
    // every lazily loaded file is pinned in the snippet's import map, the dashboard's by its hash
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(dashboard.snippet)![1]!) as {
      integrity: Record<string, string>;
    };
    expect(map.integrity[url]).toBe(manifest.files[later!]!.integrity);
    expect(Object.keys(map.integrity).sort()).toEqual(
      dashboard.lazy.map((file) => `${baseUrl()}/widgets/${manifest.version}/${file}`).sort(),
    );
    const learner = await newAccount({ prefix: 'partner-pin', name: 'Pia Pinned' });
    for (const [name, snippet] of [
      ['pinned', dashboard.snippet],
      ['tampered', dashboard.snippet.replace(manifest.files[later!]!.integrity, `sha384-${'A'.repeat(64)}`)],
    ] as const) {
      const { session } = await signIn(learner.email, { password: learner.password });
      const script = `window.failures = [];
        document.addEventListener('wm-error', (e) => failures.push(e.detail));
        document.getElementById('dashboard').session = ${JSON.stringify({ token: session.token, refreshToken: session.refreshToken })};`;
      await page.goto(
        site.page(
          `/plain/dashboard-${name}.html`,
          partnerPage(`Dashboard ${name}`, `${snippet}<wm-dashboard id="dashboard"></wm-dashboard>`, {
            script,
          }),
        ),
      );
      const el = page.locator('#dashboard');
      if (name === 'pinned') {
        await expect(el.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
        await expectAccessible(page, 'pinned dashboard');
      } else {
        await expect(el.locator('[part~="error"]')).toHaveText('Something Went Wrong');
        await expect(el.getByRole('heading', { name: 'Dashboard', level: 1 })).toHaveCount(0);
        // the file refused is a failure of its own, told as an event (not only in the console)
        await expect
          .poll(() => page.evaluate(() => (window as unknown as { failures: unknown[] }).failures))
          .toEqual([{ status: 0, code: 'file-load-failed', message: 'Something Went Wrong' }]);
      }
    }
  });

  test('every documented part is drawn and every documented custom property changes what it names', async ({
    page,
    request,
  }) => {
    const cem = (await (await request.get(`${baseUrl()}/widgets/custom-elements.json`)).json()) as Cem;
    const elements = cem.modules.flatMap((m) => m.declarations);
    const body = `<wm-roadmap-catalogue limit="2"></wm-roadmap-catalogue><wm-course-detail roadmap-id="${roadmaps[0]!._id}" heading-level="2"></wm-course-detail><wm-award link-id="${featherId}"></wm-award><wm-award link-id="unknown-award-0000" kind="badge"></wm-award><wm-test-taker link-id="no-such-link-0000" heading-level="2"></wm-test-taker><wm-dashboard></wm-dashboard>`;
    const script = `for (const w of ['roadmap-catalogue', 'course-detail', 'award', 'test-taker', 'dashboard']) await import(${JSON.stringify(`${baseUrl()}/widgets/`)} + w + '.js');`;
    await page.goto(site.page('/plain/documented.html', partnerPage('Documented', body, { script })));
    await expect(page.locator('wm-roadmap-catalogue').getByRole('button', { name: 'Select' })).toHaveCount(2);
    // the curriculum's sections are on its second tab
    await page.locator('wm-course-detail').getByRole('tab', { name: 'Curriculum' }).click();
    await expect(page.locator('wm-course-detail').locator('[part="sections"]')).toBeVisible();
    await expect(
      page
        .locator('wm-award')
        .first()
        .getByRole('img', { name: /^Feather: / }),
    ).toBeVisible();
    await expect(
      page.locator('wm-test-taker').getByRole('alert').or(page.locator('wm-test-taker [part="error"]')),
    ).toBeVisible();

    // parts shown only in other states of an element (another screen of the test, an award's stored image,
    // a signed-in dashboard, the test open in a second tab): the test-taker, awards and focus-record specs
    // show those screens
    const STATE_PARTS: Record<string, string[]> = {
      'wm-test-taker': [
        'start-button',
        'timer',
        'save-status',
        'nav',
        'question',
        'option',
        'answer-input',
        'finish-button',
        'gauge',
        'award',
        'award-link',
        'other-tab',
        'take-over-button',
        // a sandbox's test (sandbox.spec.ts)
        'sandbox',
      ],
      // a sandbox's award (sandbox.spec.ts); an award that expires (item-analysis.spec.ts)
      'wm-award': ['image', 'sandbox', 'validity'],
      // the empty states: a learner with no current resource, no roadmap that matches (the tokens and slots
      // test below), a course without tasks
      'wm-dashboard': ['card', 'chart', 'error', 'empty'],
      'wm-roadmap-catalogue': ['error', 'empty'],
      'wm-course-detail': ['error', 'empty'],
    };
    const missing: string[] = [];
    for (const el of elements) {
      const parts = await page.evaluate(
        (tag) =>
          [...document.querySelectorAll(tag)].flatMap((e) =>
            [...(e.shadowRoot?.querySelectorAll('[part]') ?? [])].flatMap((p) =>
              p.getAttribute('part')!.split(/\s+/),
            ),
          ),
        el.tagName,
      );
      for (const p of el.cssParts ?? []) {
        if (!parts.includes(p.name) && !STATE_PARTS[el.tagName]?.includes(p.name))
          missing.push(`${el.tagName}::part(${p.name})`);
      }
    }
    expect(missing).toEqual([]);

    // each custom property, set on the element, changes a computed style inside it (the same element
    // unset beside it is the baseline); state-only ones are named with the state that shows them
    const SENTINEL: Record<string, string> = {
      '<color>': 'rgb(1, 2, 3)',
      '<length>': '7px',
      '<ratio>': '3 / 1',
      '<family-name>': 'monospace',
      '<shadow>': 'rgb(1, 2, 3) 0px 0px 0px 7px',
      '<image>': 'rgb(1, 2, 3)',
    };
    // the focus ring shows only on what has the keyboard's focus (every element has it)
    const STATE_PROPS: Record<string, string[]> = {
      // under the pointer; a started test (chosen options, the timer), its score, its last minute
      'wm-roadmap-catalogue': ['--wm-primary-hover', '--wm-focus'],
      'wm-test-taker': [
        '--wm-focus',
        '--wm-primary-soft',
        '--wm-success',
        '--wm-warning',
        '--wm-danger',
        '--wm-primary',
        '--wm-muted',
      ],
      // the certificate and badge designs (this page shows a feather)
      'wm-award': ['--wm-award-certificate-width', '--wm-award-badge-width', '--wm-focus'],
      // the signed-in dashboard (its figures and cards)
      'wm-dashboard': ['--wm-accent', '--wm-muted', '--wm-surface', '--wm-focus'],
      'wm-course-detail': ['--wm-focus'],
    };
    const inert: string[] = [];
    for (const el of elements) {
      for (const prop of el.cssProperties ?? []) {
        if (STATE_PROPS[el.tagName]?.includes(prop.name)) continue;
        const changed = await page.evaluate(
          ({ tag, name, value }) => {
            const host = document.querySelector(tag) as HTMLElement;
            const KEYS = [
              'color',
              'background-color',
              'background-image',
              'max-width',
              'column-gap',
              'aspect-ratio',
              'font-family',
              'box-shadow',
              'border-top-left-radius',
              'grid-template-columns',
              'border-top-color',
              'outline-color',
              // --wm-space: paddings and gaps
              'padding-top',
              'margin-top',
              'row-gap',
            ];
            const snap = () =>
              [...host.shadowRoot!.querySelectorAll('*')].map((n) => {
                const cs = getComputedStyle(n);
                return KEYS.map((k) => cs.getPropertyValue(k)).join('|');
              });
            // computed styles mid-transition still show the old value: no transitions while comparing
            const root = host.shadowRoot!;
            const sheets = root.adoptedStyleSheets;
            const still = new CSSStyleSheet();
            still.replaceSync('*, *::before, *::after { transition: none !important; }');
            root.adoptedStyleSheets = [...sheets, still];
            const before = snap();
            host.style.setProperty(name, value);
            const after = snap();
            host.style.removeProperty(name);
            root.adoptedStyleSheets = sheets;
            return after.some((v, i) => v !== before[i]);
          },
          { tag: el.tagName, name: prop.name, value: SENTINEL[prop.syntax ?? '<color>'] ?? 'rgb(1, 2, 3)' },
        );
        if (!changed) inert.push(`${el.tagName} ${prop.name}`);
      }
    }
    expect(inert).toEqual([]);
  });
});

test.describe('inside single-page apps built with the npm package', () => {
  test.beforeAll(() => {
    // type-checks both apps against the package's typings, then builds them (tests/partner-apps/build.mjs)
    execFileSync(process.execPath, ['tests/partner-apps/build.mjs', '--no-types'], {
      stdio: 'inherit',
      timeout: 300_000,
    });
    site.mount('/react/', join(process.cwd(), '.tmp', 'partner-apps', 'dist', 'react'));
    site.mount('/vue/', join(process.cwd(), '.tmp', 'partner-apps', 'dist', 'vue'));
  });

  for (const app of ['react', 'vue'] as const) {
    test(`${app}: routes create and remove the elements, props set before they are defined apply, events arrive`, async ({
      page,
    }) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${site.origin}/${app}/?award=${featherId}`);
      const catalogue = page.locator('wm-roadmap-catalogue');
      // limit and heading were set as camelCase props before the element was defined
      await expect(catalogue.getByRole('heading', { name: 'Pick a course' })).toBeVisible();
      await expect(catalogue.getByRole('button', { name: 'Select' })).toHaveCount(2);
      await expect(page.getByTestId('count')).toHaveText('2 courses shown');
      await expectAccessible(page, `${app}: catalogue`);

      // the image of a card: the app cancels wm-open-course and routes to its own course view
      await catalogue.locator('[part="card-image"]').first().click();
      await expect(page).toHaveURL(new RegExp(`/${app}/course/[0-9a-f-]{36}$`));
      await expect(catalogue).toHaveCount(0);
      const course = page.locator('wm-course-detail');
      await expect(course.getByRole('tab', { name: 'Curriculum' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Course');
      await expectAccessible(page, `${app}: course`);

      await page.getByRole('link', { name: 'Award' }).click();
      await expect(
        page
          .locator('wm-award')
          .first()
          .getByRole('img', { name: /awarded to Priya Partner/ }),
      ).toBeVisible();
      await expect(course).toHaveCount(0);
      await expectAccessible(page, `${app}: award`);

      await page.goBack();
      await page.goBack();
      await expect(page.locator('wm-roadmap-catalogue').getByRole('button', { name: 'Select' })).toHaveCount(
        2,
      );
      // only the elements of the view shown are in the page, and no element left an error behind
      expect(await page.evaluate(() => document.querySelectorAll('wm-course-detail, wm-award').length)).toBe(
        0,
      );
      const events = await page.evaluate(() =>
        (window as unknown as { wmEvents: { type: string }[] }).wmEvents.map((e) => e.type),
      );
      expect(events.filter((t) => t === 'wm-load').length).toBeGreaterThanOrEqual(4);
      expect(errors).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Every documented event, attribute and property, read from /widgets/custom-elements.json: each event is
// driven on the partner's origin as the partner's visitor would and its `detail` checked against the type
// the manifest documents; an event the manifest lists with no check here, or a documented attribute or
// property without its line in the tables below, fails the last test.

interface CemEvent {
  name: string;
  type?: { text: string };
  description?: string;
}
interface CemElement {
  tagName: string;
  attributes?: { name: string; fieldName?: string }[];
  members?: { kind: string; name: string; attribute?: string }[];
  events?: CemEvent[];
}
interface Fired {
  tag: string;
  id: string;
  type: string;
  detail: unknown;
  cancelable: boolean;
}

/**
 * What is wrong with `detail` against a documented type such as `CustomEvent<{ linkId: string; kind:
 * 'feather' | 'badge'; imageUrl: string | null; status?: number }>`: a missing or undocumented key, or a
 * value of another type. The manifest's detail types are flat objects of these primitive types.
 */
function detailProblems(typeText: string, detail: unknown): string[] {
  const body = /^CustomEvent<\{(.*)\}>$/s.exec(typeText.trim())?.[1];
  if (body === undefined) return [`undocumented detail type ${typeText}`];
  if (typeof detail !== 'object' || detail === null) return [`detail is ${JSON.stringify(detail)}`];
  const problems: string[] = [];
  const fields = body
    .split(';')
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => {
      const m = /^(\w+)(\?)?:\s*(.+)$/s.exec(f);
      if (!m) throw new Error(`cannot read the documented field "${f}" of ${typeText}`);
      return { key: m[1]!, optional: Boolean(m[2]), types: m[3]!.split('|').map((t) => t.trim()) };
    });
  const record = detail as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!fields.some((f) => f.key === key)) problems.push(`undocumented key ${key}`);
  }
  for (const { key, optional, types } of fields) {
    const value = record[key];
    if (value === undefined) {
      if (!optional) problems.push(`missing ${key}`);
      continue;
    }
    const fits = types.some((t) =>
      t === 'null'
        ? value === null
        : t === 'string' || t === 'number' || t === 'boolean'
          ? typeof value === t
          : /^'.*'$/.test(t)
            ? value === t.slice(1, -1)
            : false,
    );
    if (!fits) problems.push(`${key} ${JSON.stringify(value)} is not ${types.join(' | ')}`);
  }
  return problems;
}

/** A page script that records every documented event on `window.wmEvents` and cancels those that leave the page. */
function recordEvents(types: string[]) {
  return `
    window.wmEvents = [];
    for (const type of ${JSON.stringify(types)}) {
      document.addEventListener(type, (e) => {
        wmEvents.push({ tag: e.target.localName, id: e.target.id, type, detail: e.detail, cancelable: e.cancelable });
        // the partner takes over every link out to Waymark (the page stays, so the next step can be
        // driven); Select goes on to its dialog
        if (e.cancelable && type !== 'wm-select') e.preventDefault();
      });
    }`;
}

const fired = (page: import('@playwright/test').Page) =>
  page.evaluate(() => (window as unknown as { wmEvents: Fired[] }).wmEvents);

test.describe('every documented event, attribute and property', () => {
  test.describe.configure({ mode: 'serial' });

  let elements: CemElement[];
  let eventTypes: string[];
  /** `tag event` → the details seen, each checked against its documented type. */
  const proven = new Map<string, unknown[]>();
  /** The events documented for a tag, by name. */
  const documented = (tag: string, type: string) =>
    elements.find((e) => e.tagName === tag)?.events?.find((e) => e.name === type);

  /** Checks what the page recorded: every event is documented for its element, with its detail and cancelability. */
  async function collect(page: import('@playwright/test').Page) {
    const problems: string[] = [];
    for (const e of await fired(page)) {
      const doc = documented(e.tag, e.type);
      if (!doc?.type) {
        problems.push(`${e.tag} fired ${e.type}, which its manifest entry does not document`);
        continue;
      }
      for (const p of detailProblems(doc.type.text, e.detail)) problems.push(`${e.tag} ${e.type}: ${p}`);
      const cancelable = /\*\*Cancelable\*\*/.test(doc.description ?? '');
      if (e.cancelable !== cancelable)
        problems.push(`${e.tag} ${e.type}: cancelable is ${e.cancelable}, documented ${cancelable}`);
      const key = `${e.tag} ${e.type}`;
      proven.set(key, [...(proven.get(key) ?? []), e.detail]);
    }
    expect(problems).toEqual([]);
  }
  const seen = (tag: string, type: string, id?: string) => (events: Fired[]) =>
    events.filter((e) => e.tag === tag && e.type === type && (id === undefined || e.id === id));

  test.beforeAll(async ({ request }) => {
    const cem = (await (await request.get(`${baseUrl()}/widgets/custom-elements.json`)).json()) as {
      modules: { declarations: CemElement[] }[];
    };
    elements = cem.modules.flatMap((m) => m.declarations);
    eventTypes = [...new Set(elements.flatMap((e) => (e.events ?? []).map((ev) => ev.name)))];
  });

  test('the catalogue and the course page: load, error, open-course, select, assessment, assigned', async ({
    page,
  }) => {
    const dom = roadmaps.find((r) => r.name === 'Modern JavaScript and the DOM')!;
    const plain = roadmaps.find((r) => r.name === 'JavaScript Foundations')!;
    const body = [
      '<wm-roadmap-catalogue id="catalogue"></wm-roadmap-catalogue>',
      `<wm-roadmap-catalogue id="unreachable" api-base="${site.origin}/not-waymark"></wm-roadmap-catalogue>`,
      `<wm-course-detail id="with-prerequisites" roadmap-id="${dom._id}"></wm-course-detail>`,
      `<wm-course-detail id="without" roadmap-id="${plain._id}"></wm-course-detail>`,
      '<wm-course-detail id="unknown" roadmap-id="00000000-0000-4000-8000-000000000000"></wm-course-detail>',
    ].join('');
    const script = `${recordEvents(eventTypes)}
      for (const w of ['roadmap-catalogue', 'course-detail']) await import(${JSON.stringify(`${baseUrl()}/widgets/`)} + w + '.js');`;
    await page.goto(
      site.page('/plain/events-catalogue.html', partnerPage('Catalogue events', body, { script })),
    );
    const catalogue = page.locator('#catalogue');
    await expect(catalogue.getByRole('button', { name: 'Select' })).toHaveCount(roadmaps.length);
    // loading failed: the catalogue whose server does not answer, the course that does not exist
    await expect
      .poll(async () => seen('wm-roadmap-catalogue', 'wm-error', 'unreachable')(await fired(page)))
      .toEqual([
        {
          tag: 'wm-roadmap-catalogue',
          id: 'unreachable',
          type: 'wm-error',
          // the partner's own server answered the API's path: the element names its api-base
          detail: {
            status: 404,
            code: 'api-base-not-waymark',
            message: `<wm-roadmap-catalogue>: api-base ${site.origin}/not-waymark answered 404, but it is not a Waymark server (its API answers JSON): check the address.`,
          },
          cancelable: false,
        },
      ]);
    await expect
      .poll(async () =>
        seen('wm-course-detail', 'wm-error', 'unknown')(await fired(page)).map((e) => e.detail),
      )
      .toEqual([{ status: 404, code: 'not-found', message: 'Please, try again later. Thanks' }]);
    await expect
      .poll(async () => seen('wm-course-detail', 'wm-load')(await fired(page)).map((e) => e.detail))
      .toEqual(
        expect.arrayContaining([
          { roadmapId: dom._id, name: dom.name },
          { roadmapId: plain._id, name: plain.name },
        ]),
      );

    const card = (name: string) => catalogue.locator('[part~="card"]').filter({ hasText: name });
    // a card's image: the partner cancels and stays
    await card(plain.name).locator('[part="card-image"]').click();
    // Select on a roadmap without prerequisites, then 'Yes, I want to assign'
    await card(plain.name).getByRole('button', { name: 'Select' }).click();
    await catalogue.getByRole('dialog').getByRole('button', { name: 'Yes, I want to assign' }).click();
    await expect(catalogue.getByRole('dialog')).toHaveCount(0);
    // Select on one with prerequisites, then 'Yes, I like to take assessment'
    await card(dom.name).getByRole('button', { name: 'Select' }).click();
    await catalogue
      .getByRole('dialog')
      .getByRole('button', { name: 'Yes, I like to take assessment' })
      .click();
    await expect(catalogue.getByRole('dialog')).toHaveCount(0);
    // the same from each course page
    for (const [id, choice] of [
      ['without', 'Yes, I want to assign'],
      ['with-prerequisites', 'Yes, I like to take assessment'],
    ] as const) {
      const course = page.locator(`#${id}`);
      await course.getByRole('button', { name: 'Select Course' }).click();
      await course.getByRole('dialog').getByRole('button', { name: choice }).click();
      await expect(course.getByRole('dialog')).toHaveCount(0);
    }
    const events = await fired(page);
    expect(seen('wm-roadmap-catalogue', 'wm-open-course')(events).map((e) => e.detail)).toEqual([
      { roadmapId: plain._id, href: `${baseUrl()}/course-detail/${plain._id}` },
    ]);
    for (const [tag, id] of [
      ['wm-roadmap-catalogue', 'catalogue'],
      ['wm-course-detail', 'without'],
    ] as const) {
      expect(seen(tag, 'wm-select', id)(events).map((e) => e.detail)).toContainEqual({
        roadmapId: plain._id,
        roadmapName: plain.name,
      });
      const [assigned] = seen(tag, 'wm-assigned', id)(events);
      expect(assigned?.detail).toMatchObject({ roadmapId: plain._id });
      const { assignedRoadmapId, href } = assigned!.detail as { assignedRoadmapId: string; href: string };
      expect(href).toBe(`${baseUrl()}/access-assigned-roadmap/${assignedRoadmapId}`);
    }
    for (const [tag, id] of [
      ['wm-roadmap-catalogue', 'catalogue'],
      ['wm-course-detail', 'with-prerequisites'],
    ] as const) {
      expect(seen(tag, 'wm-select', id)(events).map((e) => e.detail)).toContainEqual({
        roadmapId: dom._id,
        roadmapName: dom.name,
      });
      const [assessment] = seen(tag, 'wm-assessment', id)(events);
      const { linkId, href } = assessment!.detail as { linkId: string; href: string };
      expect(assessment!.detail).toMatchObject({ roadmapId: dom._id });
      expect(href).toBe(`${baseUrl()}/initial-assessment/${linkId}`);
    }
    await collect(page);
  });

  test('the test taker and the award: state, start, evaluated, open-award, home, load, error', async ({
    page,
  }) => {
    // a real test, through a link the learner made through the API
    const sql = await assignDemoRoadmap(learnerApi, 'SQL Essentials');
    const section = sql.sections[0]!;
    const link = await learnerApi.call(createTestLink, {
      body: {
        type: 'RESOURCE',
        assignedRoadmapId: sql._id,
        sectionId: section._id,
        resourceId: section.resources[0]!._id,
      },
    });
    const linkId = link.data.testLinkId;
    const body = [
      `<wm-test-taker id="taker" link-id="${linkId}" heading-level="2"></wm-test-taker>`,
      '<wm-test-taker id="unknown" link-id="no-such-link-0000" heading-level="2"></wm-test-taker>',
      `<wm-award id="feather" link-id="${featherId}"></wm-award>`,
      '<wm-award id="missing" link-id="unknown-award-0000"></wm-award>',
    ].join('');
    const script = `${recordEvents(eventTypes)}
      for (const w of ['test-taker', 'award']) await import(${JSON.stringify(`${baseUrl()}/widgets/`)} + w + '.js');`;
    await page.goto(
      site.page('/plain/events-taker.html', partnerPage('Test taker events', body, { script })),
    );
    const taker = page.locator('#taker');
    await expect(taker.getByRole('heading', { name: 'Ready to Take Test?' })).toBeVisible();
    await taker.getByRole('button', { name: 'Start' }).click();
    await expect(taker.getByRole('heading', { name: /^Question 1 of/ })).toBeVisible();
    const [start] = seen('wm-test-taker', 'wm-start', 'taker')(await fired(page));
    const { questionCount, deadlineAt } = start!.detail as {
      questionCount: number;
      deadlineAt: string | null;
    };
    expect(start!.detail).toMatchObject({ linkId, resumed: false });
    if (deadlineAt) expect(Date.parse(deadlineAt)).toBeGreaterThan(Date.now());
    for (let i = 0; i < questionCount; i++) {
      if (i > 0) await taker.getByRole('button', { name: 'Next' }).click();
      await expect(
        taker.getByRole('heading', { name: new RegExp(`^Question ${i + 1} of ${questionCount}`) }),
      ).toBeVisible();
      await answerShown(taker, 'right');
    }
    await expect(taker.getByText('All answers saved')).toBeVisible();
    await taker.getByRole('button', { name: 'Finish' }).click();
    await taker
      .getByRole('dialog', { name: 'Do you want to finish?' })
      .getByRole('button', { name: 'Finish' })
      .click();
    await expect(taker.getByRole('heading', { name: 'Your Score' })).toBeVisible();
    await taker.locator('[part="award-link"]').click();
    await taker.getByRole('link', { name: 'Home' }).click();
    await expect(page.locator('#feather').getByRole('img', { name: /^Feather: / })).toBeVisible();
    await expect(page.locator('#unknown [part~="error"]')).toBeVisible();
    await expect(page.locator('#missing [part~="error"]')).toBeVisible();

    const events = await fired(page);
    const states = seen(
      'wm-test-taker',
      'wm-state',
      'taker',
    )(events).map((e) => (e.detail as { state: string }).state);
    expect(states).toEqual(expect.arrayContaining(['ready', 'starting', 'started', 'evaluating', 'score']));
    expect(states.indexOf('started')).toBeLessThan(states.indexOf('score'));
    expect(seen('wm-test-taker', 'wm-state', 'unknown')(events).map((e) => e.detail)).toContainEqual({
      linkId: 'no-such-link-0000',
      state: 'error',
    });
    const [evaluated] = seen('wm-test-taker', 'wm-evaluated', 'taker')(events);
    const awardHref = `${baseUrl()}/feather/${linkId}`;
    expect(evaluated!.detail).toMatchObject({
      linkId,
      testType: 'RESOURCE',
      percentage: 100,
      questionCount,
      certificateEligible: true,
      awardHref,
    });
    expect(seen('wm-test-taker', 'wm-open-award', 'taker')(events).map((e) => e.detail)).toEqual([
      { linkId, award: 'feather', href: awardHref },
    ]);
    expect(seen('wm-test-taker', 'wm-home', 'taker')(events).map((e) => e.detail)).toEqual([
      { href: `${baseUrl()}/` },
    ]);
    expect(seen('wm-test-taker', 'wm-error', 'unknown')(events)).toHaveLength(1);
    expect(seen('wm-award', 'wm-load', 'feather')(events).map((e) => e.detail)).toEqual([
      expect.objectContaining({ linkId: featherId, kind: 'feather', learner: 'Priya Partner' }),
    ]);
    expect(seen('wm-award', 'wm-error', 'missing')(events).map((e) => e.detail)).toEqual([
      { status: 404, code: 'not-found', message: 'Award not found' },
    ]);
    await collect(page);
  });

  test("the dashboard with the learner's session a partner gave it: assessment, error", async ({ page }) => {
    // a learner with a roadmap under way: its first resource is a current resource card
    const learner = await newAccount({ prefix: 'partner-dash', name: 'Dara Dashboard' });
    await assignDemoRoadmap(learner.api, 'SQL Essentials');
    const [card] = (await learner.api.call(getCurrentResource)).data;
    expect(card).toBeDefined();
    // the partner's sign-in exchange: a Firebase ID token for Waymark's tokens (a session of its own)
    const { session } = await signIn(learner.email, { password: learner.password });
    // a session that has ended: signed out (its refresh token revoked), its access token not Waymark's
    const { session: ended } = await signIn(learner.email, { password: learner.password });
    await apiClient(null).call(logout, { body: { refreshToken: ended.refreshToken, device: 'WEB_APP' } });
    const body = '<wm-dashboard id="signed-in"></wm-dashboard><wm-dashboard id="ended"></wm-dashboard>';
    const script = `${recordEvents(eventTypes)}
      // given before the element is defined: applied when it is
      document.getElementById('signed-in').session = ${JSON.stringify({ token: session.token, refreshToken: session.refreshToken })};
      document.getElementById('ended').session = ${JSON.stringify({ token: 'expired.access.token', refreshToken: ended.refreshToken })};
      await import(${JSON.stringify(widget('dashboard'))});`;
    await page.goto(
      site.page('/plain/events-dashboard.html', partnerPage('Dashboard events', body, { script })),
    );
    const dashboard = page.locator('#signed-in');
    await expect(dashboard.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await dashboard.getByRole('button', { name: `Assessment of ${card!.resourceName}` }).click();
    const confirm = dashboard.getByRole('dialog', { name: 'Assessment' });
    await expect(confirm).toContainText(`Would you like to attempt an ${card!.resourceName} assessment?`);
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await expect(confirm).toHaveCount(0);
    await expect
      .poll(async () => seen('wm-dashboard', 'wm-assessment', 'signed-in')(await fired(page)).length)
      .toBe(1);
    // the session refused: told once, and the card to Waymark's dashboard shows again
    const endedDashboard = page.locator('#ended');
    await expect(endedDashboard.getByRole('link', { name: /Open your Waymark dashboard/ })).toBeVisible();
    await expectAccessible(page, 'dashboards on a partner page');

    const events = await fired(page);
    const [assessment] = seen('wm-dashboard', 'wm-assessment', 'signed-in')(events);
    const { linkId } = assessment!.detail as { linkId: string };
    expect(assessment!.detail).toEqual({
      roadmapId: card!.roadmapId,
      linkId,
      href: `${baseUrl()}/test/${linkId}`,
    });
    expect(assessment!.cancelable).toBe(true);
    // the link is the learner's, made by the server for that resource of that roadmap
    const links = (await learner.api.call(testLinkList, { query: { assignedRoadmapId: card!.roadmapId } }))
      .data;
    expect(links.map((l) => [l.linkId, l.type, l.assignedResourceName])).toEqual([
      [linkId, 'RESOURCE', card!.resourceName],
    ]);
    expect(seen('wm-dashboard', 'wm-error', 'ended')(events).map((e) => e.detail)).toEqual([
      { status: 401, code: 'session-ended', message: 'Your session has ended. Please sign in again.' },
    ]);
    expect(seen('wm-dashboard', 'wm-error', 'signed-in')(events)).toEqual([]);
    await collect(page);
  });

  test('every documented event was fired with its documented detail', () => {
    const unproven = elements.flatMap((el) =>
      (el.events ?? []).map((ev) => `${el.tagName} ${ev.name}`).filter((key) => !proven.has(key)),
    );
    expect(unproven).toEqual([]);
  });
});

test.describe('every documented attribute and property', () => {
  type Summary = {
    _id: string;
    name: string;
    language: { name: string };
    subject: { name: string; topics: { name: string }[] };
  };
  /** How each documented attribute is proven: the value given, other attributes it needs, what then shows. */
  interface Case {
    value: string;
    others?: Record<string, string>;
    shows: (el: Locator) => Promise<void>;
  }
  const cards = (el: Locator) => el.getByRole('button', { name: 'Select' });
  const shownError = (text: string | RegExp) => (el: Locator) =>
    expect(el.locator('[part~="error"]')).toContainText(text);
  const unreachable = () => `${site.origin}/not-waymark`;

  async function cases(): Promise<Record<string, Case>> {
    const list = (await apiClient(null).call(roadmapListNoAuth, { query: {} })).data as unknown as Summary[];
    const count = async (query: Record<string, string>) =>
      (await apiClient(null).call(roadmapListNoAuth, { query })).data.length;
    const spanish = list.find((r) => r.language.name !== 'English')!;
    const subject = list[0]!.subject;
    const topic = list.flatMap((r) => r.subject.topics)[0]!;
    const filtered = (query: Record<string, string>) => async (el: Locator) => {
      const n = await count(query);
      expect(n).toBeGreaterThan(0);
      await expect(cards(el)).toHaveCount(n);
    };
    const course = list.find((r) => r.name === 'JavaScript Foundations')!;
    return {
      'wm-roadmap-catalogue language': {
        value: spanish.language.name.toLowerCase(),
        shows: async (el) => {
          await filtered({ language: spanish.language.name })(el);
          expect(await count({ language: spanish.language.name })).toBeLessThan(list.length);
          await expect(el.locator('[part~="card"]').filter({ hasText: spanish.name })).toHaveCount(1);
        },
      },
      'wm-roadmap-catalogue subject': { value: subject.name, shows: filtered({ subject: subject.name }) },
      'wm-roadmap-catalogue topic': { value: topic.name, shows: filtered({ topic: topic.name }) },
      'wm-roadmap-catalogue heading': {
        value: 'Courses from our partner',
        shows: (el) => expect(el.getByRole('heading', { name: 'Courses from our partner' })).toBeVisible(),
      },
      'wm-roadmap-catalogue limit': { value: '1', shows: (el) => expect(cards(el)).toHaveCount(1) },
      'wm-roadmap-catalogue api-base': {
        value: unreachable(),
        shows: shownError("Couldn't fetch the Roadmap please try later."),
      },
      'wm-course-detail roadmap-id': {
        value: course._id,
        shows: (el) => expect(el.locator('[part="title"]')).toHaveText(course.name),
      },
      'wm-course-detail heading-level': {
        value: '1',
        others: { 'roadmap-id': course._id },
        shows: (el) => expect(el.getByRole('heading', { level: 1, name: course.name })).toBeVisible(),
      },
      'wm-course-detail api-base': {
        value: unreachable(),
        others: { 'roadmap-id': course._id },
        shows: shownError('Please, try again later. Thanks'),
      },
      'wm-award link-id': {
        value: featherId,
        shows: (el) =>
          expect(el.getByRole('img', { name: /^Feather: .+, awarded to Priya Partner/ })).toBeVisible(),
      },
      // the feather asked for as a badge is not found
      'wm-award kind': {
        value: 'badge',
        others: { 'link-id': featherId },
        shows: shownError('Award not found'),
      },
      // the live design, not an image (the feather's image was never generated, so `auto` draws it live too;
      // a value outside the documented ones is refused by name)
      'wm-award view': {
        value: 'live',
        others: { 'link-id': featherId },
        shows: (el) => expect(el.locator('[part="art"]')).toBeVisible(),
      },
      'wm-award api-base': { value: unreachable(), others: { 'link-id': featherId }, shows: shownError(/./) },
      // the feather's link was taken: its test shows as completed
      'wm-test-taker link-id': {
        value: featherId,
        shows: (el) => expect(el.getByRole('heading', { name: 'Test Completed' })).toBeVisible(),
      },
      'wm-test-taker heading-level': {
        value: '2',
        others: { 'link-id': featherId },
        shows: (el) => expect(el.getByRole('heading', { level: 2, name: 'Test Completed' })).toBeVisible(),
      },
      'wm-test-taker api-base': {
        value: unreachable(),
        others: { 'link-id': featherId },
        shows: shownError(/./),
      },
      // on a partner's origin the dashboard is a link to Waymark's
      'wm-dashboard api-base': {
        value: 'https://learn.example.com',
        shows: (el) =>
          expect(el.getByRole('link', { name: /Open your Waymark dashboard/ })).toHaveAttribute(
            'href',
            'https://learn.example.com/dashboard',
          ),
      },
      // the range picked first shows only in the signed-in dashboard on Waymark's origin (extension.spec.ts
      // changes it there); on a partner origin it is accepted (no attribute error) and reflected
      'wm-dashboard range': {
        value: 'Last 28 Days',
        shows: (el) => expect(el.locator('[part~="dashboard"]')).toBeVisible(),
      },
      // every element's theme: its colour scheme, and so its tokens' dark values (the themes' own test
      // below checks what they draw)
      ...Object.fromEntries(
        (
          [
            ['wm-roadmap-catalogue', {}],
            ['wm-course-detail', { 'roadmap-id': course._id }],
            ['wm-award', { 'link-id': featherId }],
            ['wm-test-taker', { 'link-id': featherId }],
            ['wm-dashboard', {}],
          ] as const
        ).map(([tag, others]) => [
          `${tag} theme`,
          { value: 'dark', others, shows: (el: Locator) => expect(el).toHaveCSS('color-scheme', 'dark') },
        ]),
      ),
    };
  }

  test('each is in the table, and each, set as an attribute or as its property, changes the element', async ({
    page,
    request,
  }) => {
    const cem = (await (await request.get(`${baseUrl()}/widgets/custom-elements.json`)).json()) as {
      modules: { declarations: CemElement[] }[];
    };
    const elements = cem.modules.flatMap((m) => m.declarations);
    const table = await cases();
    const documented = elements.flatMap((el) =>
      (el.attributes ?? []).map((a) => ({ tag: el.tagName, attribute: a.name, field: a.fieldName! })),
    );
    // every documented attribute has its case, every documented property is an attribute's or one set
    // from script only that another test gives
    expect(documented.map((d) => `${d.tag} ${d.attribute}`).filter((k) => !(k in table))).toEqual([]);
    const SCRIPT_ONLY: Record<string, string> = {
      'wm-dashboard .session': "the dashboard events test gives a learner's session and a refused one",
    };
    const fields = elements.flatMap((el) =>
      (el.members ?? [])
        .filter((m) => m.kind === 'field')
        .filter(
          (m) =>
            !documented.some(
              (d) => d.tag === el.tagName && d.field === m.name && m.attribute === d.attribute,
            ),
        )
        .map((m) => `${el.tagName} .${m.name}`),
    );
    expect(fields).toEqual(Object.keys(SCRIPT_ONLY));

    for (const mode of ['attribute', 'property'] as const) {
      const made = documented.map((d, i) => ({
        ...d,
        id: `case-${i}`,
        ...table[`${d.tag} ${d.attribute}`]!,
      }));
      const script = `
        for (const w of ['roadmap-catalogue', 'course-detail', 'award', 'test-taker', 'dashboard']) await import(${JSON.stringify(`${baseUrl()}/widgets/`)} + w + '.js');
        for (const c of ${JSON.stringify(made.map(({ shows: _, ...c }) => c))}) {
          const el = document.createElement(c.tag);
          el.id = c.id;
          for (const [name, value] of Object.entries(c.others ?? {})) el.setAttribute(name, value);
          if (${JSON.stringify(mode)} === 'attribute') el.setAttribute(c.attribute, c.value);
          else el[c.field] = c.value;
          document.querySelector('main').append(el);
        }`;
      await page.goto(site.page(`/plain/by-${mode}.html`, partnerPage(`Set by ${mode}`, '', { script })));
      for (const c of made) {
        await test.step(`${c.tag} ${c.attribute} by ${mode}`, async () => {
          const el = page.locator(`#${c.id}`);
          await c.shows(el);
          // the property and the attribute read the same, however it was set
          await expect(el).toHaveAttribute(c.attribute, c.value);
          expect(await el.evaluate((e, f) => (e as unknown as Record<string, string>)[f], c.field)).toBe(
            c.value,
          );
        });
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// What a partner ships with (decision 041): a strict Content Security Policy, every failure an event and no
// console error in the documented states, the design tokens set once on the page, the themes (each
// axe-clean), the slots, and the package as a bundler takes it without api-base.

test.describe('what a partner ships with', () => {
  test.describe.configure({ mode: 'serial' });

  /** Open test links of a mentor's sandbox, which stay open whatever a test does. */
  let sandboxLinks: { linkId: string; type: string }[];
  /** A learner's session with a roadmap under way: the signed-in dashboard, chart and cards drawn. */
  let dashboardSession: () => Promise<{ token: string; refreshToken: string }>;

  test.beforeAll(async () => {
    const mentor = await newAccount({ role: 'TENANT', prefix: 'partner-sandbox' });
    sandboxLinks = (await mentor.api.call(createSandbox)).data.links;
    const learner = await newAccount({ prefix: 'partner-themes', name: 'Tara Themes' });
    await assignDemoRoadmap(learner.api, 'SQL Essentials');
    dashboardSession = async () => {
      const { session } = await signIn(learner.email, { password: learner.password });
      return { token: session.token, refreshToken: session.refreshToken };
    };
  });

  /** The five elements on one page, each showing what it loaded (the dashboard given `session.js`'s session). */
  const allFive = (attrs = '') =>
    [
      `<wm-roadmap-catalogue limit="2" ${attrs}></wm-roadmap-catalogue>`,
      `<wm-course-detail roadmap-id="${roadmaps[0]!._id}" heading-level="2" ${attrs}></wm-course-detail>`,
      `<wm-award link-id="${featherId}" ${attrs}></wm-award>`,
      `<wm-test-taker link-id="${sandboxLinks[0]!.linkId}" heading-level="2" ${attrs}></wm-test-taker>`,
      `<wm-dashboard id="dashboard" ${attrs}></wm-dashboard>`,
    ].join('');
  const importAll = `for (const w of ['roadmap-catalogue', 'course-detail', 'award', 'test-taker', 'dashboard']) await import(${JSON.stringify(`${baseUrl()}/widgets/`)} + w + '.js');`;

  /** Waits until each of the five has drawn its data. */
  async function drawn(page: import('@playwright/test').Page) {
    await expect(page.locator('wm-roadmap-catalogue').getByRole('button', { name: 'Select' })).toHaveCount(2);
    await expect(page.locator('wm-course-detail [part="title"]')).toHaveText(roadmaps[0]!.name);
    await expect(page.locator('wm-award').getByRole('img', { name: /^Feather: / })).toBeVisible();
    await expect(
      page.locator('wm-test-taker').getByRole('heading', { name: 'Ready to Take Test?' }),
    ).toBeVisible();
    await expect(
      page.locator('#dashboard').getByRole('heading', { name: 'Dashboard', level: 1 }),
    ).toBeVisible();
    await expect(page.locator('#dashboard .wm-chart-bar').first()).toBeAttached();
  }

  test('under a strict Content Security Policy the five elements draw everything and nothing is reported', async ({
    browser,
  }) => {
    const W = baseUrl();
    // docs/embed.md's policy, exactly: no 'unsafe-inline' anywhere, and nothing for styles
    const policy = `default-src 'self'; script-src 'self' ${W}; style-src 'self'; connect-src ${W}; img-src 'self' data: ${W}; report-uri /csp-report`;
    const session = await dashboardSession();
    // the page's own scripts are files of its origin: a strict policy runs no inline script either
    site.page(
      '/strict/watch.js',
      `window.violations = [];
       document.addEventListener('securitypolicyviolation', (e) =>
         violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile, line: e.lineNumber }));`,
    );
    site.page(
      '/strict/main.js',
      `document.getElementById('dashboard').session = ${JSON.stringify(session)};
       ${importAll}`,
    );
    const html = partnerPage('Strict policy', allFive(), {
      head: '<script src="/strict/watch.js"></script><script type="module" src="/strict/main.js"></script>',
    });
    const url = site.page('/strict/page.html', html, { headers: { 'content-security-policy': policy } });
    const reportsBefore = site.cspReports.length;
    // the policy enforced, as a partner's visitor's browser does (the suite's pages bypass it for axe)
    const context = await browser.newContext({ bypassCSP: false });
    const page = await context.newPage();
    const console: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) console.push(m.text());
    });
    try {
      await page.goto(url);
      await drawn(page);
      // the chart's bars take the theme's colour (under the same policy frappe-charts' bars were black)
      await expect(page.locator('#dashboard .wm-chart-bar').first()).toHaveCSS('fill', 'rgb(55, 48, 163)');
      // the policy holds: an inline script of the page would be refused (what it would report is counted)
      expect(
        await page.evaluate(() => typeof (window as unknown as { violations: unknown[] }).violations),
      ).toBe('object');
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as unknown as { violations: unknown[] }).violations)).toEqual(
        [],
      );
      expect(console).toEqual([]);
      expect(site.cspReports.slice(reportsBefore)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('every failure is a wm-error with status, code and message; the documented states log no error', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    const record = `window.failures = [];
      document.addEventListener('wm-error', (e) => failures.push({ id: e.target.id, ...e.detail }));
      window.readies = [];
      document.addEventListener('wm-ready', (e) => readies.push({ tag: e.target.localName, detail: e.detail }));`;
    // documented states: a completed test link (a screen of its own), an open one, a catalogue, a course,
    // an award, the dashboard's card: no failed request, no console error
    const calm = [
      `<wm-test-taker id="completed" link-id="${featherId}" heading-level="2"></wm-test-taker>`,
      `<wm-test-taker id="open" link-id="${sandboxLinks[1]!.linkId}" heading-level="2"></wm-test-taker>`,
      '<wm-roadmap-catalogue limit="1"></wm-roadmap-catalogue>',
      `<wm-course-detail roadmap-id="${roadmaps[0]!._id}"></wm-course-detail>`,
      `<wm-award link-id="${featherId}"></wm-award>`,
      '<wm-dashboard></wm-dashboard>',
    ].join('');
    await page.goto(
      site.page('/ship/calm.html', partnerPage('Calm', calm, { script: `${record}${importAll}` })),
    );
    await expect(page.locator('#completed').getByRole('heading', { name: 'Test Completed' })).toBeVisible();
    await expect(page.locator('#open').getByRole('heading', { name: 'Ready to Take Test?' })).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { readies: { tag: string }[] }).readies.map((r) => r.tag).sort(),
        ),
      )
      .toEqual(['wm-award', 'wm-course-detail', 'wm-dashboard', 'wm-roadmap-catalogue', 'wm-test-taker']);
    // the completed link is told as ever (its code now), and nothing failed on the way
    expect(await page.evaluate(() => (window as unknown as { failures: unknown[] }).failures)).toEqual([
      {
        id: 'completed',
        status: 410,
        code: 'test-completed',
        message: 'This test is already completed. If you like to take a test, generate a new link.',
      },
    ]);
    expect(errors).toEqual([]);

    // failures: a wrong attribute value, an api-base that answers nothing, one that is not Waymark
    const failing = [
      '<wm-award id="bad-attribute" link-id="short"></wm-award>',
      '<wm-test-taker id="bad-theme" link-id="no-such-link-0000" theme="sepia"></wm-test-taker>',
      `<wm-award id="unreachable" link-id="${featherId}" api-base="http://127.0.0.1:9"></wm-award>`,
      `<wm-course-detail id="not-waymark" roadmap-id="${roadmaps[0]!._id}" api-base="${site.origin}"></wm-course-detail>`,
    ].join('');
    await page.goto(
      site.page('/ship/failing.html', partnerPage('Failing', failing, { script: `${record}${importAll}` })),
    );
    await expect(page.locator('#bad-attribute [part~="error"]')).toContainText('link-id');
    await expect
      .poll(
        async () =>
          (await page.evaluate(() => (window as unknown as { failures: { id: string }[] }).failures)).length,
      )
      .toBe(4);
    const failures = await page.evaluate(
      () =>
        (window as unknown as { failures: { id: string; status: number; code: string; message: string }[] })
          .failures,
    );
    const byId = Object.fromEntries(failures.map((f) => [f.id, f]));
    expect(byId['bad-attribute']).toMatchObject({
      status: 0,
      code: 'invalid-attribute',
      message: /^<wm-award>: link-id /,
    });
    expect(byId['bad-theme']).toMatchObject({
      status: 0,
      code: 'invalid-attribute',
      message: '<wm-test-taker>: theme must be one of light, dark, auto',
    });
    expect(byId.unreachable).toMatchObject({ status: 0, code: 'api-base-unreachable' });
    expect(byId.unreachable!.message).toContain(
      'could not reach the Waymark server at http://127.0.0.1:9 (its api-base)',
    );
    expect(byId['not-waymark']).toMatchObject({ status: 404, code: 'api-base-not-waymark' });
  });

  test('the npm package bundled without api-base says so, instead of "Award not found"', async ({ page }) => {
    // the package's files served from the partner's own origin, as a bundler would put them there
    site.mount('/pkg/', join(process.cwd(), 'dist', 'elements-package'));
    const script = `window.failures = [];
      document.addEventListener('wm-error', (e) => failures.push(e.detail));
      await import('/pkg/award.js');`;
    await page.goto(
      site.page(
        '/ship/bundled.html',
        partnerPage('Bundled', `<wm-award link-id="${featherId}"></wm-award>`, { script }),
      ),
    );
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { failures: unknown[] }).failures))
      .toEqual([
        {
          status: 404,
          code: 'api-base-missing',
          message: `<wm-award> has no api-base, and ${site.origin} (where its script came from) is not a Waymark server: give it api-base="https://your-waymark-server".`,
        },
      ]);
  });

  test("the design tokens, set once on the page, reach all five; slots take the page's content", async ({
    page,
  }) => {
    const session = await dashboardSession();
    const slotted = [
      '<wm-roadmap-catalogue limit="1"><span slot="heading">Courses from our partner</span></wm-roadmap-catalogue>',
      '<wm-roadmap-catalogue id="empty" subject="No such subject"><span slot="empty">Nothing here yet: see our own courses.</span></wm-roadmap-catalogue>',
      `<wm-test-taker link-id="${sandboxLinks[2]!.linkId}" heading-level="2"><span slot="ready-heading">Your certification quiz</span></wm-test-taker>`,
      '<wm-award id="missing" link-id="unknown-award-0000"><span slot="not-found">This badge has moved.</span></wm-award>',
      `<wm-course-detail roadmap-id="${roadmaps[0]!._id}" heading-level="2"></wm-course-detail>`,
      `<wm-award id="feather" link-id="${featherId}"></wm-award>`,
      '<wm-dashboard id="dashboard"><span slot="heading">My learning</span></wm-dashboard>',
    ].join('');
    const script = `document.getElementById('dashboard').session = ${JSON.stringify(session)}; ${importAll}`;
    await page.goto(
      site.page(
        '/ship/tokens.html',
        partnerPage('Tokens', slotted, {
          head: '<style>:root { --wm-primary: rgb(1, 2, 3); --wm-radius: 3px; --wm-space: 10px; }</style>',
          script,
        }),
      ),
    );
    const catalogue = page.locator('wm-roadmap-catalogue').first();
    await expect(catalogue.getByRole('heading', { name: 'Courses from our partner' })).toBeVisible();
    await expect(page.locator('#empty')).toContainText('Nothing here yet: see our own courses.');
    const taker = page.locator('wm-test-taker');
    await expect(taker.getByRole('heading', { name: 'Your certification quiz', level: 2 })).toBeVisible();
    await expect(page.locator('#missing')).toContainText('This badge has moved.');
    await expect(
      page.locator('#dashboard').getByRole('heading', { name: 'My learning', level: 1 }),
    ).toBeVisible();
    // --wm-primary, set once on :root: every element's primary colour
    const primary = 'rgb(1, 2, 3)';
    await expect(catalogue.locator('[part~="select-button"]')).toHaveCSS('background-color', primary);
    await expect(taker.locator('[part="start-button"]')).toHaveCSS('background-color', primary);
    await expect(page.locator('wm-course-detail [part="select-button"]')).toHaveCSS('color', primary);
    await expect(page.locator('#feather [part="verify-link"]')).toHaveCSS('color', primary);
    await expect(
      page
        .locator('#dashboard')
        .getByRole('button', { name: /^Assessment of / })
        .first(),
    ).toHaveCSS('color', primary);
    // --wm-radius and --wm-space: the cards and panels
    await expect(catalogue.locator('[part~="card"] > article').first()).toHaveCSS(
      'border-top-left-radius',
      '3px',
    );
    await expect(taker.locator('[part="test"]')).toHaveCSS('padding-top', '15px');
    await expectAccessible(page, 'tokens and slots');
  });

  for (const theme of ['dark', 'light', 'auto'] as const) {
    test(`the ${theme} theme: every element in its colours, axe-clean on a page of its kind`, async ({
      page,
    }) => {
      const session = await dashboardSession();
      // dark: the page says color-scheme: dark once, and every element follows it (no attribute); light: the
      // attribute on a white page; auto: the attribute, and the visitor's setting dark
      const head =
        theme === 'dark'
          ? '<style>:root { color-scheme: dark; background: #0b1020; color: #f3f4f6; }</style>'
          : theme === 'auto'
            ? '<style>:root { color-scheme: light dark; } @media (prefers-color-scheme: dark) { :root { background: #0b1020; color: #f3f4f6; } }</style>'
            : '<style>:root { background: #ffffff; color: #111827; }</style>';
      if (theme === 'auto') await page.emulateMedia({ colorScheme: 'dark' });
      const attrs = theme === 'dark' ? '' : `theme="${theme}"`;
      const script = `document.getElementById('dashboard').session = ${JSON.stringify(session)}; ${importAll}`;
      await page.goto(
        site.page(
          `/ship/theme-${theme}.html`,
          partnerPage(`Theme ${theme}`, allFive(attrs), { head, script }),
        ),
      );
      await drawn(page);
      const surface = theme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(31, 41, 55)';
      await expect(page.locator('wm-test-taker [part="test"]')).toHaveCSS('background-color', surface);
      await expect(page.locator('wm-roadmap-catalogue [part~="card"] > article').first()).toHaveCSS(
        'background-color',
        surface,
      );
      await expect(page.locator('#dashboard .wm-chart-bar').first()).toHaveCSS(
        'fill',
        theme === 'light' ? 'rgb(55, 48, 163)' : 'rgb(165, 180, 252)',
      );
      await expectAccessible(page, `the ${theme} theme`);
    });
  }
});
