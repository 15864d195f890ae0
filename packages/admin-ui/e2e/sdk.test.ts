import type { Browser, Page } from 'playwright-core';
import { InMemStorageProvider, initialize, type Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;
let page: Page;
let sdk: Unleash | undefined;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  ({ page } = await openPage(browser));
});
afterAll(async () => {
  sdk?.destroy();
  await browser?.close();
  await harness?.close();
});

describe('a client token made in the UI, used by the official Unleash SDK', () => {
  it('shows the secret once with a copy button, and a switch flipped in the UI reaches the SDK', async () => {
    await page.goto(`${harness.ui}projects/default`);
    await page.getByRole('button', { name: 'New feature flag' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('sdk-visible');
    await page.getByRole('dialog').getByRole('button', { name: 'Create feature' }).click();
    await page.getByRole('heading', { name: /sdk-visible/, level: 1 }).waitFor();

    await page.goto(`${harness.ui}access`);
    await page.getByRole('button', { name: 'New API token' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Token name').fill('checkout-service');
    await dialog.getByLabel('Type').selectOption('client');
    await dialog.getByLabel('Environment').selectOption('development');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const secret = (await dialog.getByTestId('secret').textContent()) ?? '';
    expect(secret).toMatch(/^\*:development\./);
    await dialog.getByRole('button', { name: 'Copy' }).waitFor();
    await screenshot(page, 'api-token');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'checkout-service' }).waitFor();

    sdk = initialize({
      url: `${harness.root}api/`,
      appName: 'checkout',
      customHeaders: { Authorization: secret },
      refreshInterval: 200,
      disableMetrics: true,
      storageProvider: new InMemStorageProvider(),
    });
    sdk.on('error', () => {});
    await new Promise<void>((resolve) => sdk?.once('synchronized', () => resolve()));
    expect(sdk.isEnabled('sdk-visible')).toBe(false);

    await page.goto(`${harness.ui}projects/default`);
    const toggle = page.getByRole('switch', { name: 'sdk-visible in development' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => sdk?.isEnabled('sdk-visible'), { timeout: 10_000 }).toBe(true);

    // Keyboard: the switch takes focus and Space flips it.
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await expect.poll(() => sdk?.isEnabled('sdk-visible'), { timeout: 10_000 }).toBe(false);
  });
});
