import { accessSync, constants, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterEach, expect } from 'vitest';

/** The system Chromium, found on PATH (no browser download is possible here). */
export function findChromium(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter))
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {}
    }
  throw new Error('No Chromium on PATH: install Debian\'s "chromium" package to run the browser tests.');
}

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

/**
 * Content-Security-Policy violations seen on any page this test file opened. The server sends a CSP
 * on the UI; whatever it blocks is broken UI, so every test ends by checking none was reported.
 */
const cspViolations: string[] = [];
afterEach(() => {
  expect(cspViolations.splice(0), 'Content-Security-Policy violations').toEqual([]);
});

// Blocked loads are logged to the console; blocked inline code and eval may only fire the event.
const REPORT_CSP_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) =>
  console.error('Content Security Policy violation: ' + e.violatedDirective + ' blocked ' +
    (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));`;

/** A 1280×800 page that records console errors and failed pages so tests can assert there are none. */
export async function openPage(browser: Browser, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript({ content: REPORT_CSP_VIOLATIONS });
  const page = await context.newPage();
  // Fail with the locator in the message before the test's own timeout hides it.
  page.setDefaultTimeout(15_000);
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) cspViolations.push(m.text());
    if (m.type() !== 'error') return;
    consoleErrors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  return { page, context, consoleErrors };
}

// FLAGSTAFF_SCREENSHOTS=1 refreshes the committed docs/screenshots/; otherwise they go to a temp dir.
const screenshotDir = process.env.FLAGSTAFF_SCREENSHOTS
  ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
  : join(tmpdir(), 'flagstaff-screenshots');

/** Saves a screenshot of the page as it is now (`fullPage`: the whole page, not only the viewport). */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.waitForLoadState('networkidle');
  // Transient toasts would cover the page; the screenshots show the page itself.
  await page.screenshot({
    path: join(screenshotDir, `${name}.png`),
    fullPage: options.fullPage ?? false,
    style: '.toast-viewport { display: none; }',
  });
}
