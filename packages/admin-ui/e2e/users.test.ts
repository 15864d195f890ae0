// Managing people on Access → Users & roles: an Admin edits a user (name, e-mail, root role), makes a
// reset-password link the user opens in their own browser, and deletes a user. Real server, real browser.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

const ADMIN_TOKEN = '*:*.users-test-admin-secret-of-enough-length';
const ADMIN_PASSWORD = 'Admin-Users-7-Pass';
let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([
    startHarness({ auth: 'token', adminToken: ADMIN_TOKEN, adminPassword: ADMIN_PASSWORD }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/** Console errors besides the browser's own log of the 4xx answers these tests provoke on purpose. */
const unexpected = (errors: string[]): string[] =>
  errors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(e));

async function createUser(body: Record<string, unknown>): Promise<number> {
  const res = await fetch(`${harness.root}api/admin/user-admin`, {
    method: 'POST',
    headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${harness.ui}projects`);
  await page.getByLabel('Username or e-mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
}

/** Opens Access → Users & roles and waits for the list. */
async function openUsers(page: Page): Promise<void> {
  await page.goto(`${harness.ui}access`);
  await page.getByRole('tab', { name: 'Users & roles' }).click();
  await page.getByText('admin', { exact: true }).first().waitFor();
}

describe('managing users in the admin UI', () => {
  it('an Admin edits a user, makes a reset link the user signs in with, and deletes a user', async () => {
    const walterId = await createUser({
      name: 'Walter Viewer',
      email: 'walter@example.com',
      rootRole: 'Viewer',
    });
    await createUser({ name: 'Taken Address', email: 'taken@example.com', rootRole: 'Viewer' });
    const goneId = await createUser({ name: 'Gone Soon', email: 'gone@example.com', rootRole: 'Viewer' });

    const admin = await openPage(browser);
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(harness.root).origin,
    });
    const { page } = admin;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await openUsers(page);
    const walterRow = page.getByTestId(`user-row-${walterId}`);
    await walterRow.getByText('Viewer', { exact: true }).waitFor();
    // The signed-in Admin can edit their own row but not delete themselves.
    const selfRow = page.getByRole('row').filter({ has: page.getByText('admin', { exact: true }) });
    await selfRow.getByRole('button', { name: 'Edit admin' }).waitFor();
    expect(await selfRow.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    await screenshot(page, 'users');

    // Edit: the server's refusal of a taken e-mail shows next to the e-mail field; nothing is saved.
    await walterRow.getByRole('button', { name: 'Edit Walter Viewer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Walter Viewer' });
    await dialog.getByLabel('Name').fill('Walter Editor');
    await dialog.getByLabel('E-mail').fill('taken@example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const refusal = dialog.locator('.field-invalid .field-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(`"taken@example.com" is already another user's e-mail.`);
    expect(await dialog.locator('.field-invalid input').getAttribute('id')).toBe('edit-user-email');
    // An invalid e-mail is refused next to the field before anything is sent.
    await dialog.getByLabel('E-mail').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await dialog.locator('.field-invalid .field-error').textContent()).toContain('valid e-mail');
    // Then a valid edit: name and root role Viewer → Editor.
    await dialog.getByLabel('E-mail').fill('walter@example.com');
    await dialog.getByLabel('Root role').selectOption({ label: 'Editor' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.reload();
    await openUsers(page);
    const edited = page.getByTestId(`user-row-${walterId}`);
    await edited.getByText('Walter Editor').waitFor();
    await edited.getByText('Editor', { exact: true }).waitFor();
    expect(await edited.locator('.badge').textContent()).toBe('Editor');
    expect(await edited.getByText('walter@example.com').count()).toBe(1);

    // Reset-password link, shown once with a copy button.
    await edited.getByRole('button', { name: 'Reset-password link for Walter Editor' }).click();
    const resetDialog = page.getByRole('dialog', { name: 'Reset-password link for Walter Editor' });
    await resetDialog.getByRole('button', { name: 'Make link' }).click();
    const shown = resetDialog.getByTestId('reset-password-link');
    await shown.waitFor();
    const link = (await shown.getByTestId('secret').textContent()) ?? '';
    expect(link.startsWith(`${harness.root}reset-password?token=`)).toBe(true);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshot(page, 'users-reset-link');
    await shown.getByRole('button', { name: 'Done' }).click();

    // Walter, in a browser of his own, opens the link, sets a password and is signed in as an Editor.
    const walter = await openPage(browser);
    await walter.page.goto(link);
    await walter.page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await walter.page.getByLabel('New password').fill('Walter-Resets-3-Now');
    await walter.page.getByLabel('Repeat the password').fill('Walter-Resets-3-Now');
    await walter.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await walter.page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await walter.page.getByRole('link', { name: /^Your profile/ }).click();
    await walter.page
      .getByRole('row', { name: /Root role/ })
      .getByText('Editor')
      .waitFor();
    expect(unexpected(walter.consoleErrors)).toEqual([]);

    // Delete: the confirmation names the user; after a reload the row is gone.
    const goneRow = page.getByTestId(`user-row-${goneId}`);
    await goneRow.getByRole('button', { name: 'Delete Gone Soon' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Gone Soon?' });
    await confirm.getByText('gone@example.com').waitFor();
    await confirm.getByRole('button', { name: 'Delete user' }).click();
    await goneRow.waitFor({ state: 'detached' });
    await page.reload();
    await openUsers(page);
    await page.getByTestId(`user-row-${walterId}`).waitFor();
    expect(await page.getByTestId(`user-row-${goneId}`).count()).toBe(0);
    const gone = await fetch(`${harness.root}api/admin/user-admin/${goneId}`, {
      headers: { authorization: ADMIN_TOKEN },
    });
    expect(gone.status).toBe(404);
    expect(unexpected(admin.consoleErrors)).toEqual([]);
    await Promise.all([admin.context.close(), walter.context.close()]);
  });
});
