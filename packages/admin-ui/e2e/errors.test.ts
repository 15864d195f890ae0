import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './browser';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${harness.root}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('errors reach the user', () => {
  it('catches an invalid value before sending, next to its field, and shows the server’s message for a conflict', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${harness.ui}projects`);
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Project id').fill('no spaces allowed');
    await dialog.getByLabel('Name', { exact: true }).fill('Whatever');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await dialog.getByText('may hold letters, digits and "_", ".", "-" only').waitFor();

    await dialog.getByLabel('Project id').fill('default');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/default/);
  });

  it('rolls a switch back and shows the server’s message when the change fails', async () => {
    expect((await post('api/admin/projects/default/features', { name: 'soon-gone' })).ok).toBe(true);
    const { page } = await openPage(browser);
    await page.goto(`${harness.ui}projects/default`);
    const toggle = page.getByRole('switch', { name: 'soon-gone in development' });
    await toggle.waitFor();
    // Archived behind the UI's back: the next change answers 404 with a message.
    expect(
      (await fetch(`${harness.root}api/admin/projects/default/features/soon-gone`, { method: 'DELETE' })).ok,
    ).toBe(true);
    await toggle.click();
    await page
      .locator('.toast-error')
      .getByText(/soon-gone/)
      .waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
  });
});
