// Every form shows what is wrong next to the field it concerns: the core schemas checked before
// sending, and the server's refusal (which names the property) placed on that property's field.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  const post = (path: string, body: unknown) =>
    fetch(`${harness.root}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await post('api/admin/projects/default/features', { name: 'taken' })).ok).toBe(true);
  expect((await post('api/admin/segments', { name: 'beta-testers', constraints: [] })).ok).toBe(true);
  expect((await post('api/admin/tag-types', { name: 'doomed' })).ok).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/** Console errors besides the browser's own log of the 4xx answers these tests provoke on purpose. */
const unexpected = (errors: string[]): string[] =>
  errors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(e));

/** The message shown under the control with this id ('' when none), read without waiting. */
const errorUnder = async (scope: Page | Locator, id: string): Promise<string> =>
  (await scope.locator(`.field-invalid:has([id="${id}"]) .field-error`).allTextContents()).join(' ');

describe('errors next to the field', () => {
  it('create project: an invalid naming pattern, an example it does not match, a taken id', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${harness.ui}projects`);
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Project id').fill('checkout');
    await dialog.getByLabel('Name', { exact: true }).fill('Checkout');
    // Lookahead is JavaScript, not RE2: the server refuses it, and so does the form, with the same rule.
    for (const pattern of ['^(?=co)co-.+', '[a-', '(unclosed']) {
      await dialog.getByLabel('Pattern').fill(pattern);
      await dialog.getByLabel('Example').fill('co-cart');
      await dialog.getByRole('button', { name: 'Create project' }).click();
      await expect.poll(() => errorUnder(dialog, 'naming-pattern')).toContain('RE2 syntax');
    }
    await screenshot(page, 'form-error-naming-pattern');
    await dialog.getByLabel('Pattern').fill('co-.+');
    await dialog.getByLabel('Example').fill('cart');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect.poll(() => errorUnder(dialog, 'naming-example')).toBe('Must match the pattern.');
    expect(await errorUnder(dialog, 'naming-pattern')).toBe('');

    // Refused by the server only (the id exists): shown under "Project id", not in a banner.
    await dialog.getByLabel('Example').fill('co-cart');
    await dialog.getByLabel('Project id').fill('default');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect
      .poll(() => errorUnder(dialog, 'project-id'))
      .toBe('A project with id "default" already exists.');
    expect(await page.locator('.toast-error').count()).toBe(0);
    expect(unexpected(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('create feature: a taken name is refused under the name field', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${harness.ui}projects/default`);
    await page.getByRole('button', { name: 'New feature flag' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('taken');
    await dialog.getByRole('button', { name: 'Create feature' }).click();
    await expect
      .poll(() => errorUnder(dialog, 'feature-name'))
      .toBe('A feature named "taken" already exists.');
    expect(await page.locator('.toast-error').count()).toBe(0);
    expect(unexpected(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('variants: a fixed weight over 1000 and a JSON payload that is not JSON, each under its field', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${harness.ui}projects/default/features/taken`);
    await page
      .getByRole('region', { name: 'Environment development' })
      .getByRole('button', { name: 'Variants' })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add variant' }).click();
    await dialog.getByRole('button', { name: 'Add variant' }).click();
    const first = dialog.getByRole('group', { name: 'Variant 1' });
    const second = dialog.getByRole('group', { name: 'Variant 2' });
    await first.getByLabel('Name', { exact: true }).fill('blue');
    await first.getByLabel('Weight type').selectOption('fix');
    await first.getByLabel('Weight (0–1000)').fill('1200');
    await second.getByLabel('Name', { exact: true }).fill('green');
    await second.getByLabel('Payload type').selectOption('json');
    await second.getByLabel('Payload value').fill('{"size": 1,}');
    await dialog.getByRole('button', { name: 'Save variants' }).click();
    await first.locator('.field-error').getByText('Must be at most 1000.').waitFor();
    await second.locator('.field-error').getByText('Must be valid JSON.').waitFor();
    expect(await first.locator('.field-error').count()).toBe(1);
    expect(await second.locator('.field-error').count()).toBe(1);
    await screenshot(page, 'form-error-variants');
    await first.getByLabel('Weight (0–1000)').fill('300');
    await second.getByLabel('Payload value').fill('{"size": 1}');
    await dialog.getByRole('button', { name: 'Save variants' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The strategy dialog's variants and parameters use the same rows and the same placement.
    await page
      .getByRole('region', { name: 'Environment development' })
      .getByRole('button', { name: 'Add strategy' })
      .click();
    const strategy = page.getByRole('dialog');
    await strategy.getByRole('button', { name: 'Add variant' }).click();
    const row = strategy.getByRole('group', { name: 'Variant 1' });
    await row.getByLabel('Name', { exact: true }).fill('red');
    await row.getByLabel('Payload type').selectOption('number');
    await row.getByLabel('Payload value').fill('ten');
    await strategy.getByRole('button', { name: 'Save strategy' }).click();
    await row.locator('.field-error').getByText('Must be a number.').waitFor();
    await row.getByLabel('Payload value').fill('10');
    await strategy.getByRole('button', { name: 'Save strategy' }).click();
    await strategy.waitFor({ state: 'detached' });
    expect(unexpected(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('tags, segments and context fields: the server’s refusal shows under the field', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${harness.ui}projects/default/features/taken`);
    await page.getByRole('tab', { name: /Details, tags/ }).click();
    // Save says why it is disabled until something changes.
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    expect(await save.getAttribute('title')).toBe('Nothing changed.');
    await page.getByLabel('Description').fill('Now described');
    expect(await save.isDisabled()).toBe(false);
    const tagBox = page.getByLabel('Tag value');
    const tagForm = page.locator('form', { has: tagBox });
    await page.getByLabel('Tag type').selectOption('simple');
    await tagBox.fill('x');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await tagForm.locator('.field-error').getByText('Must be 2 to 50 characters.').waitFor();
    // A tag type deleted after the page listed it: only the server knows, and its refusal shows in place.
    const gone = await fetch(`${harness.root}api/admin/tag-types/doomed`, { method: 'DELETE' });
    expect(gone.ok).toBe(true);
    await page.getByLabel('Tag type').selectOption('doomed');
    await tagBox.fill('checkout');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await tagForm.locator('.field-error').getByText('Could not find tag type "doomed".').waitFor();
    expect(await page.locator('.toast-error').count()).toBe(0);

    await page.goto(`${harness.ui}segments`);
    await page.getByRole('button', { name: 'New segment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('beta-testers');
    await dialog.getByRole('button', { name: 'Save segment' }).click();
    await expect
      .poll(() => errorUnder(dialog, 'seg-name'))
      .toBe('A segment named "beta-testers" already exists.');

    await page.goto(`${harness.ui}context`);
    await page.getByLabel('Name', { exact: true }).fill('userId');
    await page.getByRole('button', { name: 'Create context field' }).click();
    await expect
      .poll(() => errorUnder(page, 'cf-name'))
      .toBe('A context field named "userId" already exists.');
    expect(await page.locator('.toast-error').count()).toBe(0);
    expect(unexpected(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('addon URL and API token: refused under the field that holds them', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${harness.ui}integrations`);
    // Loopback is refused by the server's outbound policy; only the server knows that.
    await page.getByLabel('URL').fill('http://127.0.0.1:9/hook');
    await page.getByRole('button', { name: 'Create addon' }).click();
    await expect
      .poll(() => errorUnder(page, 'addon-url'))
      .toMatch(/^Is refused|^Is .*FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS/);
    await page.getByLabel('URL').fill('ftp://example.com/hook');
    await page.getByRole('button', { name: 'Create addon' }).click();
    await expect.poll(() => errorUnder(page, 'addon-url')).toBe('Must be an http or https URL.');
    expect(await page.locator('.toast-error').count()).toBe(0);
    // The form is long: the refused field is brought into view and focused, not left off screen.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('addon-url');
    await screenshot(page, 'form-error-addon-url');

    await page.goto(`${harness.ui}access`);
    await page.getByRole('button', { name: 'New API token' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => errorUnder(dialog, 'token-name')).not.toBe('');
    expect(unexpected(consoleErrors)).toEqual([]);
    await context.close();
  });
});
