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
  // Retries give up after 1.5 s here, so a dead receiver's events are parked within the test.
  [harness, browser] = await Promise.all([
    startHarness({ env: { FLAGSTAFF_ADDON_RETRY_WINDOW_MS: '1500', FLAGSTAFF_ADDON_RETRY_BASE_MS: '100' } }),
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
    expect(await secret.textContent()).toMatch(/^whsec_[0-9a-f]{64}$/);

    // A change the webhook forwards; the receiver answers 500 until the window ends.
    await harness.api.flagstaff.features.create(SYSTEM, 'default', { name: 'delivered-later' });
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByText('1 parked').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: /^Replay event/ }).waitFor();
    expect(received).toBeGreaterThan(1);
    await screenshot(page, 'addon-deliveries');

    status = 200;
    await page.getByRole('button', { name: 'Replay all' }).click();
    await page.getByText('Healthy').waitFor({ timeout: 20_000 });
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log.getByText('200').first().waitFor({ timeout: 10_000 });
    expect(await log.getByText('delivered-later').count()).toBeGreaterThan(1);

    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    await expect.poll(async () => page.getByTestId('secret').count()).toBe(2);
    expect(consoleErrors).toEqual([]);
  });
});
