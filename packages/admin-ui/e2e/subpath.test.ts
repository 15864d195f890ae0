import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness({ mount: '/flags' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('the UI mounted under a sub-path', () => {
  it('routes, deep-links and calls the API under /flags', async () => {
    const { page, consoleErrors } = await openPage(browser);
    const apiCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) apiCalls.push(new URL(r.url()).pathname);
    });
    await page.goto(`${harness.ui}projects/default`);
    await page.getByRole('heading', { name: 'Default', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Segments' }).click();
    await page.getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/flags/ui/segments');
    await page.reload();
    await page.getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
    expect(apiCalls.length).toBeGreaterThan(0);
    expect(apiCalls.every((p) => p.startsWith('/flags/api/'))).toBe(true);
    expect(consoleErrors).toEqual([]);
  });
});
