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

  it('at 390 px the environment switches and every feature tab are on screen, not cut off', async () => {
    await fetch(`${harness.root}api/admin/projects/default/features`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'checkout-with-a-rather-long-name', description: 'Seen on a phone' }),
    });
    const { page, consoleErrors } = await openPage(browser, { width: 390, height: 844 });
    const rightEdge = async (name: string, role: 'switch' | 'tab') => {
      const box = await page.getByRole(role, { name }).boundingBox();
      return box ? box.x + box.width : Number.POSITIVE_INFINITY;
    };
    await page.goto(`${harness.ui}projects/default`);
    for (const env of ['development', 'production']) {
      const name = `checkout-with-a-rather-long-name in ${env}`;
      await page.getByRole('switch', { name }).waitFor();
      expect(await rightEdge(name, 'switch')).toBeLessThanOrEqual(390);
    }
    await screenshot(page, 'feature-table-phone');
    await page.getByRole('link', { name: 'checkout-with-a-rather-long-name' }).click();
    for (const tab of ['Environments', 'Details, tags & dependencies', 'History']) {
      await page.getByRole('tab', { name: tab }).waitFor();
      expect(await rightEdge(tab, 'tab')).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'feature-tabs-phone');
    expect(consoleErrors).toEqual([]);
  });
});
