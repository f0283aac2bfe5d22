/**
 * Integrations → Webhooks end to end, against the real server (its jobs sending) and a receiver on this
 * machine that verifies each delivery with the Standard Webhooks library: a mentor adds an endpoint by
 * keyboard (its signing secret shown once), sends a test event that arrives verified, sees the delivery in
 * the list with the answer's status, and a learner seated afterwards arrives as `seat.added`. Every state
 * passes axe.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { tenantAddUserV2 } from '../../shared/contract/tenant';
import { type Account, newAccount } from '../support/accounts';
import { expect, expectAccessible, login, test } from '../support/fixtures';

test.describe('Integrations: webhooks', () => {
  test.describe.configure({ mode: 'serial' });

  let mentor: Account;
  let page: Page;
  let receiver: Server;
  let url = '';
  let secret = '';
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];

  test.beforeAll(async ({ browser }) => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/waymark`;
    mentor = await newAccount({ role: 'TENANT', prefix: 'hooks-mentor', name: 'Hema Hooks' });
    page = await browser.newPage();
    await login(page, mentor.email, mentor.password);
    await expect(page).toHaveURL(/\/portal\/users$/, { timeout: 20_000 });
  });

  test.afterAll(async () => {
    await page?.close();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  const verified = (r: { headers: IncomingHttpHeaders; body: string }) =>
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
      type: string;
      data: { learner?: { email: string } };
    };

  test('Integrations → Webhooks, none yet', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
    await page
      .getByRole('navigation', { name: 'Integrations' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await expect(page).toHaveURL(/\/portal\/integrations\/webhooks$/);
    await expect(page.getByText('No webhook endpoints yet')).toBeVisible();
    await expectAccessible(page, 'Webhooks, none yet');
  });

  test('an endpoint added by keyboard shows its signing secret once', async () => {
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'the Add endpoint dialog');
    await dialog.getByLabel(/^Endpoint URL/).fill(url);
    await dialog.getByRole('checkbox', { name: /seat\.added/ }).press('Space');
    await dialog.getByRole('checkbox', { name: /award\.issued/ }).press('Space');
    await dialog.getByRole('button', { name: 'Add endpoint' }).press('Enter');
    const once = page.getByRole('dialog', { name: /added/ });
    await expect(once).toBeVisible();
    secret = await once.getByLabel('The signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(page, 'the signing secret shown once');
    await once.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('cell', { name: url, exact: true })).toBeVisible();
  });

  test('a test event arrives, verified, and its delivery is listed', async () => {
    await page.getByRole('button', { name: `Send test event to ${url}` }).click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
    expect(verified(received[0]!).type).toBe('webhook.test');
    const deliveries = page
      .getByRole('region', { name: /Deliveries to/ })
      .or(page.locator('.webhook-deliveries'));
    await expect(deliveries).toBeVisible();
    await expect
      .poll(
        async () => {
          await deliveries.getByRole('button', { name: 'Refresh' }).click();
          return deliveries.getByRole('cell', { name: 'Delivered', exact: true }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await expect(deliveries.getByRole('cell', { name: '200', exact: true })).toBeVisible();
    await expectAccessible(page, 'the deliveries of an endpoint');
  });

  test('a learner seated afterwards arrives as seat.added', async () => {
    const asha = await newAccount({ prefix: 'hooks-asha', name: 'Asha Hooked' });
    await mentor.api.call(tenantAddUserV2, { body: { email: asha.email } });
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
    const event = verified(received[1]!);
    expect(event.type).toBe('seat.added');
    expect(event.data.learner?.email).toBe(asha.email);
  });
});
