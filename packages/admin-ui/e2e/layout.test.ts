import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('first load and small screens', () => {
  it('loads at most 350 kB of gzipped JavaScript for the first page', async () => {
    const { page, consoleErrors } = await openPage(browser);
    const scripts = new Map<string, number>();
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script')
        scripts.set(response.url(), gzipSync(await response.body()).length);
    });
    await page.goto(`${harness.ui}projects`);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    const total = [...scripts.values()].reduce((a, b) => a + b, 0);
    console.log(
      `first load: ${(total / 1024).toFixed(1)} kB gzipped in ${scripts.size} scripts:`,
      [...scripts].map(([url, size]) => `${url.split('/').pop()} ${(size / 1024).toFixed(1)}`).join(', '),
    );
    expect(total).toBeLessThanOrEqual(350 * 1024);
    expect(consoleErrors).toEqual([]);
  });

  it('is usable at phone width: the menu opens and navigates, the table scrolls inside its card', async () => {
    const { page, consoleErrors } = await openPage(browser, { width: 390, height: 844 });
    await page.goto(`${harness.ui}projects/default`);
    await page.getByRole('heading', { name: 'Default', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'project-phone');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Event log' }).click();
    await page.getByRole('heading', { name: 'Event log', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Segments' }).isVisible()).toBe(false);
    expect(consoleErrors).toEqual([]);
  });
});
