// Every feature edit in an environment that requires change requests goes into the editor's draft:
// strategies (add, copy in, move, delete), variants and dependencies; nothing changes until applied.
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from './browser';
import { changeRequestWorld } from './change-request-world';

const { world, admin, signIn } = changeRequestWorld();

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
    const author = await openPage(world.browser);
    await signIn(author.page, 'ann@example.com');
    author.consoleErrors.length = 0;
    const page = author.page;
    await page.goto(`${world.harness.ui}projects/default/features/drafted`);
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

    const reviewer = await openPage(world.browser);
    await signIn(reviewer.page, 'bob@example.com');
    reviewer.consoleErrors.length = 0;
    await reviewer.page.goto(`${world.harness.ui}projects/default/change-requests/${id}`);
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
    const { page, consoleErrors } = await openPage(world.browser);
    await signIn(page, 'ann@example.com');
    consoleErrors.length = 0;
    await page.goto(`${world.harness.ui}projects/default/features/copied-child`);
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
      `${world.harness.root}api/admin/projects/default/change-requests/pending/copied-child`,
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

    const { page, consoleErrors } = await openPage(world.browser);
    await signIn(page, 'ann@example.com');
    consoleErrors.length = 0;
    await page.goto(`${world.harness.ui}projects/default/features/reordered`);
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
      `${world.harness.root}api/admin/projects/default/change-requests/pending/reordered`,
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
