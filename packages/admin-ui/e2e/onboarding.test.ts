// Onboarding a team: an Admin adds a user and passes on the set-password link, invite links lead to
// a sign-up page, and everyone manages their own password and personal tokens on the profile page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

const ADMIN_TOKEN = '*:*.onboarding-test-admin-secret-of-enough-length';
const ADMIN_PASSWORD = 'Admin-Onboard-7-Pass';
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

/** Signs in through the login page and waits for the app. */
async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${harness.ui}projects`);
  await page.getByLabel('Username or e-mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
}

/** Console errors besides the browser's own log of the 4xx answers these tests provoke on purpose. */
const unexpected = (errors: string[]): string[] =>
  errors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(e));

/** Whether the API takes this username and password (a fresh sign-in, no browser involved). */
const canSignIn = async (username: string, password: string): Promise<boolean> =>
  (
    await fetch(`${harness.root}auth/simple/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    })
  ).ok;

/** The root role the profile page shows for the signed-in user. */
async function rootRoleOnProfile(page: Page): Promise<string | null> {
  await page.getByRole('link', { name: /^Your profile/ }).click();
  await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
  const row = page.getByRole('row', { name: /Root role/ });
  await row.getByText(/Admin|Editor|Viewer/).waitFor();
  return row.getByRole('cell').textContent();
}

describe('onboarding in the admin UI', () => {
  it('an Admin adds a user; the user opens the set-password link, chooses a password, is signed in as a Viewer, and can toggle once promoted to Editor', async () => {
    const flag = await fetch(`${harness.root}api/admin/projects/default/features`, {
      method: 'POST',
      headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'for-nina' }),
    });
    expect(flag.status).toBe(200);
    const admin = await openPage(browser);
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(harness.root).origin,
    });
    await signIn(admin.page, 'admin', ADMIN_PASSWORD);
    await admin.page.goto(`${harness.ui}access`);
    await admin.page.getByRole('tab', { name: 'Users & roles' }).click();
    await admin.page.getByLabel('Name').fill('Nina Newcomer');
    await admin.page.getByLabel('E-mail').fill('nina@example.com');
    await admin.page.getByLabel('Root role').selectOption({ label: 'Viewer' });
    await admin.page.getByRole('button', { name: 'Add user' }).click();
    const shown = admin.page.getByTestId('set-password-link');
    await shown.waitFor();
    const link = (await shown.getByTestId('secret').textContent()) ?? '';
    expect(link.startsWith(`${harness.root}new-user?token=`)).toBe(true);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await admin.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshot(admin.page, 'users-set-password-link');

    const nina = await openPage(browser);
    await nina.page.goto(link);
    await nina.page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(nina.page.url()).toContain('/ui/new-user?token=');
    await nina.page.getByText('Nina Newcomer').waitFor();
    await screenshot(nina.page, 'set-password');
    // The server's rules decide; its refusal shows next to the field.
    await nina.page.getByLabel('New password').fill('tooshort');
    await nina.page.getByLabel('Repeat the password').fill('tooshort');
    await nina.page.getByRole('button', { name: 'Set password and sign in' }).click();
    const refusal = nina.page.locator('.field-invalid .field-error');
    await refusal.waitFor();
    // In plain words under the field it concerns (the server's message names the property).
    expect(await refusal.textContent()).toMatch(/^Must be at least \d+ characters long/);
    await nina.page.getByLabel('New password').fill('Nina-Chooses-4-Well');
    await nina.page.getByLabel('Repeat the password').fill('Nina-Chooses-4-Well');
    await nina.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await nina.page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    expect(await rootRoleOnProfile(nina.page)).toBe('Viewer');
    await nina.page.goto(`${harness.ui}projects/default`);
    await nina.page.getByRole('heading', { name: 'Default', level: 1 }).waitFor();
    expect(await nina.page.getByRole('button', { name: 'New feature flag' }).isDisabled()).toBe(true);
    const viewerSwitch = nina.page.getByRole('switch', { name: 'for-nina in development' });
    await viewerSwitch.waitFor();
    expect(await viewerSwitch.isDisabled()).toBe(true);

    // The admin promotes her to Editor on the Users page; signed in again, she can toggle the flag.
    await admin.page.goto(`${harness.ui}access`);
    await admin.page.getByRole('tab', { name: 'Users & roles' }).click();
    await admin.page.getByRole('button', { name: 'Edit Nina Newcomer' }).click();
    const edit = admin.page.getByRole('dialog');
    await edit.getByLabel('Root role').selectOption({ label: 'Editor' });
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await admin.page
      .getByRole('row', { name: /Nina Newcomer/ })
      .getByText('Editor')
      .waitFor();
    // A new root role ends her session: the next request shows her the sign-in page.
    await nina.page.reload();
    await nina.page.getByLabel('Username or e-mail').fill('nina@example.com');
    await nina.page.getByLabel('Password').fill('Nina-Chooses-4-Well');
    await nina.page.getByRole('button', { name: 'Sign in' }).click();
    const editorSwitch = nina.page.getByRole('switch', { name: 'for-nina in development' });
    await editorSwitch.waitFor();
    expect(await editorSwitch.isDisabled()).toBe(false);
    await editorSwitch.click();
    await expect.poll(() => editorSwitch.getAttribute('aria-checked')).toBe('true');
    const stored = await fetch(`${harness.root}api/admin/projects/default/features/for-nina`, {
      headers: { authorization: ADMIN_TOKEN },
    });
    const dev = (
      (await stored.json()) as { environments: { name: string; enabled: boolean }[] }
    ).environments.find((e) => e.name === 'development');
    expect(dev?.enabled).toBe(true);
    expect(unexpected(nina.consoleErrors)).toEqual([]);

    // Used once: the link no longer works.
    const again = await openPage(browser);
    await again.page.goto(link);
    await again.page
      .getByRole('alert')
      .getByText(/invalid or has expired/)
      .waitFor();
    expect(await again.page.getByLabel('New password').count()).toBe(0);
    await Promise.all([admin.context.close(), nina.context.close(), again.context.close()]);
  });

  it('an invite link from the UI opens a sign-up page that ends signed in as a Viewer', async () => {
    const admin = await openPage(browser);
    await signIn(admin.page, 'admin', ADMIN_PASSWORD);
    await admin.page.goto(`${harness.ui}access`);
    await admin.page.getByRole('tab', { name: 'Invite links' }).click();
    await admin.page.getByLabel('Name').fill('team');
    await admin.page.getByRole('button', { name: 'Create invite link' }).click();
    const url = (await admin.page.getByTestId('secret').textContent()) ?? '';
    expect(url.startsWith(`${harness.root}new-user?invite=`)).toBe(true);

    const vic = await openPage(browser);
    await vic.page.goto(url);
    await vic.page.getByRole('heading', { name: 'Join Flagstaff' }).waitFor();
    expect(vic.page.url()).toContain('/ui/signup?invite=');
    await vic.page.getByLabel('Name').fill('Vic Invited');
    await vic.page.getByLabel('E-mail').fill('vic@example.com');
    await vic.page.getByLabel('Password').fill('weak');
    await vic.page.getByRole('button', { name: 'Sign up' }).click();
    const refusal = vic.page.locator('.field-invalid .field-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/^Must be at least \d+ characters long/);
    expect(await vic.page.locator('.field-invalid').getByLabel('Password').count()).toBe(1);
    await vic.page.getByLabel('Password').fill('Vic-Joins-The-8-Team');
    await screenshot(vic.page, 'signup');
    await vic.page.getByRole('button', { name: 'Sign up' }).click();
    await vic.page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    expect(await rootRoleOnProfile(vic.page)).toBe('Viewer');
    expect(unexpected(vic.consoleErrors)).toEqual([]);
    await Promise.all([admin.context.close(), vic.context.close()]);
  });

  it('a user changes their own password on the profile page, and the old one stops working', async () => {
    const created = await fetch(`${harness.root}api/admin/user-admin`, {
      method: 'POST',
      headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'pat@example.com', name: 'Pat Profile', rootRole: 'Editor' }),
    });
    const { id } = (await created.json()) as { id: number };
    await fetch(`${harness.root}api/admin/user-admin/${id}/change-password`, {
      method: 'POST',
      headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'Pat-First-5-Password' }),
    });

    const { page, context, consoleErrors } = await openPage(browser);
    await signIn(page, 'pat@example.com', 'Pat-First-5-Password');
    expect(await rootRoleOnProfile(page)).toBe('Editor');
    await page.getByRole('cell', { name: 'pat@example.com' }).waitFor();

    // A personal access token: created with an expiry, its secret shown once, listed, deleted.
    await page.getByLabel('Description').fill('ci pipeline');
    await page.getByLabel('Expires in (days)').fill('10');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('secret').textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(20);
    await page.getByRole('table', { name: 'Personal access tokens' }).getByText('ci pipeline').waitFor();
    const withPat = await fetch(`${harness.root}api/admin/user`, { headers: { authorization: secret } });
    expect(withPat.status).toBe(200);

    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('Pat-Second-6-Password');
    await page.getByLabel('Repeat the new password').fill('Pat-Second-6-Password');
    await page.getByRole('button', { name: 'Change password' }).click();
    const refusal = page.locator('.field-invalid .field-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe('Is not your current password.');
    expect(await page.locator('.field-invalid').getByLabel('Current password').count()).toBe(1);
    await screenshot(page, 'profile');

    await page.getByLabel('Current password').fill('Pat-First-5-Password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed').first().waitFor();
    expect(await canSignIn('pat@example.com', 'Pat-First-5-Password')).toBe(false);
    expect(await canSignIn('pat@example.com', 'Pat-Second-6-Password')).toBe(true);

    await page.getByRole('button', { name: 'Delete ci pipeline' }).click();
    await page.getByText('No tokens yet.').waitFor();
    const afterDelete = await fetch(`${harness.root}api/admin/user`, { headers: { authorization: secret } });
    expect(afterDelete.status).toBe(401);
    expect(unexpected(consoleErrors)).toEqual([]);
    await context.close();
  });
});

describe('onboarding links under a mount path', () => {
  it('redirects /flags/new-user?invite= to the sign-up page under /flags and signs the new Viewer in', async () => {
    const mounted = await startHarness({ mount: '/flags', auth: 'token', adminToken: ADMIN_TOKEN });
    try {
      const invite = await fetch(`${mounted.root}api/admin/invite-link/tokens`, {
        method: 'POST',
        headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'sub', expiresAt: new Date(Date.now() + 86_400_000).toISOString() }),
      });
      const { url } = (await invite.json()) as { url: string };
      expect(url.startsWith(`${mounted.root}new-user?invite=`)).toBe(true);
      const { page, context, consoleErrors } = await openPage(browser);
      await page.goto(url);
      await page.getByRole('heading', { name: 'Join Flagstaff' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/flags/ui/signup');
      await page.getByLabel('E-mail').fill('sub@example.com');
      await page.getByLabel('Password').fill('Sub-Path-3-Joiner');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/flags/ui/projects');
      expect(unexpected(consoleErrors)).toEqual([]);
      await context.close();
    } finally {
      await mounted.close();
    }
  });
});
