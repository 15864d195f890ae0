// Signing in through the login page (POST auth/simple/login, GET api/admin/user with permissions).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

const ADMIN = '*:*.viewer-test-admin-secret-of-enough-length';
let harness: Harness;
let browser: Browser;

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${harness.root}${path}`, {
    ...init,
    headers: { authorization: ADMIN, 'content-type': 'application/json', ...init.headers },
  });

beforeAll(async () => {
  [harness, browser] = await Promise.all([
    // The webhook below points at loopback, which the outbound policy refuses unless allow-listed.
    startHarness({
      auth: 'token',
      adminToken: ADMIN,
      env: { FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('a Viewer signed in through the login page', () => {
  it('shows the login page when the API answers 401, and the server’s message when signing in fails', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${harness.ui}projects`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'login');
    await page.getByLabel('Username or e-mail').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.textContent())?.length).toBeGreaterThan(0);
  });

  it('sees switches disabled and cannot create anything', async () => {
    const addon = await admin('api/admin/addons', {
      method: 'POST',
      body: JSON.stringify({
        provider: 'webhook',
        enabled: true,
        events: ['feature-created'],
        parameters: { url: 'http://127.0.0.1:9/nobody-listens' },
      }),
    });
    expect(addon.status).toBe(200);
    const { id: addonId } = (await addon.json()) as { id: number };
    await admin('api/admin/projects/default/features', {
      method: 'POST',
      body: JSON.stringify({ name: 'viewer-sees-me' }),
    });
    const invite = await (
      await admin('api/admin/invite-link/tokens', {
        method: 'POST',
        body: JSON.stringify({
          name: 'viewers',
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        }),
      })
    ).json();
    const signup = await fetch(`${harness.root}invite/${invite.secret}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'viewer@example.com',
        name: 'Vera Viewer',
        password: 'correct-horse-battery',
      }),
    });
    expect(signup.ok).toBe(true);

    const { page } = await openPage(browser);
    await page.goto(`${harness.ui}projects/default`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'login');
    await page.getByLabel('Username or e-mail').fill('viewer@example.com');
    await page.getByLabel('Password').fill('wrong-password-here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password').fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Default', level: 1 }).waitFor();

    const toggle = page.getByRole('switch', { name: 'viewer-sees-me in development' });
    await toggle.waitFor();
    expect(await toggle.isDisabled()).toBe(true);
    const newFlag = page.getByRole('button', { name: 'New feature flag' });
    expect(await newFlag.isDisabled()).toBe(true);
    // Every disabled action says why: as its tooltip and as its accessible description.
    const why = 'Needs the Editor role, or a project role in project “default” that allows this.';
    expect(await newFlag.getAttribute('title')).toBe(why);
    const describedBy = await newFlag.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(why);
    expect(await toggle.getAttribute('title')).toBe(
      'Needs the Editor role, or a project role in project “default” that allows this for development.',
    );
    await page.getByRole('link', { name: 'viewer-sees-me' }).click();
    expect(await page.getByRole('switch', { name: 'viewer-sees-me in development' }).isDisabled()).toBe(true);
    const addStrategy = page.getByRole('button', { name: 'Add strategy' }).first();
    expect(await addStrategy.isDisabled()).toBe(true);
    expect(await addStrategy.getAttribute('title')).toBe(
      'Needs the Editor role, or a project role in project “default” that allows this for development.',
    );
    expect(await page.getByRole('button', { name: 'Mark stale' }).getAttribute('title')).toBe(why);
    await page.goto(`${harness.ui}projects`);
    expect(await page.getByRole('button', { name: 'New project' }).getAttribute('title')).toBe(
      'Needs the Editor or Admin role.',
    );

    // Addons and their deliveries are for Admins: the pages say so instead of failing.
    await page.goto(`${harness.ui}integrations/addons/${addonId}`);
    await page.getByTestId('needs-admin').waitFor();
    expect(await page.getByRole('table', { name: 'Delivery log' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Rotate signing secret' }).count()).toBe(0);
    await page.goto(`${harness.ui}integrations`);
    await page.getByTestId('needs-admin').waitFor();
    expect(await page.getByRole('button', { name: 'Create addon' }).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    const viewerLog = await fetch(`${harness.root}api/admin/addons/${addonId}/events`, {
      headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    expect(viewerLog.status).toBe(403);
  });
});
