// The server and users the change-request browser tests share: a feature "guarded" whose production
// environment requires change requests (one approval), and two Editors, ann and bob, who signed up
// through invite links.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser } from './browser';
import { type Harness, startHarness } from './harness';

const ADMIN = '*:*.change-request-test-admin-secret-long-enough';

/** Starts the server and browser for one test file (beforeAll/afterAll) and returns what tests use. */
export function changeRequestWorld() {
  const world = {} as { harness: Harness; browser: Browser };

  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${world.harness.root}${path}`, {
      ...init,
      headers: { authorization: ADMIN, 'content-type': 'application/json', ...init.headers },
    });

  /** A user signed up through an invite link, then made an Editor. */
  async function editor(email: string): Promise<void> {
    const invite = await (
      await admin('api/admin/invite-link/tokens', {
        method: 'POST',
        body: JSON.stringify({ name: email, expiresAt: new Date(Date.now() + 86_400_000).toISOString() }),
      })
    ).json();
    const signup = await fetch(`${world.harness.root}invite/${invite.secret}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, name: email.split('@')[0], password: 'correct-horse-battery' }),
    });
    expect(signup.ok).toBe(true);
    const users = (await (await admin('api/admin/user-admin')).json()) as {
      users: { id: number; email: string }[];
    };
    const id = users.users.find((u) => u.email === email)?.id;
    const made = await admin(`api/admin/user-admin/${id}`, {
      method: 'PUT',
      body: JSON.stringify({ rootRole: 'Editor' }),
    });
    expect(made.status).toBe(200);
  }

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${world.harness.ui}change-requests`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Username or e-mail').fill(email);
    await page.getByLabel('Password').fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Change requests', level: 1 }).waitFor();
  }

  /** Whether the flag is on in production, as the admin API says. */
  const enabledInProduction = async () => {
    const feature = await (await admin('api/admin/projects/default/features/guarded')).json();
    return feature.environments.find((e: { name: string }) => e.name === 'production').enabled as boolean;
  };

  beforeAll(async () => {
    [world.harness, world.browser] = await Promise.all([
      startHarness({ auth: 'token', adminToken: ADMIN }),
      launchBrowser(),
    ]);
    expect(
      (
        await admin('api/admin/projects/default/features', {
          method: 'POST',
          body: JSON.stringify({ name: 'guarded' }),
        })
      ).status,
    ).toBe(200);
    const config = await admin('api/admin/projects/default/environments/production/change-requests/config', {
      method: 'PUT',
      body: JSON.stringify({ changeRequestsEnabled: true, requiredApprovals: 1 }),
    });
    expect(config.status).toBe(204);
    await editor('ann@example.com');
    await editor('bob@example.com');
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.harness?.close();
  });

  return { world, admin, signIn, enabledInProduction };
}
