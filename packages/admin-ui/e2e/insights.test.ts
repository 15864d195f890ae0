// Insights draw what happened: no curve before the first flag, whole users, and no lead time for a
// project where nothing has reached production.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  const created = await fetch(`${harness.root}api/admin/projects/default/features`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'first-flag' }),
  });
  expect(created.ok).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('insights', () => {
  it('starts the flag curve at the first flag and says when there are no users to draw', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${harness.ui}insights`);
    const flags = page.getByRole('img', { name: 'Flags over time' });
    await flags.locator('.recharts-cartesian-axis-tick-value').first().waitFor();
    // The API answers 13 weeks, all but the last before the flag existed: only that week is drawn.
    const weeks = (await (await fetch(`${harness.root}api/admin/insights`)).json()) as {
      flagTrends: { date: string; total: number }[];
    };
    expect(weeks.flagTrends.filter((w) => w.total === 0).length).toBeGreaterThan(0);
    // Recharts draws every tick label in one layer: the dates are the x axis, the numbers the y axis.
    const ticks = await flags.locator('.recharts-cartesian-axis-tick-value').allTextContents();
    const last = new Date(weeks.flagTrends.at(-1)?.date ?? '');
    expect(ticks.filter((t) => Number.isNaN(Number(t)))).toEqual([
      last.toLocaleDateString('en-US', { month: 'short', day: 'numeric' }),
    ]);
    const counts = ticks.filter((t) => !Number.isNaN(Number(t)));
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.every((t) => Number.isInteger(Number(t)))).toBe(true);
    await page.getByText('No users yet.').waitFor();
    await screenshot(page, 'insights-first-flag');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('shows no lead time while nothing is in production, and one once a feature is', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${harness.ui}projects/default/overview`);
    const dora = page.locator('section', {
      has: page.getByRole('heading', { name: /lead time to production/ }),
    });
    await dora.getByText('No feature of this project has been enabled in production yet.').waitFor();
    expect(await dora.getByText(/days/).count()).toBe(0);
    await fetch(`${harness.root}api/admin/projects/default/features/first-flag/environments/production/on`, {
      method: 'POST',
    });
    await page.reload();
    await dora.getByText('Average time from creation to enabled in production').waitFor();
    expect(
      await dora.getByText('No feature of this project has been enabled in production yet.').count(),
    ).toBe(0);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
