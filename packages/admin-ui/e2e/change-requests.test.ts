// Change requests in the browser, two users in two browser contexts: an Editor's switch in a protected
// environment goes into a draft, the author cannot approve it, a second user approves and applies it,
// and only then does the flag change; configuration, revert from the event log, a scheduled request.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from './browser';
import { changeRequestWorld } from './change-request-world';

const { world, admin, signIn, enabledInProduction } = changeRequestWorld();

describe('a change request reviewed by two users', () => {
  it('cannot be approved by its author; a second user approves and applies it', async () => {
    const author = await openPage(world.browser);
    await signIn(author.page, 'ann@example.com');
    // The 401 that shows the login page is expected; nothing after signing in may fail.
    author.consoleErrors.length = 0;
    // Ann switches the flag on in production: the change goes into her draft, the flag stays off.
    await author.page.goto(`${world.harness.ui}projects/default/features/guarded`);
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

    const reviewer = await openPage(world.browser);
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
    const { page, consoleErrors } = await openPage(world.browser);
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

    const { page, consoleErrors } = await openPage(world.browser);
    await signIn(page, 'ann@example.com');
    consoleErrors.length = 0;
    await page.goto(`${world.harness.ui}events`);
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
        { url: `${world.harness.root}${path}`, method, body },
      );
    const author = await openPage(world.browser);
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
    const reviewer = await openPage(world.browser);
    await signIn(reviewer.page, 'bob@example.com');
    reviewer.consoleErrors.length = 0;
    await call(reviewer.page, state, 'PUT', { state: 'Approved' });
    const scheduled = await call(reviewer.page, state, 'PUT', {
      state: 'Scheduled',
      scheduledAt: new Date(Date.now() + 2_000).toISOString(),
    });
    expect(scheduled.state).toBe('Scheduled');
    await reviewer.page.goto(`${world.harness.ui}projects/default/change-requests/${draft.id}`);
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
