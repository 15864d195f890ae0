// A lost server is said over the page, not instead of it: what was loaded stays, Retry brings the
// page back once the server answers, and a part of the app that cannot be downloaded offers Reload.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  for (const name of ['kept-on-screen', 'also-kept'])
    await fetch(`${harness.root}api/admin/projects/default/features`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/** Console errors besides the browser's own log of the requests these tests cut on purpose. */
const unexpected = (errors: string[]): string[] =>
  errors.filter((e) => !/^Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|FAILED)/.test(e));

describe('when the server cannot be reached', () => {
  it('shows a banner with Retry and keeps the page; Retry brings fresh data once the server answers', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${harness.ui}projects/default`);
    const toggle = page.getByRole('switch', { name: 'kept-on-screen in development' });
    await toggle.waitFor();

    // Every API request now fails as with the network gone.
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await toggle.click();
    const banner = page.locator('.connection-banner');
    await banner.getByText('Can’t reach the server.').waitFor();
    // The switch goes back to what is stored, and the table stays on screen.
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('switch', { name: 'also-kept in development' }).isVisible()).toBe(true);
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
    // Going to another page keeps the shell and says why its data is missing.
    await page.getByRole('link', { name: 'Event log' }).click();
    await page.getByRole('heading', { name: 'Event log', level: 1 }).waitFor();
    expect(await banner.isVisible()).toBe(true);
    await page.goBack();
    await toggle.waitFor();
    await screenshot(page, 'offline-banner');

    // Retry while still gone: the banner stays.
    await banner.getByRole('button', { name: 'Retry' }).click();
    await banner.getByRole('button', { name: 'Retry' }).waitFor();
    expect(await banner.isVisible()).toBe(true);

    // The server is back: a change made meanwhile shows after Retry, and the banner goes.
    await fetch(`${harness.root}api/admin/projects/default/features/also-kept/environments/development/on`, {
      method: 'POST',
    });
    await page.unroute('**/api/**');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await banner.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByRole('switch', { name: 'also-kept in development' }).getAttribute('aria-checked'))
      .toBe('true');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    expect(unexpected(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('offers Reload when a part of the app cannot be downloaded, with the navigation still there', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${harness.ui}projects`);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await page.route('**/assets/segments-page-*.js', (route) => route.abort('internetdisconnected'));
    await page.getByRole('link', { name: 'Segments' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'This part of Flagstaff could not be loaded' });
    await failure.waitFor();
    expect(await page.getByRole('link', { name: 'Projects' }).isVisible()).toBe(true);
    await page.unroute('**/assets/segments-page-*.js');
    await failure.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
    // The browser logs the failed module download itself; nothing else may be logged.
    expect(
      unexpected(consoleErrors).filter((e) => !/Failed to fetch dynamically imported module/.test(e)),
    ).toEqual([]);
    await context.close();
  });
});
