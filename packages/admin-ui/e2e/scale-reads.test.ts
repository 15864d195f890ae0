import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './browser';
import { type Harness, startHarness } from './harness';

const FEATURES = 120;
let harness: Harness;
let browser: Browser;
let page: Page;
let consoleErrors: string[];

const name = (i: number) => `load-${String(i).padStart(3, '0')}`;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  ({ page, consoleErrors } = await openPage(browser));
  const names = Array.from({ length: FEATURES }, (_, i) => name(i));
  const answer = await fetch(`${harness.root}api/admin/features-batch/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      project: 'default',
      environment: 'development',
      data: {
        features: names.map((n) => ({ name: n, type: 'release', project: 'default' })),
        featureStrategies: [],
        featureEnvironments: names.map((n, i) => ({
          featureName: n,
          name: n,
          environment: 'development',
          enabled: i % 2 === 0,
          variants: [],
        })),
        featureTags: [],
        tagTypes: [],
        contextFields: [],
        segments: [],
        dependencies: [],
      },
    }),
  });
  expect(answer.status, await answer.text()).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/** Requests the page sends to a path, recorded from now on. */
function recordRequests(path: string): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith(path)) seen.push(r);
  });
  return seen;
}

describe('the project page with many features', () => {
  it('asks for its first page once, and searches once per pause in typing', async () => {
    const searches = recordRequests('/api/admin/search/features');
    const opening = [
      '/api/admin/user',
      '/api/admin/projects/default',
      '/api/admin/environments/project/default',
    ];
    const openingRequests = opening.map((path) => recordRequests(path));
    await page.goto(`${harness.ui}projects/default`);
    await page.getByText(`1–25 of ${FEATURES}`).waitFor();
    // Let the project's environments arrive: they must not send the first search again.
    await page.waitForLoadState('networkidle');
    expect(searches).toHaveLength(1);
    // Each asked for once: the app takes the answers the page started before its code ran
    // (early-answers.ts) rather than asking again.
    expect(openingRequests.map((r) => r.length)).toEqual(opening.map(() => 1));

    // Typed at speed (30 ms a key): one request, for the whole word.
    await page.getByLabel('Search features').pressSequentially('load-11', { delay: 30 });
    await page.getByText('1–10 of 10').waitFor();
    await page.waitForTimeout(400);
    expect(searches.map((r) => new URL(r.url()).searchParams.get('query'))).toEqual([null, 'load-11']);

    // A pause, then more: one more request. Clearing the box shows the first page, still fresh from
    // a moment ago (the UI keeps answers 10 s): no request.
    await page.getByLabel('Search features').pressSequentially('5', { delay: 30 });
    await page.getByText('1–1 of 1').waitFor();
    await page.getByLabel('Search features').fill('');
    await page.getByText(`1–25 of ${FEATURES}`).waitFor();
    await page.waitForTimeout(400);
    expect(searches.map((r) => new URL(r.url()).searchParams.get('query'))).toEqual([
      null,
      'load-11',
      'load-115',
    ]);
    // Paging is not typing: at once, one request a click.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`26–50 of ${FEATURES}`).waitFor();
    expect(searches.map((r) => new URL(r.url()).searchParams.get('offset'))).toEqual(['0', '0', '0', '25']);
    expect(consoleErrors).toEqual([]);
  });
});

describe('opening a feature from the table', () => {
  it('needs no code the page has not loaded while idle, and reads that feature, not the project', async () => {
    await page.goto(`${harness.ui}projects/default`);
    await page.getByText(`1–25 of ${FEATURES}`).waitFor();
    await page.waitForLoadState('networkidle');
    const scripts: string[] = [];
    const api: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.resourceType() === 'script' || path.endsWith('.js')) scripts.push(path);
      else if (path.includes('/api/')) api.push(path);
    });
    await page.getByRole('link', { name: name(FEATURES - 1), exact: true }).click();
    await page.getByRole('region', { name: 'Environment development' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts).toEqual([]);
    expect(api).toContain(`/api/admin/projects/default/features/${name(FEATURES - 1)}`);
    expect(api.filter((path) => path.endsWith('/projects/default/features'))).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

describe('the playground with many features', () => {
  it('shows the first page of results, pages through them and filters them by name', async () => {
    const evaluations = recordRequests('/api/admin/playground');
    await page.goto(`${harness.ui}playground`);
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.getByText(`Results (${FEATURES})`).waitFor();
    await page.getByText(`1–50 of ${FEATURES}`).waitFor();
    const rows = () => page.locator('td.cell-name').allTextContents();
    expect(await rows()).toEqual(Array.from({ length: 50 }, (_, i) => name(i)));
    expect(evaluations).toHaveLength(1);
    expect(evaluations[0]!.postDataJSON()).toMatchObject({ offset: 0, limit: 50 });

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`51–100 of ${FEATURES}`).waitFor();
    await expect.poll(async () => (await rows())[0]).toBe(name(50));
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`101–${FEATURES} of ${FEATURES}`).waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    // The filter starts over at the first page, with one request once typing pauses.
    const before = evaluations.length;
    await page.getByLabel('Filter results by name').pressSequentially('LOAD-10', { delay: 30 });
    await page.getByText('Results (10)').waitFor();
    await page.getByText('1–10 of 10').waitFor();
    expect(await rows()).toEqual(Array.from({ length: 10 }, (_, i) => name(100 + i)));
    await page.waitForTimeout(400);
    expect(evaluations.slice(before).map((r) => r.postDataJSON())).toEqual([
      expect.objectContaining({ query: 'LOAD-10', offset: 0, limit: 50 }),
    ]);
    // An explanation still opens for a row of the page.
    await page.getByRole('button', { name: 'Explain' }).first().click();
    await page.getByText('No strategies.').waitFor();
    expect(consoleErrors).toEqual([]);
  });
});
