// Change requests in the browser, two users in two browser contexts: an Editor's switch in a protected
// environment goes into a draft, the author cannot approve it, a second user approves and applies it,
// and only then does the flag change.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot } from './browser';
import { type Harness, startHarness } from './harness';

const ADMIN = '*:*.change-request-test-admin-secret-long-enough';
let harness: Harness;
let browser: Browser;

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${harness.root}${path}`, {
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
  const signup = await fetch(`${harness.root}invite/${invite.secret}/signup`, {
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
  await page.goto(`${harness.ui}change-requests`);
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
  [harness, browser] = await Promise.all([
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
  await browser?.close();
  await harness?.close();
});

describe('a change request reviewed by two users', () => {
  it('cannot be approved by its author; a second user approves and applies it', async () => {
    const author = await openPage(browser);
    await signIn(author.page, 'ann@example.com');
    // The 401 that shows the login page is expected; nothing after signing in may fail.
    author.consoleErrors.length = 0;
    // Ann switches the flag on in production: the change goes into her draft, the flag stays off.
    await author.page.goto(`${harness.ui}projects/default/features/guarded`);
    await author.page.getByRole('switch', { name: 'guarded in production' }).click();
    const bar = author.page.getByText('1 change in your draft for production');
    await bar.waitFor();
    expect(await author.page.getByRole('switch', { name: 'guarded in production' }).isChecked()).toBe(false);
    await screenshot(author.page, 'change-request-switch-draft-bar');
    await author.page.getByRole('link', { name: 'Review and submit' }).click();
    await author.page.getByRole('button', { name: 'Send to review' }).click();
    await author.page.getByText('In review', { exact: true }).waitFor();
    const id = Number(new URL(author.page.url()).pathname.split('/').at(-1));
    const approve = author.page.getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    expect(await approve.isDisabled()).toBe(true);
    expect(await approve.getAttribute('title')).toContain('own change request');
    expect(await enabledInProduction()).toBe(false);

    const reviewer = await openPage(browser);
    await signIn(reviewer.page, 'bob@example.com');
    reviewer.consoleErrors.length = 0;
    await reviewer.page.getByRole('link', { name: `Change request #${id}` }).click();
    await reviewer.page.getByRole('heading', { name: `Change request #${id}` }).waitFor();
    // The change reads as a diff: off before, on after.
    const diff = reviewer.page.getByTestId('diff-1');
    await diff.getByText('+ enabled: true').waitFor();
    expect(await diff.textContent()).toContain('- enabled: false');
    await reviewer.page.getByRole('button', { name: 'Approve' }).click();
    await reviewer.page.getByRole('button', { name: 'Apply now' }).waitFor();
    await screenshot(reviewer.page, 'change-request-page');
    expect(await enabledInProduction()).toBe(false);
    await reviewer.page.getByRole('button', { name: 'Apply now' }).click();
    await reviewer.page.getByText('Applied', { exact: true }).waitFor();
    expect(await enabledInProduction()).toBe(true);
    expect(author.consoleErrors).toEqual([]);
    expect(reviewer.consoleErrors).toEqual([]);
  });

  it('is configured per environment on the project page, and the list across projects finds requests', async () => {
    const { page, consoleErrors } = await openPage(browser);
    await signIn(page, 'ann@example.com');
    consoleErrors.length = 0;
    await page.getByRole('tab', { name: 'Closed' }).click();
    await page.getByRole('link', { name: 'default' }).first().click();
    await page.getByRole('table', { name: 'Change-request settings' }).waitFor();
    await page.getByLabel('Require change requests in development').check();
    await page.getByLabel('Approvals needed in development').fill('2');
    await page
      .getByRole('row', { name: /development/ })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByText('Saved the change-request setting of development').first().waitFor();
    await screenshot(page, 'change-request-settings');
    const config = await (await admin('api/admin/projects/default/change-requests/config')).json();
    expect(config).toContainEqual({
      environment: 'development',
      type: 'development',
      changeRequestEnabled: true,
      requiredApprovals: 2,
    });
    expect(consoleErrors).toEqual([]);
  });

  it('reverts a strategy change from the event log, restoring the previous strategy', async () => {
    // Direct changes in development again, so the revert applies at once.
    await admin('api/admin/projects/default/environments/development/change-requests/config', {
      method: 'PUT',
      body: JSON.stringify({ changeRequestsEnabled: false }),
    });
    await admin('api/admin/projects/default/features', {
      method: 'POST',
      body: JSON.stringify({ name: 'revertible' }),
    });
    const strategies = 'api/admin/projects/default/features/revertible/environments/development/strategies';
    const created = await (
      await admin(strategies, { method: 'POST', body: JSON.stringify({ name: 'default', title: 'first' }) })
    ).json();
    await admin(`${strategies}/${created.id}`, {
      method: 'PUT',
      body: JSON.stringify({ name: 'default', title: 'second' }),
    });
    const [event] = (await (await admin('api/admin/events?type=feature-strategy-update')).json()).events;

    const { page, consoleErrors } = await openPage(browser);
    await signIn(page, 'ann@example.com');
    consoleErrors.length = 0;
    await page.goto(`${harness.ui}events`);
    await page.getByRole('button', { name: `Revert event ${event.id}` }).click();
    await page.getByText('Reverted', { exact: true }).first().waitFor();
    const after = await (await admin(`${strategies}/${created.id}`)).json();
    expect(after.title).toBe('first');
    expect(consoleErrors).toEqual([]);
  });

  it('applies a scheduled request on the server at its time', { timeout: 60_000 }, async () => {
    await admin('api/admin/projects/default/features', {
      method: 'POST',
      body: JSON.stringify({ name: 'later' }),
    });
    /** A call to the admin API from a signed-in page (same origin, that user's session). */
    const call = (page: Page, path: string, method: string, body: unknown) =>
      page.evaluate(
        async ({ url, method, body }) => {
          const res = await fetch(url, {
            method,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          return (await res.json()) as { id: number; state: string };
        },
        { url: `${harness.root}${path}`, method, body },
      );
    const author = await openPage(browser);
    await signIn(author.page, 'ann@example.com');
    const draft = await call(
      author.page,
      'api/admin/projects/default/environments/production/change-requests',
      'POST',
      {
        feature: 'later',
        action: 'updateEnabled',
        payload: { enabled: true },
      },
    );
    const state = `api/admin/projects/default/change-requests/${draft.id}/state`;
    await call(author.page, state, 'PUT', { state: 'In review' });
    const reviewer = await openPage(browser);
    await signIn(reviewer.page, 'bob@example.com');
    reviewer.consoleErrors.length = 0;
    await call(reviewer.page, state, 'PUT', { state: 'Approved' });
    const scheduled = await call(reviewer.page, state, 'PUT', {
      state: 'Scheduled',
      scheduledAt: new Date(Date.now() + 2_000).toISOString(),
    });
    expect(scheduled.state).toBe('Scheduled');
    await reviewer.page.goto(`${harness.ui}projects/default/change-requests/${draft.id}`);
    await reviewer.page.getByText(/Scheduled to be applied/).waitFor();
    // The server looks for due schedules every 10 s.
    const deadline = Date.now() + 30_000;
    while (!(await reviewer.page.getByText('Applied', { exact: true }).isVisible())) {
      if (Date.now() > deadline) throw new Error('the scheduled request was not applied within 30 s');
      await new Promise((r) => setTimeout(r, 1_000));
      await reviewer.page.reload();
      await reviewer.page.getByRole('heading', { name: `Change request #${draft.id}` }).waitFor();
    }
    const feature = await (await admin('api/admin/projects/default/features/later')).json();
    expect(feature.environments.find((e: { name: string }) => e.name === 'production').enabled).toBe(true);
    expect(reviewer.consoleErrors).toEqual([]);
  });
});

describe('editing a feature in a protected environment', () => {
  it('drafts a new strategy and the variants; both apply after approval', { timeout: 60_000 }, async () => {
    expect(
      (
        await admin('api/admin/projects/default/features', {
          method: 'POST',
          body: JSON.stringify({ name: 'drafted' }),
        })
      ).status,
    ).toBe(200);
    const production = async () => {
      const feature = await (await admin('api/admin/projects/default/features/drafted')).json();
      return feature.environments.find((e: { name: string }) => e.name === 'production') as {
        strategies: { name: string; title?: string | null }[];
        variants: { name: string }[];
      };
    };
    const author = await openPage(browser);
    await signIn(author.page, 'ann@example.com');
    author.consoleErrors.length = 0;
    const page = author.page;
    await page.goto(`${harness.ui}projects/default/features/drafted`);
    const env = page.getByRole('region', { name: 'Environment production' });

    // A strategy: the dialog says where it goes, and saving adds it to Ann's draft.
    await env.getByRole('button', { name: 'Add strategy' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText('production requires change requests: the new strategy goes into your draft')
      .waitFor();
    await dialog.getByLabel('Title').fill('half of users');
    await dialog.getByRole('button', { name: 'Add to change request' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('1 change in your draft for production').waitFor();

    // The variants: the same.
    await env.getByRole('button', { name: 'Variants' }).click();
    const variants = page.getByRole('dialog');
    await variants
      .getByText('production requires change requests: the variant set goes into your draft')
      .waitFor();
    await variants.getByRole('button', { name: 'Add variant' }).click();
    await variants.getByRole('group', { name: 'Variant 1' }).getByLabel('Name').fill('blue');
    await screenshot(page, 'change-request-draft-dialog');
    await variants.getByRole('button', { name: 'Add to change request' }).click();
    await variants.waitFor({ state: 'detached' });
    await page.getByText('2 changes in your draft for production').waitFor();
    await screenshot(page, 'change-request-draft-bar');

    // Nothing changed on the feature itself.
    expect(await production()).toMatchObject({ strategies: [], variants: [] });

    // The request page lists both; Ann sends it to review, Bob approves and applies.
    await page.getByRole('link', { name: 'Review and submit' }).click();
    // The feature page has "Add strategy" buttons too: look for the change only on the request page.
    await page.waitForURL(/\/change-requests\/\d+$/);
    await page.getByRole('button', { name: 'Send to review' }).waitFor();
    await page.getByText('Add strategy', { exact: true }).waitFor();
    await page.getByText('Set variants', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send to review' }).click();
    await page.getByText('In review', { exact: true }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').at(-1));
    expect(await production()).toMatchObject({ strategies: [], variants: [] });

    const reviewer = await openPage(browser);
    await signIn(reviewer.page, 'bob@example.com');
    reviewer.consoleErrors.length = 0;
    await reviewer.page.goto(`${harness.ui}projects/default/change-requests/${id}`);
    await reviewer.page.getByRole('button', { name: 'Approve' }).click();
    await reviewer.page.getByRole('button', { name: 'Apply now' }).click();
    await reviewer.page.getByText('Applied', { exact: true }).waitFor();
    const after = await production();
    expect(after.strategies).toEqual([expect.objectContaining({ title: 'half of users' })]);
    expect(after.variants.map((v) => v.name)).toEqual(['blue']);
    expect(author.consoleErrors).toEqual([]);
    expect(reviewer.consoleErrors).toEqual([]);
  });

  it('drafts a strategy copied into the protected environment and a new dependency', async () => {
    for (const name of ['copied-parent', 'copied-child'])
      await admin('api/admin/projects/default/features', { method: 'POST', body: JSON.stringify({ name }) });
    // Development takes direct changes (the revert test turned its requirement off again).
    await admin('api/admin/projects/default/features/copied-child/environments/development/strategies', {
      method: 'POST',
      body: JSON.stringify({ name: 'default', title: 'everyone' }),
    });
    const { page, consoleErrors } = await openPage(browser);
    await signIn(page, 'ann@example.com');
    consoleErrors.length = 0;
    await page.goto(`${harness.ui}projects/default/features/copied-child`);
    const development = page.getByRole('region', { name: 'Environment development' });
    await development.getByRole('button', { name: 'Copy everyone to other environments' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('production requires change requests: the copy goes into your draft').waitFor();
    await dialog.getByLabel(/^production/).check();
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('1 change in your draft for production').waitFor();

    await page.getByRole('tab', { name: /Details/ }).click();
    await page.getByText('production requires change requests: adding or removing a parent').waitFor();
    const picker = page.getByRole('combobox', { name: 'Parent feature' });
    await picker.click();
    await picker.pressSequentially('copied-par', { delay: 40 });
    await page.getByRole('button', { name: /^copied-parent/ }).click();
    await page.getByRole('button', { name: 'Add dependency' }).click();
    await page.getByText('2 changes in your draft for production').waitFor();

    const feature = await (await admin('api/admin/projects/default/features/copied-child')).json();
    expect(feature.dependencies).toEqual([]);
    expect(feature.environments.find((e: { name: string }) => e.name === 'production').strategies).toEqual(
      [],
    );
    // A draft is its author's own: Ann's session reads it.
    const pending = await page.evaluate(
      async (url) => (await fetch(url)).json(),
      `${harness.root}api/admin/projects/default/change-requests/pending/copied-child`,
    );
    expect(pending).toHaveLength(1);
    const changes = pending[0].features.find((f: { name: string }) => f.name === 'copied-child').changes;
    expect(changes.map((c: { action: string }) => c.action).sort()).toEqual(['addDependency', 'addStrategy']);
    expect(changes.find((c: { action: string }) => c.action === 'addStrategy').payload).toMatchObject({
      name: 'default',
      title: 'everyone',
    });
    expect(consoleErrors).toEqual([]);
  });

  it('drafts moving and deleting a strategy in the protected environment', async () => {
    const prodConfig = 'api/admin/projects/default/environments/production/change-requests/config';
    const strategies = 'api/admin/projects/default/features/reordered/environments/production/strategies';
    await admin('api/admin/projects/default/features', {
      method: 'POST',
      body: JSON.stringify({ name: 'reordered' }),
    });
    // Two strategies set up while production takes direct changes, then it is protected again.
    await admin(prodConfig, { method: 'PUT', body: JSON.stringify({ changeRequestsEnabled: false }) });
    for (const title of ['first', 'second'])
      await admin(strategies, { method: 'POST', body: JSON.stringify({ name: 'default', title }) });
    await admin(prodConfig, {
      method: 'PUT',
      body: JSON.stringify({ changeRequestsEnabled: true, requiredApprovals: 1 }),
    });
    const before = (await (await admin(strategies)).json()) as { id: string; title: string }[];

    const { page, consoleErrors } = await openPage(browser);
    await signIn(page, 'ann@example.com');
    consoleErrors.length = 0;
    await page.goto(`${harness.ui}projects/default/features/reordered`);
    const production = page.getByRole('region', { name: 'Environment production' });
    await production.getByRole('button', { name: 'Move second up' }).click();
    await page.getByText('1 change in your draft for production').waitFor();
    await production
      .getByRole('listitem')
      .filter({ hasText: 'first' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('2 changes in your draft for production').waitFor();

    expect(await (await admin(strategies)).json()).toEqual(before);
    const pending = await page.evaluate(
      async (url) => (await fetch(url)).json(),
      `${harness.root}api/admin/projects/default/change-requests/pending/reordered`,
    );
    // Ann's one draft for production also holds the previous test's changes to another feature.
    const changes = pending[0].features.find((f: { name: string }) => f.name === 'reordered').changes as {
      action: string;
      payload: unknown;
    }[];
    const first = before.find((s) => s.title === 'first')?.id;
    const second = before.find((s) => s.title === 'second')?.id;
    expect(changes.find((c) => c.action === 'reorderStrategy')?.payload).toEqual([
      { id: second, sortOrder: 0 },
      { id: first, sortOrder: 1 },
    ]);
    expect(changes.find((c) => c.action === 'deleteStrategy')?.payload).toEqual({ id: first });
    expect(consoleErrors).toEqual([]);
  });
});
