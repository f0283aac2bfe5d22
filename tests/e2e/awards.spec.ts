/**
 * Award pages end to end, in Chromium against the real server and its demo catalogue and question bank:
 *
 * - a new learner earns a feather through the real API (a RESOURCE link on a demo roadmap, answered
 *   right from the demo bank) and opens /feather/{linkId}: the page renders the design, stores the JPEG
 *   (the info then says certificateGenerated and the image answers 200 as image/jpeg), Download saves it,
 *   'Add to profile' carries LinkedIn's parameters; the served HTML carries the Open Graph tags;
 * - a signed-out visitor sees the same award, without the LinkedIn link and without generating anything;
 * - the learner's certificate at 1000 px asks for a desktop and generates nothing; widened to 1280 px,
 *   the page generates it;
 * - a link without an award of that kind shows a clear not-found page.
 *
 * Every page visited passes axe.
 */
import type { Browser, Page } from '@playwright/test';
import type { Client } from '../../shared/client/client';
import { createTestLink } from '../../shared/contract/assessments';
import { certificateInfo } from '../../shared/contract/awards';
import { type Account, baseUrl, newAccount, signedInContext } from '../support/accounts';
import { takeTest } from '../support/answers';
import { assignDemoRoadmap } from '../support/catalogue';
import { expect, expectAccessible, test } from '../support/fixtures';

const NAME = 'Meera Award';

/** Answers every question of a link right (the demo bank knows them all): the evaluation. */
async function passTest(api: Client, linkId: string) {
  const { questions, answers, result } = await takeTest(api, linkId, 'right');
  expect(answers.length, `the demo bank answers every question of ${linkId}`).toBe(questions.length);
  expect(result.certificateEligible).toBe(true);
  return result;
}

/** A browser page signed in as the learner: the session stored the way the portal stores it. */
async function signedInPage(browser: Browser, learner: Account, width = 1280) {
  return (await signedInContext(browser, learner, { width })).page;
}

/** The award-image calls a page makes, as answered (a 401 is the client's cue to refresh and repeat). */
function imageCalls(page: Page) {
  const seen: string[] = [];
  page.on('response', (r) => {
    const url = r.url();
    if (r.status() !== 401 && /\/api\/(certificate\/create-|storage\/upload)/.test(url)) {
      seen.push(`${r.request().method()} ${url.split('?')[0]} ${r.status()}`);
    }
  });
  return seen;
}

test.describe('award pages', () => {
  test.describe.configure({ mode: 'serial' });

  let learner: Account;
  let api: Client;
  let featherId: string;
  let resourceTitle: string;
  let certificateId: string;
  let subjectName: string;

  test.beforeAll(async () => {
    learner = await newAccount({ prefix: 'awards', name: NAME });
    ({ api } = learner);
    const roadmap = await assignDemoRoadmap(api);

    // a feather: the first resource the bank has questions for
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
        featherId = link.data.testLinkId;
        resourceTitle = resource.actualTitle;
        break;
      }
      if (featherId) break;
    }
    expect(featherId, 'a demo resource has questions').toBeTruthy();
    expect((await passTest(api, featherId)).status).toBe('GENERATE_CERTIFICATE');

    // a certificate: the subject of that roadmap
    subjectName = roadmap.subject.name;
    const subject = await api.call(createTestLink, {
      body: { type: 'SUBJECT', subject: roadmap.subject._id, lookingForJob: 'IN FUTURE' },
    });
    certificateId = subject.data.testLinkId;
    await passTest(api, certificateId);
  });

  test('the learner opens the feather: its image is generated and stored, Download and LinkedIn work', async ({
    browser,
  }) => {
    const before = (await api.call(certificateInfo, { params: { id: featherId } })).data;
    expect(before).toMatchObject({ certificateGenerated: false, s3CertificateUrl: null });

    const page = await signedInPage(browser, learner);
    const calls = imageCalls(page);
    await page.goto(`/feather/${featherId}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `${NAME} earned a Waymark feather` }),
    ).toBeVisible();
    await expect(page.getByText('Verified by Waymark')).toBeVisible();
    const art = page.getByRole('img', { name: new RegExp(`^Feather: .+, awarded to ${NAME} by Waymark on`) });
    await expect(art).toBeVisible();
    await expect(art).toContainText(resourceTitle);
    await expect(art).toContainText(featherId);

    // generated on load: Download becomes the stored JPEG
    const download = page.getByRole('link', { name: 'Download', exact: true });
    await expect(download).toHaveAttribute('href', new RegExp(`/files/certificates/${featherId}\\.jpg$`), {
      timeout: 20_000,
    });
    expect(calls).toEqual([
      `POST ${baseUrl()}/api/certificate/create-presigned-url 201`,
      `PUT ${baseUrl()}/api/storage/upload 200`,
      `PUT ${baseUrl()}/api/certificate/create-v2/${featherId} 201`,
    ]);
    await expectAccessible(page, 'feather page of its learner');

    const after = (await api.call(certificateInfo, { params: { id: featherId } })).data;
    expect(after.certificateGenerated).toBe(true);
    expect(after.s3CertificateUrl).toMatch(new RegExp(`/files/certificates/${featherId}\\.jpg$`));
    const image = await page.request.get(after.s3CertificateUrl!);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/jpeg');
    const bytes = await image.body();
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(bytes.length).toBeGreaterThan(20_000);
    // the stored image is the design at its print size
    const size = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, after.s3CertificateUrl!);
    expect(size).toEqual([1120, 1400]);

    const [saved] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(saved.suggestedFilename()).toBe(`waymark-feather-${featherId}.jpg`);
    const file = await saved.path();
    expect(file).toBeTruthy();

    const linkedIn = page.getByRole('link', { name: /Add to profile on LinkedIn/ });
    const url = new URL((await linkedIn.getAttribute('href'))!);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.linkedin.com/profile/add');
    const issued = new Date(after.createdAt);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: `Feather: ${resourceTitle}`,
      organizationName: 'Waymark',
      issueYear: String(issued.getUTCFullYear()),
      issueMonth: String(issued.getUTCMonth() + 1),
      certUrl: `${baseUrl()}/verify/${featherId}`,
      certId: featherId,
    });
    await expect(linkedIn).toHaveAttribute('target', '_blank');

    // reloading shows the stored image's award without generating again
    calls.length = 0;
    await page.reload();
    await expect(page.getByRole('link', { name: 'Download', exact: true })).toHaveAttribute(
      'href',
      after.s3CertificateUrl!,
    );
    expect(calls).toEqual([]);
    await page.context().close();
  });

  test('a signed-out visitor sees the same feather without LinkedIn and without generating', async ({
    page,
  }) => {
    const calls = imageCalls(page);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(`/feather/${featherId}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `${NAME} earned a Waymark feather` }),
    ).toBeVisible();
    const details = page.getByRole('complementary', { name: 'Feather details' });
    await expect(details).toContainText(NAME);
    await expect(details).toContainText(resourceTitle);
    await expect(details).toContainText(featherId);
    await expect(page.getByRole('link', { name: 'Download', exact: true })).toHaveAttribute(
      'href',
      new RegExp(`/files/certificates/${featherId}\\.jpg$`),
    );
    await expect(page.getByRole('link', { name: /Explore Waymark's roadmaps/ })).toHaveAttribute(
      'href',
      '/landing',
    );
    await expect(page.getByRole('link', { name: /Add to profile/ })).toHaveCount(0);
    expect(calls).toEqual([]);
    // html2canvas is loaded only to make an image
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((u) => /html2canvas/i.test(u))).toEqual([]);
    await expectAccessible(page, 'feather page of a visitor');

    // what a shared link shows without running the portal: Open Graph and Twitter tags in the HTML
    const html = await (await page.request.get(`/feather/${featherId}`)).text();
    const meta = (key: string) =>
      new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];
    expect(meta('og:title')).toBe(`${NAME} earned a feather: ${resourceTitle.replace(/&/g, '&amp;')}`);
    expect(meta('og:url')).toBe(`${baseUrl()}/feather/${featherId}`);
    expect(meta('og:image')).toBe(`${baseUrl()}/files/certificates/${featherId}.jpg`);
    expect(meta('og:image:type')).toBe('image/jpeg');
    expect(meta('twitter:card')).toBe('summary_large_image');
    expect(meta('og:description')).toContain(`Credential ID ${featherId}`);
  });

  test('the certificate asks for a desktop below 1050 px and is generated once the window is wide', async ({
    browser,
  }) => {
    const page = await signedInPage(browser, learner, 1000);
    const calls = imageCalls(page);
    await page.goto(`/certificate/${certificateId}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `${NAME} earned a Waymark certificate` }),
    ).toBeVisible();
    await expect(
      page.getByRole('img', { name: new RegExp(`^Certificate: ${subjectName}, awarded to ${NAME}`) }),
    ).toBeVisible();
    await expect(page.getByText('Please download in desktop or laptop.')).toBeVisible();
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await expect(
      page.getByText('Please try later in desktop or laptop to download the image.'),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: /Add to profile on LinkedIn/ })).toBeVisible();
    await expectAccessible(page, 'certificate page at 1000 px');
    expect(calls).toEqual([]);
    expect(
      (await api.call(certificateInfo, { params: { id: certificateId } })).data.certificateGenerated,
    ).toBe(false);

    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(page.getByRole('link', { name: 'Download', exact: true })).toHaveAttribute(
      'href',
      new RegExp(`/files/certificates/${certificateId}\\.jpg$`),
      { timeout: 20_000 },
    );
    await expect(page.getByText('Please download in desktop or laptop.')).toHaveCount(0);
    const info = (await api.call(certificateInfo, { params: { id: certificateId } })).data;
    expect(info.certificateGenerated).toBe(true);
    const image = await page.request.get(info.s3CertificateUrl!);
    expect(image.headers()['content-type']).toBe('image/jpeg');
    await expectAccessible(page, 'certificate page at 1280 px');
    await page.context().close();
  });

  test('a link without an award of that kind shows a clear not-found page', async ({ page }) => {
    await page.goto(`/badge/${featherId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Award not found' })).toBeVisible();
    await expect(page.getByText(/There is no feather, badge or certificate at this address/)).toBeVisible();
    await expectAccessible(page, 'award not found');
    await page.goto('/certificate/unknownLink0000');
    await expect(page.getByRole('heading', { level: 1, name: 'Award not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Explore Waymark' })).toHaveAttribute('href', '/landing');
  });
});
