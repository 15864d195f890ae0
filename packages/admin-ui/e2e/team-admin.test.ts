// Team administration at scale in the admin UI: adding a project member searches users on the server
// as one types; a group's root role is shown and edited; a project's own context fields are listed,
// created, edited and deleted; copying strategies to several environments is one request. Real
// server, real browser.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;
let page: Page;
let consoleErrors: string[];
/** The admin API paths the page asked for, in order. */
const requested: string[] = [];

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await fetch(`${harness.root}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(answer.status, `${method} ${path}: ${await answer.clone().text()}`).toBeLessThan(300);
  return answer.headers.get('content-type')?.includes('json') ? answer.json() : null;
}

/** Console errors besides the browser's own log of the 4xx answers these tests provoke on purpose. */
const unexpected = (errors: string[]): string[] =>
  errors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(e));

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  ({ page, consoleErrors } = await openPage(browser, { width: 1280, height: 1600 }));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.includes('/api/admin/')) requested.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  // Many users: the picker must not list them all.
  for (let i = 1; i <= 40; i++)
    await call('POST', 'api/admin/user-admin', {
      name: `Teammate ${String(i).padStart(2, '0')}`,
      email: `teammate${i}@example.com`,
      rootRole: 'Viewer',
    });
  await call('POST', 'api/admin/user-admin', {
    name: 'Quinn Rare',
    email: 'quinn@example.com',
    rootRole: 'Viewer',
  });
  await call('POST', 'api/admin/groups', { name: 'Release crew', description: 'Ships on Fridays' });
  await call('POST', 'api/admin/projects', { id: 'payments', name: 'Payments' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('team administration in the browser', () => {
  it('the add-member picker searches users and groups on the server after typing pauses', async () => {
    await page.goto(`${harness.ui}projects/payments/settings`);
    await page.getByRole('heading', { name: 'Payments: settings' }).waitFor();
    const picker = page.getByRole('combobox', { name: 'Add a user or group' });
    await picker.click();
    const results = page.getByRole('list', { name: 'Matching users and groups' });
    // Before anything is typed it offers the first matches of everyone.
    await results.getByText('More match: keep typing to narrow down.').waitFor();
    requested.length = 0;
    const answered = page.waitForResponse((r) => r.url().includes('search?q=teammate'));
    await picker.pressSequentially('teammate', { delay: 40 });
    await answered;
    await page.waitForTimeout(400);
    // One search per pause in typing (not one per keystroke), and at most 10 offered of 40 matches.
    const searches = () => requested.filter((r) => r.includes('/api/admin/user-admin/search'));
    expect(searches()).toEqual(['GET /api/admin/user-admin/search?q=teammate']);
    await results.getByText('More match: keep typing to narrow down.').waitFor();
    await screenshot(page, 'member-picker');
    expect(requested.some((r) => r.includes('/api/admin/user-admin/access'))).toBe(false);
    expect(await results.getByRole('button').count()).toBe(10);

    await picker.fill('release');
    const crew = results.getByRole('button', { name: /Release crew/ });
    await crew.waitFor();
    expect(await results.getByRole('button').count()).toBe(1);
    await picker.fill('quinn');
    await results.getByRole('button', { name: /Quinn Rare/ }).click();
    expect(await picker.inputValue()).toBe('Quinn Rare');
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Member' });
    await page.getByRole('button', { name: 'Add member' }).click();
    const quinn = (await call('GET', 'api/admin/user-admin/search?q=quinn')) as { id: number }[];
    await page.getByTestId(`member-user-${quinn[0]?.id}`).waitFor();
    expect(await picker.inputValue()).toBe('');
    // Quinn is a member now: the picker no longer offers her.
    await picker.fill('quinn');
    await results.getByText('No user or group matches.').waitFor();

    // An empty choice is refused next to the field.
    await picker.fill('');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page
      .locator('.field-invalid', { has: picker })
      .getByText(/Choose a user or a group/)
      .waitFor();
    await picker.fill('Release');
    await results.getByRole('button', { name: /Release crew/ }).click();
    expect(await page.getByText(/Choose a user or a group/).count()).toBe(0);
  });

  it("shows and edits a group's root role", async () => {
    await page.goto(`${harness.ui}access`);
    await page.getByRole('tab', { name: 'Groups' }).click();
    const groups = (await call('GET', 'api/admin/groups')) as { groups: { id: number; name: string }[] };
    const id = groups.groups.find((g) => g.name === 'Release crew')?.id;
    const cell = page.getByTestId(`group-root-role-${id}`);
    expect(await cell.textContent()).toBe('None');
    await page.getByRole('button', { name: 'Edit Release crew' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit group Release crew' });
    await dialog.getByLabel('Root role').selectOption({ label: 'Editor' });
    await dialog.getByRole('button', { name: 'Save group' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.getByTestId(`group-root-role-${id}`).getByText('Editor').waitFor();
    const stored = (await call('GET', `api/admin/groups/${id}`)) as { rootRole: number };
    expect(stored.rootRole).toBe(2);
    await page.getByRole('button', { name: 'Edit Release crew' }).click();
    expect(await page.getByRole('dialog').getByLabel('Root role').inputValue()).toBe('2');
    await screenshot(page, 'group-root-role');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  });

  it("lists, creates, edits and deletes a project's own context fields", async () => {
    await page.goto(`${harness.ui}projects/payments/settings`);
    await page.getByText("No context fields of this project's own.").waitFor();
    await page.getByText('New context field', { exact: true }).click();
    const form = page.getByRole('form', { name: 'New context field' });
    await form.getByLabel('Name').fill('cardBrand');
    await form.getByLabel('Description').fill('Card network');
    await form.getByRole('button', { name: 'Add legal value' }).click();
    await form
      .getByRole('group', { name: 'Legal value 1' })
      .getByLabel('Value', { exact: true })
      .fill('visa');
    await form.getByRole('button', { name: 'Create context field' }).click();
    const row = page.getByTestId('project-context-cardBrand');
    await row.getByText('Card network').waitFor();
    // A taken name is refused next to the name field.
    await form.getByLabel('Name').fill('cardBrand');
    await form.getByRole('button', { name: 'Create context field' }).click();
    await form
      .locator('.field-invalid')
      .getByText('A context field named "cardBrand" already exists.')
      .waitFor();
    await form.getByLabel('Name').fill('');

    await row.getByRole('button', { name: 'Edit cardBrand' }).click();
    const dialog = page.getByRole('dialog', { name: 'Context field cardBrand' });
    await dialog.getByLabel('Description', { exact: true }).fill('Card network of the payment');
    await dialog.getByLabel('Usable as stickiness').check();
    await dialog
      .getByRole('group', { name: 'Legal value 1' })
      .getByLabel('Value description')
      .fill('Visa cards');
    await dialog.getByRole('button', { name: 'Add legal value' }).click();
    await dialog
      .getByRole('group', { name: 'Legal value 2' })
      .getByLabel('Value', { exact: true })
      .fill('amex');
    await dialog.getByRole('button', { name: 'Save context field' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.reload();
    await row.getByText('Card network of the payment').waitFor();
    await row.getByText('stickiness').waitFor();
    await screenshot(page, 'project-context-fields', { fullPage: true });
    const stored = (await call('GET', 'api/admin/projects/payments/context/cardBrand')) as {
      stickiness: boolean;
      legalValues: { value: string; description?: string }[];
    };
    expect(stored.stickiness).toBe(true);
    expect(stored.legalValues).toEqual([{ value: 'visa', description: 'Visa cards' }, { value: 'amex' }]);
    // The instance-wide list leaves it out.
    expect(((await call('GET', 'api/admin/context')) as { name: string }[]).map((f) => f.name)).not.toContain(
      'cardBrand',
    );

    await row.getByRole('button', { name: 'Delete cardBrand' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByText("No context fields of this project's own.").waitFor();
  });

  it('copies all strategies of an environment to two others in one request', async () => {
    await call('POST', 'api/admin/environments', { name: 'staging', type: 'test' });
    await call('POST', 'api/admin/projects/default/environments', { environment: 'staging' });
    await call('POST', 'api/admin/projects/default/features', { name: 'checkout' });
    const strategies = 'api/admin/projects/default/features/checkout/environments/development/strategies';
    await call('POST', strategies, { name: 'default', title: 'Everyone' });
    await call('POST', strategies, { name: 'userWithId', parameters: { userIds: 'ann,bob' } });
    await page.goto(`${harness.ui}projects/default/features/checkout`);
    await page.getByRole('heading', { name: /checkout/, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Copy all strategies of development' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^production/).check();
    await dialog.getByLabel(/^staging/).check();
    requested.length = 0;
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const writes = requested.filter((r) => r.startsWith('POST '));
    expect(writes).toEqual([
      'POST /api/admin/projects/default/features/checkout/environments/development/strategies/copy',
    ]);
    const feature = (await call('GET', 'api/admin/projects/default/features/checkout')) as {
      environments: { name: string; strategies: { name: string; title?: string | null }[] }[];
    };
    for (const env of ['production', 'staging'])
      expect(feature.environments.find((e) => e.name === env)?.strategies.map((s) => s.name)).toEqual([
        'default',
        'userWithId',
      ]);
    await page
      .getByRole('region', { name: 'Environment staging' })
      .getByText('Everyone', { exact: true })
      .waitFor();
    // On the server's SQLite store too, a copy that fails in its second target leaves the first alone.
    const refused = await fetch(`${harness.root}${strategies}/copy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ environments: ['production', 'nowhere'] }),
    });
    expect(refused.status).toBe(404);
    const after = (await call('GET', 'api/admin/projects/default/features/checkout')) as typeof feature;
    expect(after.environments.find((e) => e.name === 'production')?.strategies).toHaveLength(2);
    expect(unexpected(consoleErrors)).toEqual([]);
  });
});
