import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** The system Chromium the console tests drive (they are skipped without one). */
export const CHROMIUM = [process.env.GLEANER_CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && existsSync(p),
);
if (!CHROMIUM) console.warn('[console e2e] No Chromium binary found (set GLEANER_CHROMIUM_PATH or apt-get install chromium): the browser tests are skipped.');

export interface ConsoleBrowser {
  browser: Browser;
  page: Page;
  /** Uncaught page errors and CSP violations seen so far (tests assert both stay empty). */
  pageErrors: string[];
  cspViolations: string[];
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile and one 1280x900 tab that records page errors and CSP violations. */
export async function launchConsoleBrowser(prefix: string): Promise<ConsoleBrowser> {
  const profileDir = mkdtempSync(join(tmpdir(), prefix));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM!,
    headless: true,
    userDataDir: profileDir,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const pageErrors: string[] = [];
  const cspViolations: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String((e as Error)?.message ?? e)));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  return {
    browser, page, pageErrors, cspViolations,
    async close() {
      await browser.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/** Small page helpers shared by the console tests (hash navigation and text waits). */
export function pageHelpers(page: Page) {
  return {
    go: (hash: string) =>
      page.evaluate((h) => {
        location.hash = h;
      }, hash),
    textOf: (sel: string) => page.$eval(sel, (el) => (el as HTMLElement).innerText),
    waitText: (sel: string, text: string, timeout = 15_000) =>
      page.waitForFunction((s, t) => Array.from(document.querySelectorAll(s)).some((el) => (el as HTMLElement).innerText.includes(t)), { timeout }, sel, text),
  };
}
