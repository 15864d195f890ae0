import { SYSTEM } from '@flagstaff/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;
let page: Page;
let consoleErrors: string[];

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  ({ page, consoleErrors } = await openPage(browser));
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const go = (path: string) => page.goto(`${harness.ui}${path}`);

async function addConstraint(
  dialog: ReturnType<Page['getByRole']>,
  index: number,
  field: string,
  operator: string,
  values: string,
) {
  await dialog.getByRole('button', { name: 'Add constraint' }).click();
  const row = dialog.getByRole('group', { name: `Constraint ${index + 1}` });
  await row.getByLabel('Context field').selectOption(field);
  await row.getByLabel('Operator').selectOption(operator);
  await row.getByLabel(/^Values?/).fill(values);
}

describe('a feature flag from creation to evaluation, in the browser', () => {
  it('creates a project with a naming pattern, a segment and a feature that must follow the pattern', async () => {
    await go('');
    await expect.poll(() => page.url()).toMatch(/\/ui\/projects$/);
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Project id').fill('checkout');
    await page.getByLabel('Name', { exact: true }).fill('Checkout');
    await page.getByLabel('Pattern').fill('checkout-.+');
    await page.getByLabel('Example').fill('checkout-new-flow');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/ui\/projects\/checkout$/);

    await go('segments');
    await page.getByRole('button', { name: 'New segment' }).click();
    const segment = page.getByRole('dialog');
    await segment.getByLabel('Name').fill('beta-testers');
    await addConstraint(segment, 0, 'userId', 'IN', 'u1, u2, u3');
    await segment.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('cell', { name: 'beta-testers' }).waitFor();

    await go('projects/checkout');
    await page.getByRole('button', { name: 'New feature flag' }).click();
    const create = page.getByRole('dialog');
    await expect.poll(() => create.textContent()).toContain('Example: checkout-new-flow');
    await create.getByLabel('Name').fill('new-flow');
    await create.getByRole('button', { name: 'Create feature' }).click();
    await create.getByText("must match the project's naming pattern").waitFor();
    await create.getByLabel('Name').fill('checkout-new-flow');
    await create.getByRole('button', { name: 'Create feature' }).click();
    await page.getByRole('heading', { name: /checkout-new-flow/, level: 1 }).waitFor();
  });

  it('adds a flexibleRollout with two constraints and a segment, variants, and enables it in development', async () => {
    const development = page.getByRole('region', { name: 'Environment development' });
    await development.getByRole('button', { name: 'Add strategy' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Strategy', { exact: true }).selectOption('flexibleRollout');
    await dialog.getByRole('button', { name: 'beta-testers' }).click();
    await addConstraint(dialog, 0, 'appName', 'STR_STARTS_WITH', 'web');
    await addConstraint(dialog, 1, 'environment', 'IN', 'development, staging');
    await screenshot(page, 'strategy-editor');
    await dialog.getByRole('button', { name: 'Save strategy' }).click();
    await dialog.waitFor({ state: 'detached' });
    await development.getByText('appName STR_STARTS_WITH web').waitFor();
    await development.getByText('segment: beta-testers').waitFor();

    await development.getByRole('button', { name: 'Variants' }).click();
    const variants = page.getByRole('dialog');
    await variants.getByRole('button', { name: 'Add variant' }).click();
    await variants.getByRole('button', { name: 'Add variant' }).click();
    await variants.getByRole('group', { name: 'Variant 1' }).getByLabel('Name', { exact: true }).fill('blue');
    await variants
      .getByRole('group', { name: 'Variant 2' })
      .getByLabel('Name', { exact: true })
      .fill('green');
    await variants.getByRole('group', { name: 'Variant 2' }).getByLabel('Payload type').selectOption('json');
    await variants
      .getByRole('group', { name: 'Variant 2' })
      .getByLabel('Payload value')
      .fill('{"color": "green"}');
    await variants.getByRole('button', { name: 'Save variants' }).click();
    await variants.waitFor({ state: 'detached' });
    await development.getByText('2 variant(s)').waitFor();

    const toggle = development.getByRole('switch', { name: 'checkout-new-flow in development' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await expect
      .poll(
        async () =>
          (
            await harness.api.flagstaff.features.get(SYSTEM, 'checkout', 'checkout-new-flow')
          ).environments.find((e) => e.name === 'development')?.enabled,
      )
      .toBe(true);
    await screenshot(page, 'feature');

    await page.getByRole('tab', { name: /Details/ }).click();
    await page.getByLabel('Tag type').selectOption('simple');
    await page.getByLabel('Tag value').fill('team-checkout');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('button', { name: 'Remove tag simple:team-checkout' }).waitFor();
    await page.locator('#feature-type-edit').selectOption('experiment');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(
        async () => (await harness.api.flagstaff.features.get(SYSTEM, 'checkout', 'checkout-new-flow')).type,
      )
      .toBe('experiment');
    await screenshot(page, 'feature-details');
    await page.getByRole('tab', { name: 'Environments' }).click();
  });

  it('shows the feature on in the project table, and the playground explains its evaluation', async () => {
    await go('projects/checkout');
    await page.getByRole('link', { name: 'checkout-new-flow' }).waitFor();
    expect(
      await page
        .getByRole('switch', { name: 'checkout-new-flow in development' })
        .getAttribute('aria-checked'),
    ).toBe('true');
    await screenshot(page, 'project');

    await page.getByRole('link', { name: 'checkout-new-flow' }).click();
    await page.getByRole('link', { name: 'Open in playground' }).click();
    await page.locator('#pg-env').selectOption('development');
    await page.getByLabel('appName').fill('web-shop');
    await page.getByLabel('userId').fill('u1');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    const row = page.locator('tr', {
      has: page.getByRole('cell', { name: 'checkout-new-flow', exact: true }),
    });
    await row.getByText('true', { exact: true }).waitFor();
    // Opened from the feature page, the feature's explanation is already expanded.
    await row.getByRole('button', { name: 'Hide' }).waitFor();
    await page.getByText('Segment beta-testers').waitFor();
    await page.getByText('appName STR_STARTS_WITH web').waitFor();
    await screenshot(page, 'playground');
  });

  it('lists the changes in the event log with a readable diff', async () => {
    await go('events');
    await page.getByLabel('Feature').fill('checkout-new-flow');
    const log = page.getByRole('list', { name: 'Events' });
    await log.getByText('feature-environment-enabled').first().waitFor();
    await log.getByText('feature-strategy-add').first().waitFor();
    await log.getByText('feature-created').first().waitFor();
    await log.getByText('+ constraints').first().waitFor();
    await screenshot(page, 'events');
  });

  it('renders the other main pages without console errors', async () => {
    for (const [path, name, heading] of [
      ['projects', 'projects', 'Projects'],
      ['projects/checkout/overview', 'project-overview', 'Checkout: overview'],
      ['segments', 'segments', 'Segments'],
      ['context', 'context-fields', 'Context fields'],
      ['environments', 'environments', 'Environments'],
      ['access', 'access', 'Access'],
      ['integrations', 'integrations', 'Integrations'],
      ['insights', 'insights', 'Insights'],
    ] as const) {
      await go(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await screenshot(page, name);
    }
    expect(consoleErrors).toEqual([]);
  });
});
