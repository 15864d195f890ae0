import { SYSTEM } from '@flagstaff/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;
let page: Page;
let consoleErrors: string[];

async function call(method: string, path: string, body?: unknown) {
  const answer = await fetch(`${harness.root}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(answer.ok, `${method} ${path}: ${answer.status}`).toBe(true);
}

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  ({ page, consoleErrors } = await openPage(browser));
  await call('POST', 'api/admin/context', {
    name: 'plan',
    legalValues: [{ value: 'free' }, { value: 'trial' }],
  });
  await call('POST', 'api/admin/tag-types', { name: 'team' });
  await call('POST', 'api/admin/environments', { name: 'qa', type: 'test' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const go = (path: string) => page.goto(`${harness.ui}${path}`);

describe('editing the instance settings in the browser', () => {
  it('edits a context field: description, stickiness and legal values with descriptions', async () => {
    await go('context');
    await page.getByRole('button', { name: 'Edit plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Context field plan' });
    await dialog.getByLabel('Description', { exact: true }).fill('What the customer pays for');
    await dialog.getByLabel('Usable as stickiness').check();
    const first = dialog.getByRole('group', { name: 'Legal value 1' });
    await first.getByLabel('Value description').fill('No cost');
    await dialog.getByRole('button', { name: 'Remove legal value 2' }).click();
    await dialog.getByRole('button', { name: 'Add legal value' }).click();
    const added = dialog.getByRole('group', { name: 'Legal value 2' });
    // A value listed twice is refused beside its row, before anything is sent.
    await added.getByLabel('Value', { exact: true }).fill('free');
    await dialog.getByRole('button', { name: 'Save context field' }).click();
    await added.getByRole('alert').getByText('Value lists "free" twice').waitFor();
    await added.getByLabel('Value', { exact: true }).fill('pro');
    await added.getByLabel('Value description').fill('Paying customers');
    await screenshot(page, 'context-field-editor');
    await dialog.getByRole('button', { name: 'Save context field' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.reload();
    await page.getByRole('button', { name: 'Edit plan' }).click();
    const again = page.getByRole('dialog', { name: 'Context field plan' });
    expect(await again.getByLabel('Description', { exact: true }).inputValue()).toBe(
      'What the customer pays for',
    );
    expect(await again.getByLabel('Usable as stickiness').isChecked()).toBe(true);
    const values = await again
      .getByLabel('Value', { exact: true })
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(values).toEqual(['free', 'pro']);
    expect(await again.getByLabel('Value description').nth(1).inputValue()).toBe('Paying customers');
    await again.getByRole('button', { name: 'Cancel' }).click();
    const stored = await harness.api.flagstaff.contextFields.get(SYSTEM, 'plan');
    expect(stored).toMatchObject({
      description: 'What the customer pays for',
      stickiness: true,
      legalValues: [
        { value: 'free', description: 'No cost' },
        { value: 'pro', description: 'Paying customers' },
      ],
    });
  });

  it('edits a tag type description', async () => {
    await go('tag-types');
    await page.getByRole('button', { name: 'Edit team' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tag type team' });
    await dialog.getByLabel('Description').fill('The owning team');
    await dialog.getByRole('button', { name: 'Save tag type' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('cell', { name: 'The owning team' }).waitFor();
    // A name already taken is refused under the name field, not in a toast.
    await page.getByLabel('Name').fill('team');
    await page.getByRole('button', { name: 'Create tag type' }).click();
    await page
      .locator('.field', { has: page.getByLabel('Name') })
      .getByRole('alert')
      .waitFor();
    expect(
      await page
        .locator('.field', { has: page.getByLabel('Name') })
        .getByRole('alert')
        .textContent(),
    ).toMatch(/team/);
  });

  it('edits an environment type and sort order, and turns it off and on', async () => {
    await go('environments');
    await page.getByRole('button', { name: 'Edit qa' }).click();
    const dialog = page.getByRole('dialog', { name: 'Environment qa' });
    await dialog.getByLabel('Type').selectOption('preproduction');
    await dialog.getByLabel('Sort order').fill('1.5');
    await dialog.getByRole('button', { name: 'Save environment' }).click();
    await dialog.getByText('Sort order must be a whole number').waitFor();
    await dialog.getByLabel('Sort order').fill('0');
    await screenshot(page, 'environment-editor');
    await dialog.getByRole('button', { name: 'Save environment' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('switch', { name: 'Environment qa enabled' }).click();
    await expect
      .poll(async () => (await harness.api.flagstaff.environments.get(SYSTEM, 'qa')).enabled)
      .toBe(false);

    await page.reload();
    const row = page.getByRole('row', { name: /qa/ });
    await row.getByText('preproduction').waitFor();
    await row.getByText('#0').waitFor();
    expect(await row.getByRole('switch').getAttribute('aria-checked')).toBe('false');
    // Sort order 0 puts qa before development (1) and production (2).
    const names = await page.locator('td.cell-name').allTextContents();
    expect(names.indexOf('qa')).toBeLessThan(names.indexOf('development'));
    await row.getByRole('switch').click();
    await expect
      .poll(async () => (await harness.api.flagstaff.environments.get(SYSTEM, 'qa')).enabled)
      .toBe(true);
    expect(await harness.api.flagstaff.environments.get(SYSTEM, 'qa')).toMatchObject({
      type: 'preproduction',
      sortOrder: 0,
    });
  });

  it('offers every event type, searchable and grouped, with project and environment filters', async () => {
    await go('integrations');
    await page.getByText('(2 of 147 selected)').waitFor();
    await page.getByLabel('URL').fill('https://hooks.example.com/flags');
    await page.getByPlaceholder('Search event types…').fill('segment');
    const segments = page.getByRole('group', { name: 'Segments' });
    await segments.getByRole('button', { name: 'segment-created' }).waitFor();
    expect(await page.getByRole('group', { name: 'Projects', exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Select every Segments event shown' }).click();
    await page.getByText('(6 of 147 selected)').waitFor();
    await page.getByPlaceholder('Search event types…').fill('');
    await page.getByRole('group', { name: 'Projects' }).getByRole('button', { name: 'default' }).click();
    await page
      .getByRole('group', { name: 'Environments' })
      .getByRole('button', { name: 'production' })
      .click();
    await screenshot(page, 'addon-events');
    await page.getByRole('button', { name: 'Create addon' }).click();
    await page.getByRole('link', { name: 'Open its deliveries' }).waitFor();
    const [created] = (await harness.api.flagstaff.addons.list(SYSTEM)).addons;
    expect(created).toMatchObject({ projects: ['default'], environments: ['production'] });
    expect(new Set(created?.events)).toEqual(
      new Set([
        'feature-created',
        'feature-updated',
        'segment-created',
        'segment-updated',
        'segment-deleted',
        'segment-import',
      ]),
    );

    // Edited on its own page: fewer events, no project filter; saved and shown after a reload.
    await page.goto(`${harness.ui}integrations/addons/${created?.id}`);
    const config = page.locator('section.card', {
      has: page.getByRole('heading', { name: 'Configuration' }),
    });
    await config.getByText('(6 of 147 selected)').waitFor();
    await config.getByRole('button', { name: 'Clear every Segments event shown' }).click();
    await config.getByRole('group', { name: 'Projects' }).getByRole('button', { name: 'default' }).click();
    await config.getByLabel('Description (optional)').fill('Flag changes to the release channel');
    await config.getByRole('button', { name: 'Save addon' }).click();
    await expect
      .poll(async () => (await harness.api.flagstaff.addons.list(SYSTEM)).addons[0]?.events.length)
      .toBe(2);
    await page.reload();
    await config.getByText('(2 of 147 selected)').waitFor();
    expect((await harness.api.flagstaff.addons.list(SYSTEM)).addons[0]).toMatchObject({
      description: 'Flag changes to the release channel',
      projects: [],
      environments: ['production'],
      events: ['feature-created', 'feature-updated'],
    });
  });

  it('logged no console errors but the refusal the tag type test asked for', () => {
    const expected = /status of 409 \(Conflict\) \(.*\/api\/admin\/tag-types\)$/;
    expect(consoleErrors.filter((e) => !expected.test(e))).toEqual([]);
  });
});
