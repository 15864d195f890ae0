import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SYSTEM } from '@flagstaff/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;
let page: Page;
let consoleErrors: string[];
let receiver: Server;
let status = 500;
let received = 0;

beforeAll(async () => {
  // Retries give up after 8 s here (not 24 h), so a dead receiver's event is parked within the test.
  [harness, browser] = await Promise.all([
    // The receiver listens on loopback, which the outbound policy refuses unless allow-listed.
    startHarness({
      env: {
        FLAGSTAFF_ADDON_RETRY_WINDOW_MS: '8000',
        FLAGSTAFF_ADDON_RETRY_BASE_MS: '200',
        FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      },
    }),
    launchBrowser(),
  ]);
  ({ page, consoleErrors } = await openPage(browser));
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.statusCode = status;
      res.end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
});
afterAll(async () => {
  receiver?.closeAllConnections();
  receiver?.close();
  await browser?.close();
  await harness?.close();
});

describe('addon deliveries in the admin UI', () => {
  it('shows the signing secret once, a failing receiver retrying then parked, and a replay that delivers', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await page.goto(`${harness.ui}integrations`);
    await page.getByLabel('URL').fill(url);
    await page.getByRole('button', { name: 'Create addon' }).click();
    const secret = page.getByTestId('secret');
    await secret.waitFor();
    const first = await secret.textContent();
    expect(first).toMatch(/^whsec_[0-9a-f]{64}$/);
    await page.getByText('Receivers verify each request with the Flagstaff-Signature header').waitFor();

    // A change the webhook forwards; the receiver answers 500 until the retry window ends.
    await harness.api.flagstaff.features.create(SYSTEM, 'default', { name: 'delivered-later' });
    await page.getByRole('link', { name: 'Open its deliveries' }).click();
    await page.getByRole('heading', { name: 'Webhook #1' }).waitFor();
    expect(await page.getByTestId('secret').count()).toBe(0);
    const header = page.locator('.page-header');
    await header.getByText(/^Retrying since/).waitFor({ timeout: 10_000 });
    await header.getByText('HTTP 500').waitFor();

    await header.getByText('1 parked').waitFor({ timeout: 20_000 });
    const parked = page.getByRole('table', { name: 'Parked events' });
    await parked.getByText('delivered-later').waitFor();
    expect(received).toBeGreaterThan(1);
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log.getByText('500').first().waitFor();
    await screenshot(page, 'addon-deliveries');

    status = 200;
    await page.getByRole('button', { name: 'Replay all' }).click();
    await header.getByText('Healthy').waitFor({ timeout: 20_000 });
    await log.getByText('200').first().waitFor({ timeout: 10_000 });
    expect(await log.getByText('delivered-later').count()).toBeGreaterThan(1);
    await page.getByText('Nothing parked').waitFor();

    // The list shows the same state.
    await page.getByRole('link', { name: 'Integrations' }).first().click();
    await page.getByRole('heading', { name: 'Configured addons' }).waitFor();
    await page.getByText('Healthy').waitFor();

    await page.goto(`${harness.ui}integrations/addons/1`);
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    await page.getByTestId('secret').waitFor();
    const rotated = await page.getByTestId('secret').textContent();
    expect(rotated).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated).not.toBe(first);
    await page.getByText('The previous secret keeps signing beside it until').waitFor();
    expect(consoleErrors).toEqual([]);
  });
});
