/**
 * The elements on a partner's site: a second origin (tests/support/partner.ts) that loads them from the
 * Waymark server, in Chromium, against the real server and its demo catalogue.
 *
 * This part proves the promises that did not hold (issue 12), each on plain pages:
 * - a property set before the element's file has loaded is applied, and so is the lower-case attribute
 *   React 19 and Vue 3 write for a camelCase prop before the element is defined (`linkId` → `linkid`);
 * - the documented custom properties set on the host change what the element draws;
 * - sizes do not follow the partner page's root font size;
 * - `wm-load`'s count is what is shown (it honours `limit`).
 */
import type { Client } from '../../shared/client/client';
import { createTestLink } from '../../shared/contract/assessments';
import { roadmapListNoAuth } from '../../shared/contract/catalogue';
import { apiClient, baseUrl, newAccount } from '../support/accounts';
import { takeTest } from '../support/answers';
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
let featherId: string;
let roadmaps: { _id: string; name: string }[];

test.beforeAll(async () => {
  site = await startPartnerSite();
  const learner = await newAccount({ prefix: 'partner', name: 'Priya Partner' });
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
