// The admin UI at 10,000 features in one project, in real headless Chromium: the standalone server
// (its own process, SQLite, authentication off) seeded through its import route, then per run a fresh
// browser context (nothing cached) and the p50 of: the project page's first row after navigation,
// a search typed at speed until its rows show (from the last keystroke, requests counted), the next
// page, opening a feature from the table (with the API bytes it read), and the playground's first results, each timed in the page itself (see `STAMP_FIRST_ROW`, `watchFor`).
// BENCH_UI_FEATURES and BENCH_UI_RUNS override the sizes.
// Needs the built UI (`npm run build`) and `chromium` on PATH; skipped without it.
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { startServerProcess, stopServerProcess } from '../server-process.js';

const FEATURES = Number(process.env.BENCH_UI_FEATURES ?? 10_000);
const RUNS = Number(process.env.BENCH_UI_RUNS ?? 5);
const IMPORT_CHUNK = 5_000;
const name = (i: number) => `ui-feature-${String(i).padStart(5, '0')}`;

function chromiumOnPath(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter))
    try {
      accessSync(join(dir, 'chromium'), constants.X_OK);
      return join(dir, 'chromium');
    } catch {}
  return null;
}

async function seed(base: string): Promise<void> {
  for (let from = 0; from < FEATURES; from += IMPORT_CHUNK) {
    const names = Array.from({ length: Math.min(IMPORT_CHUNK, FEATURES - from) }, (_, k) => name(from + k));
    const answer = await fetch(`${base}/api/admin/features-batch/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        project: 'default',
        environment: 'development',
        data: {
          features: names.map((n) => ({ name: n, type: 'release', project: 'default', description: n })),
          featureStrategies: names.map((featureName) => ({
            featureName,
            name: 'flexibleRollout',
            parameters: { rollout: '50', stickiness: 'default', groupId: featureName },
            constraints: [],
            segments: [],
            variants: [],
          })),
          featureEnvironments: names.map((n, k) => ({
            featureName: n,
            name: n,
            environment: 'development',
            enabled: k % 2 === 0,
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
    if (!answer.ok) throw new Error(`import: ${answer.status} ${await answer.text()}`);
  }
}

interface Run {
  firstRow: number;
  search: number;
  searchRequests: number;
  nextPage: number;
  openFeature: number;
  openFeatureKb: number;
  playground: number;
}

/**
 * Timings are read in the page: Playwright's waits poll (0, 20, 100, 100, then every 500 ms), so a
 * row that appears at 300 ms would be seen at up to 770 ms. A mutation observer stamps when the
 * first row appears (`performance.now()`, from the navigation's start).
 */
const STAMP_FIRST_ROW = `
  const observer = new MutationObserver(() => {
    if (window.__firstRow !== undefined || !document.querySelector('tbody tr')) return;
    window.__firstRow = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
`;

/**
 * For a step set off by typing or a click: stamps, in the page, the last key press or click and
 * when the text or element the step waits for first appears; `elapsed` reads the difference. (Page
 * code is written as text: the bench runs through tsx, whose helpers do not exist in the page.)
 */
const watchFor = (page: Page, watch: { text?: string; selector?: string }) =>
  page.evaluate(`(() => {
    const target = ${JSON.stringify(watch)};
    const step = {};
    window.__step = step;
    const input = () => {
      if (step.seen === undefined) step.lastInput = performance.now();
    };
    document.addEventListener('keydown', input, true);
    document.addEventListener('click', input, true);
    const observer = new MutationObserver(() => {
      const found = target.selector
        ? document.querySelector(target.selector) !== null
        : (document.body.textContent || '').includes(target.text || '');
      if (!found || step.lastInput === undefined) return;
      step.seen = performance.now();
      observer.disconnect();
      document.removeEventListener('keydown', input, true);
      document.removeEventListener('click', input, true);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  })()`);

const elapsed = async (page: Page): Promise<number> => {
  const step = (await page.evaluate('window.__step')) as { lastInput?: number; seen?: number };
  if (step.seen === undefined || step.lastInput === undefined)
    throw new Error(`no in-page marks: ${JSON.stringify(step)}`);
  return step.seen - step.lastInput;
};

async function oneRun(browser: Browser, ui: string): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(STAMP_FIRST_ROW);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const searches: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/admin/search/features')) searches.push(r.url());
  });
  try {
    await page.goto(`${ui}projects/default`);
    await page.locator('tbody tr').first().waitFor();
    const firstRow = (await page.evaluate('window.__firstRow')) as number;
    await page.getByText(`1–25 of ${FEATURES}`).waitFor();

    const before = searches.length;
    const box = page.getByLabel('Search features');
    // 10 features match `ui-feature-0123` (01230…01239) at 10,000.
    await watchFor(page, { text: '1–10 of 10' });
    await box.pressSequentially('ui-feature-0123', { delay: 30 });
    await page.getByText('1–10 of 10').waitFor();
    const search = await elapsed(page);
    await page.waitForTimeout(300);
    const searchRequests = searches.length - before;

    await box.fill('');
    await page.getByText(`1–25 of ${FEATURES}`).waitFor();
    await watchFor(page, { text: `26–50 of ${FEATURES}` });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`26–50 of ${FEATURES}`).waitFor();
    const nextPage = await elapsed(page);

    // Opening a feature: its page reads that feature (and what its tabs need), never the project's list.
    const apiBytes: Promise<number>[] = [];
    const onApi = (request: Request) => {
      if (request.url().includes('/api/'))
        apiBytes.push(
          request
            .response()
            .then(async (r) => (r ? (await r.body()).byteLength : 0))
            .catch(() => 0),
        );
    };
    page.on('request', onApi);
    await watchFor(page, { selector: 'section.env-card' });
    await page.locator('a.cell-name').first().click();
    await page.locator('section.env-card').first().waitFor();
    const openFeature = await elapsed(page);
    await page.waitForTimeout(300);
    page.off('request', onApi);
    const openFeatureKb = (await Promise.all(apiBytes)).reduce((a, b) => a + b, 0) / 1024;

    await page.goto(`${ui}playground`);
    await page.getByRole('button', { name: 'Evaluate' }).waitFor();
    await watchFor(page, { selector: 'td.cell-name' });
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.locator('td.cell-name').first().waitFor();
    const playground = await elapsed(page);
    return { firstRow, search, searchRequests, nextPage, openFeature, openFeatureKb, playground };
  } finally {
    await context.close();
  }
}

/**
 * Waits until the server answers /health in under 20 ms five times running (at most a minute): what
 * an import leaves to do in the background (indexing its event, compiling the new configuration)
 * would otherwise be measured as the UI's speed. Returns how long that took.
 */
async function settle(base: string): Promise<number> {
  const started = performance.now();
  let quick = 0;
  while (quick < 5 && performance.now() - started < 60_000) {
    const t = performance.now();
    await (await fetch(`${base}/health`)).arrayBuffer();
    quick = performance.now() - t < 20 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
  return performance.now() - started;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function run(): Promise<void> {
  const executablePath = chromiumOnPath();
  if (!executablePath) {
    console.log('skipped: no chromium on PATH');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-admin-ui-scale-'));
  const { base, child } = await startServerProcess({
    DATABASE_URL: join(dir, 'ui.db'),
    FLAGSTAFF_AUTH: 'none',
  });
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const started = performance.now();
    await seed(base);
    console.log(
      `sqlite, ${FEATURES.toLocaleString('en')} features in one project (seeded in ${((performance.now() - started) / 1000).toFixed(1)} s), ${RUNS} runs`,
    );
    console.log(`  server settled after the import in ${((await settle(base)) / 1000).toFixed(1)} s`);
    // One run to warm the server's caches and Chromium, not counted.
    await oneRun(browser, `${base}/ui/`);
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await oneRun(browser, `${base}/ui/`));
    const line = (label: string, pick: (r: Run) => number, unit = 'ms') =>
      console.log(
        `  ${label.padEnd(52)} p50 ${median(runs.map(pick)).toFixed(0).padStart(6)} ${unit}   (runs: ${runs.map((r) => pick(r).toFixed(0)).join(', ')})`,
      );
    line('project page: navigation to first row', (r) => r.firstRow);
    line('search typed at 30 ms/key: last key to its rows', (r) => r.search);
    line('search requests for the typed word', (r) => r.searchRequests, 'requests');
    line('next page: click to its rows', (r) => r.nextPage);
    line('opening a feature: click to its environments', (r) => r.openFeature);
    line('  API answers read while opening it', (r) => r.openFeatureKb, 'kB');
    line('playground: Evaluate to first results', (r) => r.playground);
  } finally {
    await browser.close();
    await stopServerProcess(child);
    rmSync(dir, { recursive: true, force: true });
  }
}
