import { SYSTEM } from '@flagstaff/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;
let page: Page;
let consoleErrors: string[];

const feature = (name: string) => harness.api.flagstaff.features.get(SYSTEM, 'default', name);

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  ({ page, consoleErrors } = await openPage(browser));
  for (let i = 1; i <= 12; i++) {
    const name = `${i % 2 ? 'alpha' : 'beta'}-${String(i).padStart(2, '0')}`;
    const answer = await fetch(`${harness.root}api/admin/projects/default/features`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, type: i === 12 ? 'kill-switch' : 'release' }),
    });
    expect(answer.ok).toBe(true);
  }
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('the project feature table', () => {
  it('searches, filters, sorts and pages', async () => {
    await page.goto(`${harness.ui}projects/default`);
    await page.getByLabel('Rows per page').selectOption('10');
    await page.getByText('1–10 of 12').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('11–12 of 12').waitFor();
    await page.getByRole('button', { name: /^Name/ }).click();
    await page.getByText('1–10 of 12').waitFor();
    // The range label is the same before and after the sorted rows arrive: wait for the rows.
    await expect
      .poll(() =>
        page
          .getByRole('link', { name: /^(alpha|beta)-/ })
          .first()
          .textContent(),
      )
      .toBe('alpha-01');
    await page.getByLabel('Search features').fill('beta');
    await page.getByText('1–6 of 6').waitFor();
    await page.getByRole('combobox', { name: 'Type' }).selectOption('kill-switch');
    await page.getByText('1–1 of 1').waitFor();
    expect(await page.getByRole('link', { name: /^(alpha|beta)-/ }).allTextContents()).toEqual(['beta-12']);
    await page.getByRole('combobox', { name: 'Type' }).selectOption('');
    await page.getByLabel('Search features').fill('');
  });

  it('asks before switching a flag in production, and switches it once confirmed', async () => {
    await page.goto(`${harness.ui}projects/default`);
    await page.getByLabel('Search features').fill('beta-02');
    await page.getByText('1–1 of 1').waitFor();
    const inProduction = page.getByRole('switch', { name: 'beta-02 in production' });
    const ask = page.getByRole('dialog', { name: 'Change a production environment' });
    await inProduction.click();
    await ask.getByText('Enable beta-02 in production? This is a production environment.').waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await inProduction.isChecked()).toBe(false);

    await inProduction.click();
    await ask.getByRole('button', { name: 'Enable in production' }).click();
    await expect
      .poll(async () => (await feature('beta-02')).environments.find((e) => e.name === 'production')?.enabled)
      .toBe(true);
    await expect.poll(() => inProduction.isChecked()).toBe(true);
    await page.getByLabel('Search features').fill('');
    await page.getByText('1–12 of 12').waitFor();
  });

  it('enables, tags, marks stale and archives the selected features', async () => {
    await page.getByLabel('Select alpha-01').check();
    await page.getByLabel('Select alpha-03').check();
    const bulk = page.getByRole('region', { name: 'Bulk actions' });
    await bulk.getByText('2 selected').waitFor();

    await bulk.getByRole('button', { name: /Enable \/ disable/ }).click();
    await page.getByRole('menuitem', { name: 'Enable in development' }).click();
    await expect
      .poll(
        async () => (await feature('alpha-03')).environments.find((e) => e.name === 'development')?.enabled,
      )
      .toBe(true);

    await page.getByLabel('Select alpha-01').check();
    await page.getByLabel('Select alpha-03').check();
    await bulk.getByRole('button', { name: 'Tag' }).click();
    await page.getByRole('dialog').getByLabel('Value').fill('bulk-tagged');
    await page.getByRole('dialog').getByRole('button', { name: 'Add tag' }).click();
    await expect
      .poll(async () => (await feature('alpha-01')).tags.map((t) => t.value))
      .toContain('bulk-tagged');

    await page.getByLabel('Select alpha-01').check();
    await page.getByLabel('Select alpha-03').check();
    await bulk.getByRole('button', { name: 'Mark stale' }).click();
    await expect.poll(async () => (await feature('alpha-01')).stale).toBe(true);
    await page.getByRole('combobox', { name: 'State' }).selectOption('stale');
    await page.getByText('1–2 of 2').waitFor();

    await page.getByLabel('Select all features on this page').check();
    await bulk.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await page.getByText('No feature flags match.').waitFor();
    await page.goto(`${harness.ui}archive`);
    await page.getByRole('cell', { name: 'alpha-03' }).waitFor();
    expect(consoleErrors).toEqual([]);
  });
});
