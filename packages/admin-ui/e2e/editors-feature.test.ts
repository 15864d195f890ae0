import { SYSTEM } from '@flagstaff/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;
let page: Page;
let consoleErrors: string[];
/** Every API request the page made, as path and query. */
const requests: URL[] = [];

const F = 'api/admin/projects/default/features';
const feature = (name: string) => harness.api.flagstaff.features.get(SYSTEM, 'default', name);

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
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.includes('/api/')) requests.push(url);
  });
  for (let i = 1; i <= 40; i++) await call('POST', F, { name: `svc-${String(i).padStart(3, '0')}` });
  await call('POST', F, { name: 'checkout' });
  await call('POST', F, { name: 'payments-api' });
  await call('PUT', `${F}/payments-api/environments/development/variants`, [
    { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
    { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
  ]);
  await call('POST', `${F}/checkout/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '40', stickiness: 'default', groupId: 'checkout' },
    constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
  });
  await call('POST', 'api/admin/context', {
    name: 'country',
    legalValues: [{ value: 'NO' }, { value: 'SE' }],
  });
  await call('POST', 'api/admin/tag-types', { name: 'team' });
  await call('POST', 'api/admin/features/payments-api/tags', { type: 'team', value: 'payments' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const openFeature = async (name: string, tab?: RegExp) => {
  await page.goto(`${harness.ui}projects/default/features/${name}`);
  await page.getByRole('heading', { name: new RegExp(name), level: 1 }).waitFor();
  if (tab) await page.getByRole('tab', { name: tab }).click();
};
/** Requests for the project's whole feature list (the route without a feature name). */
const wholeProjectLoads = () =>
  requests.filter((u) => /\/api\/admin\/projects\/default\/features\/?$/.test(u.pathname));

describe('editing a feature in the browser', () => {
  it('finds a parent by typing (the server searches) and never loads the whole project', async () => {
    requests.length = 0;
    await openFeature('checkout', /Details/);
    const picker = page.getByRole('combobox', { name: 'Parent feature' });
    await picker.click();
    const narrowed = page.waitForResponse((r) => r.url().includes('query=paym'));
    await picker.pressSequentially('paym', { delay: 40 });
    await narrowed;
    await page.getByRole('list', { name: 'Matching features' }).getByRole('button').first().waitFor();
    await screenshot(page, 'parent-picker');
    await page.getByRole('button', { name: /^payments-api/ }).click();
    await page.getByLabel('Condition').selectOption('variants');
    await page.getByRole('group', { name: 'Parent variants' }).getByRole('button', { name: 'blue' }).click();
    await screenshot(page, 'dependency-editor');
    await page.getByRole('button', { name: 'Add dependency' }).click();
    await page.getByText('Requires payments-api enabled with variant blue').waitFor();

    expect(wholeProjectLoads()).toEqual([]);
    const searches = requests
      .filter((u) => u.pathname.endsWith('/api/admin/search/features'))
      .map((u) => u.searchParams.get('query') ?? '');
    // One request when the picker opens and one after the pause in typing: none per keystroke.
    expect(searches).toContain('paym');
    expect(searches.filter((q) => ['p', 'pa', 'pay'].includes(q))).toEqual([]);
    expect(
      requests.every(
        (u) => u.searchParams.get('project') !== null || !u.pathname.endsWith('/search/features'),
      ),
    ).toBe(true);

    await page.reload();
    await page.getByRole('tab', { name: /Details/ }).click();
    await page.getByText('Requires payments-api enabled with variant blue').waitFor();
    expect((await feature('checkout')).dependencies).toEqual([
      { feature: 'payments-api', enabled: true, variants: ['blue'] },
    ]);

    // The same parent again with another condition changes it: parent disabled.
    // By keyboard this time: Enter takes the first match once the server has answered.
    const again = page.getByRole('combobox', { name: 'Parent feature' });
    const answered = page.waitForResponse((r) => r.url().includes('query=payments'));
    await again.pressSequentially('payments', { delay: 30 });
    await answered;
    await page
      .getByRole('list', { name: 'Matching features' })
      .getByRole('button', { name: /^payments-api/ })
      .waitFor();
    await again.press('Enter');
    expect(await again.inputValue()).toBe('payments-api');
    await page.getByLabel('Condition').selectOption('disabled');
    await page.getByRole('button', { name: 'Add dependency' }).click();
    await page.getByText('Requires payments-api disabled').waitFor();
    await page.reload();
    await page.getByRole('tab', { name: /Details/ }).click();
    await page.getByText('Requires payments-api disabled').waitFor();
    expect((await feature('checkout')).dependencies).toEqual([
      { feature: 'payments-api', enabled: false, variants: [] },
    ]);
    expect(wholeProjectLoads()).toEqual([]);
  });

  it('adds a tag with a type picked and the type’s existing values offered', async () => {
    await openFeature('checkout', /Details/);
    await page.getByLabel('Tag type').selectOption('team');
    await expect
      .poll(() =>
        page.locator('datalist option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)),
      )
      .toEqual(['payments']);
    await page.getByLabel('Tag value').fill('payments');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('button', { name: 'Remove tag team:payments' }).waitFor();
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByText('Enter a value for the tag.').waitFor();
    await page.reload();
    await page.getByRole('tab', { name: /Details/ }).click();
    await page.getByRole('button', { name: 'Remove tag team:payments' }).waitFor();
    expect((await feature('checkout')).tags).toEqual([{ type: 'team', value: 'payments' }]);
  });

  it('saves variant overrides exactly as typed, row by row', async () => {
    await openFeature('checkout');
    const development = page.getByRole('region', { name: 'Environment development' });
    await development.getByRole('button', { name: 'Variants' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add variant' }).click();
    const variant = dialog.getByRole('group', { name: 'Variant 1' });
    await variant.getByLabel('Name').fill('early');
    await variant.getByRole('button', { name: 'Add override' }).click();
    // Saving an empty row is refused beside it.
    await dialog.getByRole('button', { name: 'Save variants' }).click();
    await variant.getByRole('group', { name: 'Override 1' }).getByText('Pick a context field.').waitFor();
    const first = variant.getByRole('group', { name: 'Override 1' });
    await first.getByLabel('Context field').selectOption('userId');
    const values = first.getByLabel('Values (comma separated)');
    await values.pressSequentially('alice,bob', { delay: 20 });
    expect(await values.inputValue()).toBe('alice,bob');
    await variant.getByRole('button', { name: 'Add override' }).click();
    const second = variant.getByRole('group', { name: 'Override 2' });
    await second.getByLabel('Context field').selectOption('country');
    await second.getByLabel('Values (comma separated)').pressSequentially('NO', { delay: 20 });
    // The field's legal values are offered as toggles beside what was typed.
    expect(await second.getByRole('button', { name: 'NO' }).getAttribute('aria-pressed')).toBe('true');
    await second.getByRole('button', { name: 'SE' }).click();
    expect(await second.getByLabel('Values (comma separated)').inputValue()).toBe('NO, SE');
    await screenshot(page, 'variant-overrides');
    await dialog.getByRole('button', { name: 'Save variants' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = (await feature('checkout')).environments.find((e) => e.name === 'development')?.variants;
    expect(saved?.[0]?.overrides).toEqual([
      { contextName: 'userId', values: ['alice', 'bob'] },
      { contextName: 'country', values: ['NO', 'SE'] },
    ]);

    await page.reload();
    await development.getByRole('button', { name: 'Variants' }).click();
    const again = page.getByRole('dialog').getByRole('group', { name: 'Variant 1' });
    expect(
      await again
        .getByRole('group', { name: 'Override 1' })
        .getByLabel('Values (comma separated)')
        .inputValue(),
    ).toBe('alice, bob');
    expect(
      await again.getByRole('group', { name: 'Override 2' }).getByLabel('Context field').inputValue(),
    ).toBe('country');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  });

  it('copies a strategy to another environment', async () => {
    await openFeature('checkout');
    const development = page.getByRole('region', { name: 'Environment development' });
    await development.getByRole('button', { name: 'Copy flexibleRollout to other environments' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^production/).check();
    await screenshot(page, 'copy-strategy');
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const production = page.getByRole('region', { name: 'Environment production' });
    await production.getByText('appName IN web').waitFor();
    await page.reload();
    await production.getByText('40% of default').waitFor();
    const copied = (await feature('checkout')).environments.find((e) => e.name === 'production')?.strategies;
    expect(copied).toHaveLength(1);
    expect(copied?.[0]).toMatchObject({
      name: 'flexibleRollout',
      parameters: { rollout: '40', stickiness: 'default', groupId: 'checkout' },
      constraints: [expect.objectContaining({ contextName: 'appName', operator: 'IN', values: ['web'] })],
    });
    // The source keeps its own.
    expect(
      (await feature('checkout')).environments.find((e) => e.name === 'development')?.strategies,
    ).toHaveLength(1);
  });

  it('offers case insensitivity only for text operators and names every operator', async () => {
    await openFeature('checkout');
    await page
      .getByRole('region', { name: 'Environment development' })
      .getByRole('button', { name: 'Add strategy' })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const row = dialog.getByRole('group', { name: 'Constraint 1' });
    const operators = await row.getByLabel('Operator').locator('option').allTextContents();
    expect(operators).toEqual(
      expect.arrayContaining([
        '≥ (semver) (SEMVER_GTE)',
        '≤ (semver) (SEMVER_LTE)',
        'matches regular expression (REGEX)',
        'is in IP range (CIDR) (IN_CIDR)',
      ]),
    );
    await row.getByLabel('Operator').selectOption('STR_CONTAINS');
    await row.getByLabel('Case insensitive').check();
    for (const op of ['NUM_GT', 'DATE_AFTER', 'SEMVER_GTE', 'IN']) {
      await row.getByLabel('Operator').selectOption(op);
      expect(await row.getByLabel('Case insensitive').count()).toBe(0);
    }
    await row.getByLabel('Operator').selectOption('REGEX');
    expect(await row.getByLabel('Case insensitive').isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('shows the server’s refusal of a parent under the parent field: a dependency cycle', async () => {
    // checkout already depends on payments-api, so checkout cannot become payments-api's parent.
    await openFeature('payments-api', /Details/);
    const save = page.getByRole('button', { name: 'Add dependency' });
    expect(await save.getAttribute('title')).toBe('Pick a parent feature first.');
    const picker = page.getByRole('combobox', { name: 'Parent feature' });
    const answered = page.waitForResponse((r) => r.url().includes('query=checkout'));
    await picker.pressSequentially('checkout', { delay: 30 });
    await answered;
    await page
      .getByRole('list', { name: 'Matching features' })
      .getByRole('button', { name: /^checkout/ })
      .click();
    await save.click();
    const field = page.locator('.field', { has: picker });
    await field
      .locator('.field-error')
      .getByText('would make a dependency cycle with "payments-api"')
      .waitFor();
    expect(await page.locator('.toast-error').count()).toBe(0);
    expect((await feature('payments-api')).dependencies).toEqual([]);
  });

  it('logged no console errors but the refusal the cycle test asked for', () => {
    const expected = /status of 400 \(Bad Request\) \(.*\/features\/payments-api\/dependencies\)$/;
    expect(consoleErrors.filter((e) => !expected.test(e))).toEqual([]);
  });
});
