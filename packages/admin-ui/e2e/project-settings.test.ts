// Project administration in the admin UI: an Admin changes a project's settings, makes it private,
// gives a user access as a member and then through a group, and cannot delete it while it holds a
// flag. What each user sees is checked in a browser context of their own. Real server, real browser.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

const ADMIN_TOKEN = '*:*.project-settings-admin-secret-long-enough';
const ADMIN_PASSWORD = 'Admin-Settings-9-Pass';
let harness: Harness;
let browser: Browser;
let noraId: number;
let gailId: number;

/** Console errors besides the browser's own log of the 4xx answers these tests provoke on purpose. */
const unexpected = (errors: string[]): string[] =>
  errors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(e));

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${harness.root}${path}`, {
    method,
    headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return res.headers.get('content-type')?.includes('json') ? res.json() : null;
}

async function createUser(name: string, email: string, password: string): Promise<number> {
  const { id } = (await call('POST', 'api/admin/user-admin', { name, email, rootRole: 'Viewer' })) as {
    id: number;
  };
  await call('POST', `api/admin/user-admin/${id}/change-password`, { password });
  return id;
}

beforeAll(async () => {
  [harness, browser] = await Promise.all([
    startHarness({ auth: 'token', adminToken: ADMIN_TOKEN, adminPassword: ADMIN_PASSWORD }),
    launchBrowser(),
  ]);
  noraId = await createUser('Nora Viewer', 'nora@example.com', 'Nora-Reads-5-Flags');
  gailId = await createUser('Gail Grouped', 'gail@example.com', 'Gail-Joins-4-Groups');
  await call('POST', 'api/admin/projects', {
    id: 'payments',
    name: 'Payments',
    description: 'Checkout',
  });
  await call('POST', 'api/admin/projects/payments/features', { name: 'pay-checkout' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${harness.ui}projects`);
  await page.getByLabel('Username or e-mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
}

/** The project names on the Projects page, after a fresh load. */
async function projectNames(page: Page): Promise<string[]> {
  await page.goto(`${harness.ui}projects`);
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  await page.locator('.project-card h2').first().waitFor();
  return page.locator('.project-card h2').allTextContents();
}

describe('project settings in the admin UI', () => {
  it('an Admin edits settings that persist; private hides the project until a member is added', async () => {
    // Tall enough to show the whole settings page in its screenshot.
    const admin = await openPage(browser, { width: 1280, height: 1760 });
    const { page } = admin;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`${harness.ui}projects/payments`);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Payments: settings' }).waitFor();

    // The naming pattern is checked as it is typed: an invalid one shows next to the field.
    const pattern = page.getByLabel('Naming pattern');
    await pattern.fill('pay-(');
    const patternField = page.locator('.field', { has: pattern });
    expect(await patternField.locator('.field-error').textContent()).toContain('Not a valid pattern');
    await pattern.fill('pay-[a-z-]+');
    expect(await patternField.locator('.field-error').count()).toBe(0);
    await page.getByLabel('Does this name match?').fill('pay-refunds');
    expect(await page.getByTestId('name-check').textContent()).toContain('"pay-refunds" matches');
    await page.getByLabel('Does this name match?').fill('Refunds');
    expect(await page.getByTestId('name-check').textContent()).toContain('"Refunds" does not match');
    // An example that does not match is refused next to the example, before anything is sent.
    await page.getByLabel('Example').fill('refunds');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const exampleField = page.locator('.field', { has: page.getByLabel('Example') });
    expect(await exampleField.locator('.field-error').textContent()).toContain('must match the pattern');

    await page.getByLabel('Example').fill('pay-refunds');
    await page.getByLabel('Naming description').fill('pay- and what it does');
    await page.getByLabel('Name', { exact: true }).fill('Payments team');
    await page.getByLabel('Description', { exact: true }).fill('Card and wallet flows');
    await page.getByRole('radio', { name: /Private/ }).check();
    await page.getByLabel('Default stickiness').selectOption('userId');
    await page.getByLabel('Feature limit').fill('50');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('heading', { name: 'Payments team: settings' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Payments team: settings' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Payments team');
    expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe('Card and wallet flows');
    expect(await page.getByRole('radio', { name: /Private/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Default stickiness').inputValue()).toBe('userId');
    expect(await page.getByLabel('Feature limit').inputValue()).toBe('50');
    expect(await page.getByLabel('Naming pattern').inputValue()).toBe('pay-[a-z-]+');

    // Nora, a Viewer and no member, does not see the private project at all.
    const nora = await openPage(browser);
    await signIn(nora.page, 'nora@example.com', 'Nora-Reads-5-Flags');
    expect(await projectNames(nora.page)).not.toContain('Payments team');

    // The Admin adds her as a Member; she then sees it.
    // The picker searches users on the server as one types.
    await page.getByLabel('Add a user or group').fill('nora');
    await page
      .getByRole('list', { name: 'Matching users and groups' })
      .getByRole('button', { name: /Nora Viewer/ })
      .click();
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Member' });
    await page.getByRole('button', { name: 'Add member' }).click();
    const noraRow = page.getByTestId(`member-user-${noraId}`);
    await noraRow.waitFor();
    expect(await noraRow.getByLabel('Role of Nora Viewer').inputValue()).toBe('5');
    expect(await projectNames(nora.page)).toContain('Payments team');
    // As a Member she may read the settings, not change them; the page says why.
    await nora.page.goto(`${harness.ui}projects/payments/settings`);
    await nora.page.getByText('changing them needs UPDATE_PROJECT').waitFor();
    expect(await nora.page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
    expect(await nora.page.getByRole('button', { name: 'Add member' }).count()).toBe(0);
    // At phone width nothing of the page is cut off: it is no wider than the screen.
    await nora.page.setViewportSize({ width: 390, height: 844 });
    await nora.page.getByTestId(`member-user-${noraId}`).waitFor();
    expect(await nora.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Her role changes to Owner in place, and sticks.
    await noraRow.getByLabel('Role of Nora Viewer').selectOption({ label: 'Owner' });
    const rolesNow = async () =>
      (
        (await call('GET', 'api/admin/projects/payments/access')) as {
          users: { id: number; roles: number[] }[];
        }
      ).users.map((u) => [u.id, u.roles]);
    await expect.poll(rolesNow).toEqual([[noraId, [4]]]);
    await page.reload();
    expect(
      await page.getByTestId(`member-user-${noraId}`).getByLabel('Role of Nora Viewer').inputValue(),
    ).toBe('4');
    // The default strategy of production: 25% by userId, still there after a reload.
    const production = page.getByTestId('project-env-production');
    await production.getByRole('button', { name: 'Edit default strategy of production' }).click();
    const strategy = page.getByRole('dialog', { name: 'Default strategy in production' });
    await strategy.getByLabel('Rollout %').fill('125');
    await strategy.getByRole('button', { name: 'Save default strategy' }).click();
    expect(await strategy.locator('.field-error').textContent()).toContain('0 to 100');
    await strategy.getByLabel('Rollout %').fill('25');
    await strategy.getByLabel('Stickiness').selectOption('userId');
    await strategy.getByRole('button', { name: 'Save default strategy' }).click();
    await strategy.waitFor({ state: 'detached' });
    await production.getByText('Gradual rollout 25% (userId)').waitFor();
    // Development is switched off for the project (after a confirmation) and on again.
    const development = page.getByTestId('project-env-development');
    // The switch asks first, so it stays checked until the dialog is answered: clicked, not unchecked.
    await development.getByLabel('Use development in this project').click();
    await page
      .getByRole('dialog', { name: /Stop using development/ })
      .getByRole('button', { name: 'Disable environment' })
      .click();
    await development.getByText('Not used').waitFor();
    // The last environment of a project cannot be switched off.
    expect(await production.getByLabel('Use production in this project').isDisabled()).toBe(true);
    await development.getByLabel('Use development in this project').click();
    await development.getByText('Enabled').waitFor();
    await page.reload();
    await page.getByTestId('project-env-production').getByText('Gradual rollout 25% (userId)').waitFor();
    const environments = (await call('GET', 'api/admin/environments/project/payments')) as {
      environments: { name: string; defaultStrategy?: { parameters: Record<string, string> } }[];
    };
    expect(environments.environments.map((e) => e.name).sort()).toEqual(['development', 'production']);
    expect(
      environments.environments.find((e) => e.name === 'production')?.defaultStrategy?.parameters,
    ).toEqual({
      rollout: '25',
      stickiness: 'userId',
    });

    await page.getByLabel('Does this name match?').fill('pay-refunds');
    await page.getByTestId('name-check').waitFor();
    await screenshot(page, 'project-settings');

    // As an Owner, Nora (a Viewer at root) administers the project: she may add other users.
    await nora.page.setViewportSize({ width: 1280, height: 800 });
    await nora.page.reload();
    await nora.page.getByRole('button', { name: 'Add member' }).waitFor();
    expect(await nora.page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(false);
    // Her picker searches the users (a Viewer may search them) and never offers herself, a member.
    const picker = nora.page.getByLabel('Add a user or group');
    const found = nora.page.getByRole('list', { name: 'Matching users and groups' });
    await picker.fill('gail');
    await found.getByRole('button', { name: /Gail Grouped/ }).waitFor();
    await picker.fill('nora');
    await found.getByText('No user or group matches.').waitFor();

    // Delete is refused while the project holds a flag: the server's reason shows in the dialog.
    await page.getByRole('button', { name: 'Delete project…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete project Payments team?' });
    const confirm = dialog.getByRole('button', { name: 'Delete payments' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type payments to confirm').fill('payments');
    await confirm.click();
    await dialog.getByRole('alert').getByText('still has 1 feature flag').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await call('GET', 'api/admin/projects/payments')).toMatchObject({ name: 'Payments team' });

    // Removing her hides the project from her again.
    await noraRow.getByRole('button', { name: 'Remove Nora Viewer' }).click();
    await page
      .getByRole('dialog', { name: /Remove Nora Viewer/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await noraRow.waitFor({ state: 'detached' });
    expect(await projectNames(nora.page)).not.toContain('Payments team');

    expect(unexpected(admin.consoleErrors)).toEqual([]);
    expect(unexpected(nora.consoleErrors)).toEqual([]);
    await Promise.all([admin.context.close(), nora.context.close()]);
  });

  it('an Admin makes a group with a user and assigns it to the private project; the user sees it', async () => {
    // Whatever the first test left: the project private, Nora no member of it.
    await call('PUT', 'api/admin/projects/payments/settings', { mode: 'private' });
    await fetch(`${harness.root}api/admin/projects/payments/users/${noraId}/roles`, {
      method: 'DELETE',
      headers: { authorization: ADMIN_TOKEN },
    });
    const admin = await openPage(browser);
    const { page } = admin;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`${harness.ui}access`);
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.getByText('No groups yet.').waitFor();

    await page.getByRole('button', { name: 'New group' }).click();
    const create = page.getByRole('dialog', { name: 'New group' });
    // An empty name is refused next to the field.
    await create.getByRole('button', { name: 'Create group' }).click();
    expect(await create.locator('.field-invalid .field-error').textContent()).toContain('"name"');
    await create.getByLabel('Name').fill('Payments crew');
    await create.getByLabel('Description').fill('Everyone on the payments rota');
    // Users are picked by typing: the server searches them.
    const found = create.getByRole('list', { name: 'Matching users' });
    await create.getByLabel('User to add').fill('gail');
    await found.getByRole('button', { name: /Gail Grouped/ }).click();
    await create.getByTestId('group-members').getByText('Gail Grouped').waitFor();
    await create.getByLabel('User to add').fill('nora');
    await found.getByRole('button', { name: /Nora Viewer/ }).click();
    await create.getByTestId('group-members').getByText('Nora Viewer').waitFor();
    await create.getByRole('button', { name: 'Create group' }).click();
    await create.waitFor({ state: 'detached' });
    const groups = (await call('GET', 'api/admin/groups')) as { groups: { id: number; name: string }[] };
    const crew = groups.groups.find((g) => g.name === 'Payments crew');
    expect(crew).toBeDefined();
    const row = page.getByTestId(`group-row-${crew?.id}`);
    await row.getByText('Gail Grouped').waitFor();

    // Gail, in a browser of her own, does not see the private project yet.
    const gail = await openPage(browser);
    await signIn(gail.page, 'gail@example.com', 'Gail-Joins-4-Groups');
    expect(await projectNames(gail.page)).not.toContain('Payments team');

    await row.getByRole('button', { name: 'Assign Payments crew to a project' }).click();
    const assign = page.getByRole('dialog', { name: 'Assign Payments crew to a project' });
    await assign.getByLabel('Project').selectOption('payments');
    await assign.getByLabel('Role').selectOption({ label: 'Member' });
    await assign.getByRole('button', { name: 'Assign' }).click();
    await assign.waitFor({ state: 'detached' });
    expect(await projectNames(gail.page)).toContain('Payments team');

    // Edit: Nora leaves the group, the description changes; after a reload that is what is stored.
    await row.getByRole('button', { name: 'Edit Payments crew' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit group Payments crew' });
    await edit.getByRole('button', { name: 'Remove Nora Viewer from the group' }).click();
    await edit.getByLabel('Description').fill('The payments on-call rota');
    await edit.getByRole('button', { name: 'Save group' }).click();
    await edit.waitFor({ state: 'detached' });
    // A second group, so the page shows more than one.
    const { id: platformId } = (await call('POST', 'api/admin/groups', {
      name: 'Platform admins',
      description: 'Own the shared projects',
      users: [{ user: { id: noraId } }, { user: { id: gailId } }],
    })) as { id: number };
    await call('POST', 'api/admin/projects/default/role/4/access', { groups: [{ id: platformId }] });
    await page.reload();
    await page.getByRole('tab', { name: 'Groups' }).click();
    await row.getByText('The payments on-call rota').waitFor();
    expect(await page.getByTestId(`group-users-${crew?.id}`).locator('.chip').allTextContents()).toEqual([
      'Gail Grouped',
    ]);
    expect(await page.getByTestId(`group-projects-${crew?.id}`).textContent()).toBe('payments');
    await page.getByTestId(`group-projects-${platformId}`).getByText('default').waitFor();
    await screenshot(page, 'groups');

    // The project's members list shows the group, and the overview counts its user.
    await page.goto(`${harness.ui}projects/payments/settings`);
    await page.getByTestId(`member-group-${crew?.id}`).getByText('1 user').waitFor();
    const overview = (await call('GET', 'api/admin/projects/payments/overview')) as { members: number };
    expect(overview.members).toBe(1);
    await page.goto(`${harness.ui}projects/payments/overview`);
    await page.getByText(/Members: 1 ·/).waitFor();

    // Gail leaves the group: the project is hidden from her again.
    await call('DELETE', `api/admin/groups/${crew?.id}/users/${gailId}`);
    expect(await projectNames(gail.page)).not.toContain('Payments team');

    expect(unexpected(admin.consoleErrors)).toEqual([]);
    expect(unexpected(gail.consoleErrors)).toEqual([]);
    await Promise.all([admin.context.close(), gail.context.close()]);
  });
});
