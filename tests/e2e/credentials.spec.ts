/**
 * Verifiable awards end to end, in Chromium against the real server: a learner on a roadmap a mentor
 * assigned earns a feather, opens it and downloads the image with its credential baked in (PNG); a
 * signed-out visitor opens /verify, drops the PNG and sees "Valid" with what was checked; the mentor revokes
 * the award on its page, with a reason; the visitor drops the same PNG again and sees "Revoked".
 * Every page state passes axe.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { createTestLink } from '../../shared/contract/assessments';
import { assignedRoadmap, roadmapList } from '../../shared/contract/catalogue';
import { tenantAddUserV2, tenantAssignRoadmap } from '../../shared/contract/tenant';
import { type Account, baseUrl, newAccount, signedInContext } from '../support/accounts';
import { takeTest } from '../support/answers';
import { expect, expectAccessible, expectNoSidewaysScroll, test } from '../support/fixtures';

/** Drops a file on the verify page's drop zone, as a person dragging it from their desktop does. */
async function dropFile(page: Page, path: string, name: string, type: string) {
  const base64 = (await readFile(path)).toString('base64');
  const zone = page.getByTestId('verify-drop');
  const transfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type }));
      return dt;
    },
    { base64, name, type },
  );
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

test.describe('verifiable awards', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });

  let learner: Account;
  let mentor: Account;
  let featherId: string;
  let pngPath: string;

  test.beforeAll(async () => {
    learner = await newAccount({ prefix: 'cred', name: 'Vera Verified' });
    mentor = await newAccount({ role: 'TENANT', prefix: 'credmentor', name: 'Mona Mentor' });
    await mentor.api.call(tenantAddUserV2, { body: { email: learner.email } });
    const roadmap = (await learner.api.call(roadmapList, { query: {} })).data.find(
      (r) => r.name === 'JavaScript Foundations',
    )!;
    const assigned = await mentor.api.call(tenantAssignRoadmap, {
      body: { roadmapId: roadmap._id, userId: learner.id },
    });
    const detail = (
      await learner.api.call(assignedRoadmap, { params: { id: assigned.data.assignedRoadmapId } })
    ).data;
    for (const section of detail.sections) {
      for (const resource of section.resources) {
        const link = await learner.api
          .call(createTestLink, {
            body: {
              type: 'RESOURCE',
              assignedRoadmapId: detail._id,
              sectionId: section._id,
              resourceId: resource._id,
            },
          })
          .catch(() => null);
        if (link) {
          featherId = link.data.testLinkId;
          break;
        }
      }
      if (featherId) break;
    }
    const { result } = await takeTest(learner.api, featherId, 'right');
    expect(result.certificateEligible).toBe(true);
  });

  test('the learner downloads the feather as a PNG with its credential baked in', async ({
    browser,
  }, info) => {
    const { page } = await signedInContext(browser, learner);
    await page.goto(`/feather/${featherId}`);
    const panel = page.getByRole('region', { name: 'Verifiable credential' });
    await expect(panel.getByRole('heading', { level: 3, name: 'Verifiable credential' })).toBeVisible();
    // its standing comes from the status call (the learner's 6-second token has expired by then: the call
    // refreshes and repeats); the learner may not revoke
    await expect(panel).toContainText('An Open Badges 3.0 credential signed by did:web:', {
      timeout: 20_000,
    });
    await expect(panel.getByRole('button', { name: 'Revoke award' })).toHaveCount(0);
    await expect(panel.getByRole('link', { name: 'Verify', exact: true })).toHaveAttribute(
      'href',
      `/verify/${featherId}`,
    );
    await expect(page.getByRole('link', { name: /Add to profile/ })).toHaveAttribute(
      'href',
      new RegExp(
        `certUrl=${encodeURIComponent(`${baseUrl()}/verify/${featherId}`).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      ),
    );
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download image with credential (PNG)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`waymark-feather-${featherId}.png`);
    pngPath = info.outputPath('baked.png');
    await download.saveAs(pngPath);
    const bytes = await readFile(pngPath);
    expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    expect(bytes.includes(Buffer.from('openbadgecredential'))).toBe(true);
    await expectAccessible(page, 'feather page with its credential');
    await page.context().close();
  });

  test('a signed-out visitor drops the PNG on /verify and sees it valid, with what was checked', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    await page.goto('/verify');
    await expect(page.getByRole('heading', { level: 1, name: 'Verify a credential' })).toBeVisible();
    await expectAccessible(page, 'verify page');
    await dropFile(page, pngPath, 'feather.png', 'image/png');
    await expect(page.getByRole('heading', { level: 2, name: 'Valid' })).toBeVisible({ timeout: 20_000 });
    const result = page.getByRole('region', { name: 'Result' });
    await expect(result).toContainText('Vera Verified');
    await expect(result).toContainText('Signature: Passed');
    await expect(result).toContainText('Revocation status: Passed');
    await expectAccessible(page, 'verify page, valid');

    // a PNG without a credential gets a clear message
    await page.getByLabel(/Drop a credential file here/).setInputFiles({
      name: 'plain.png',
      mimeType: 'image/png',
      buffer: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    await expect(page.getByRole('heading', { level: 2, name: 'Not a verifiable credential' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Result' })).toContainText('holds no credential');
    await context.close();
  });

  test('the mentor revokes the award; dropped again, the PNG verifies as revoked', async ({ browser }) => {
    const { page } = await signedInContext(browser, mentor);
    await page.goto(`/feather/${featherId}`);
    await page.getByRole('button', { name: 'Revoke award' }).click({ timeout: 30_000 });
    const dialog = page.getByRole('dialog', { name: 'Revoke this award?' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'revoke dialog');
    await dialog.getByLabel(/Reason/).fill('The answers were shared before the test.');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText(/Revoked\s+on/)).toBeVisible();
    await expect(page.getByText('Reason: The answers were shared before the test.')).toBeVisible();
    await page.context().close();

    const context = await browser.newContext({ baseURL: baseUrl() });
    const visitor = await context.newPage();
    await visitor.goto('/verify');
    await dropFile(visitor, pngPath, 'feather.png', 'image/png');
    await expect(visitor.getByRole('heading', { level: 2, name: 'Revoked' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(visitor.getByRole('region', { name: 'Result' })).toContainText('Revocation status: Failed');
    await expectAccessible(visitor, 'verify page, revoked');
    // and by its address
    await visitor.goto(`/verify/${featherId}`);
    await expect(visitor.getByRole('heading', { level: 2, name: 'Revoked' })).toBeVisible({
      timeout: 20_000,
    });
    await context.close();
  });

  test('on a phone (375 px) the award page and /verify fit without scrolling sideways', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await page.goto(`/feather/${featherId}`);
    const panel = page.getByRole('region', { name: 'Verifiable credential' });
    await expect(panel).toContainText('Revoked', { timeout: 20_000 });
    await expectNoSidewaysScroll(page, 'feather page');
    await expectAccessible(page, 'feather page at 375 px');
    await page.goto(`/verify/${featherId}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Revoked' })).toBeVisible({ timeout: 20_000 });
    await expectNoSidewaysScroll(page, 'verify page');
    await expectAccessible(page, 'verify page at 375 px');
    await context.close();
  });
});
