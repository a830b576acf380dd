import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { sparticuzExecutable } from '../../../functions/adapters/local/chromium-launcher.js';
import { a11yViolations, axeViolations } from './console-a11y.js';

const SYSTEM = [process.env.GLEANER_CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && existsSync(p),
);
const FLAGS = ['--lang=en-US', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** How the console tests start a browser: the system Chromium, else the @sparticuz/chromium fallback. */
interface BrowserBinary {
  executablePath: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  headless: true | 'shell';
}

async function findBrowser(): Promise<{ binary: BrowserBinary | null; why: string | null }> {
  if (SYSTEM) return { binary: { executablePath: SYSTEM, args: ['--headless=new', ...FLAGS], headless: true }, why: null };
  try {
    const s = await sparticuzExecutable();
    return { binary: { executablePath: s.executablePath, args: [...s.args, ...FLAGS], env: s.env, headless: 'shell' }, why: null };
  } catch (err) {
    return { binary: null, why: `no system Chromium and the @sparticuz/chromium fallback failed (${(err as Error).message})` };
  }
}

const found = await findBrowser();
/** The browser the console tests drive; null (tests skipped, reason printed) only when none can start. */
export const CHROMIUM = found.binary;
if (!CHROMIUM) console.warn(`[console e2e] browser tests skipped: ${found.why}. Install one with apt-get install chromium or set GLEANER_CHROMIUM_PATH.`);

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
    executablePath: CHROMIUM!.executablePath,
    headless: CHROMIUM!.headless,
    env: CHROMIUM!.env,
    userDataDir: profileDir,
    args: CHROMIUM!.args,
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

/** Where the console tests put their screenshots (kept as CI artifacts). */
export const SHOTS = resolve('test-artifacts/console');

/**
 * Small page helpers shared by the console tests: hash navigation, text and value reads and
 * waits, the no-sideways-scroll check and the screenshots at two widths. `page` may be a getter,
 * for a suite whose page is opened in its beforeAll: `const { go, waitText } = pageHelpers(() => page)`.
 */
export function pageHelpers(page: Page | (() => Page)) {
  const p = typeof page === 'function' ? page : () => page;
  /** The page fits the window: no horizontal scrolling of the whole document. */
  const noHorizontalScroll = () => p().evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  return {
    /**
     * Go to `hash` and wait until the router has replaced the page that was shown: otherwise a
     * wait that follows could match the old page (another run's "succeeded") and act on it while
     * it is being replaced (seen under load: a click on the old run page's log, lost).
     */
    go: async (hash: string) => {
      const changed = await p().evaluate((h) => {
        const before = location.hash;
        (window as unknown as { __shownPage?: Element | null }).__shownPage = document.getElementById('main')?.firstElementChild ?? null;
        location.hash = h;
        return location.hash !== before;
      }, hash);
      if (changed)
        await p().waitForFunction(() => document.getElementById('main')?.firstElementChild !== (window as unknown as { __shownPage?: Element | null }).__shownPage, { timeout: 15_000 });
    },
    textOf: (sel: string) => p().$eval(sel, (el) => (el as HTMLElement).innerText),
    /**
     * Open the <details> whose <summary> is `summarySel`, as a click on it does, and wait until it
     * is open. A click at the summary's coordinates could land elsewhere when a section above it
     * finishes loading at that moment (a run's results above its log).
     */
    openDetails: async (summarySel: string) => {
      await p().$eval(summarySel, (el) => {
        if (!(el.parentElement as HTMLDetailsElement).open) (el as HTMLElement).click();
      });
      await p().waitForFunction((s) => !!(document.querySelector(s)?.parentElement as HTMLDetailsElement | null)?.open, { timeout: 15_000 }, summarySel);
    },
    /**
     * Click an element of a live table (a run's items, redrawn while the run's page refreshes):
     * found and clicked in one step in the page. A mouse click looks the element up, scrolls it
     * into view and computes its box first, and a redraw in between detaches it ("Node is
     * detached from document").
     */
    clickLive: async (sel: string) => {
      await p().waitForSelector(sel);
      await p().$eval(sel, (el) => (el as HTMLElement).click());
    },
    waitText: (sel: string, text: string, timeout = 15_000) =>
      p().waitForFunction((s, t) => Array.from(document.querySelectorAll(s)).some((el) => (el as HTMLElement).innerText.includes(t)), { timeout }, sel, text),
    valueOf: (sel: string) => p().$eval(sel, (el) => (el as HTMLInputElement).value),
    /** Set a field's value as typing would (an input event follows). */
    setValue: (sel: string, value: string) =>
      p().$eval(sel, (el, v) => {
        (el as HTMLInputElement).value = v;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, value),
    noHorizontalScroll,
    /**
     * At 1280 and 900 px wide: no sideways scroll, no accessibility violations (ours and axe's),
     * and a full-page screenshot `<name>-<width>.png` in {@link SHOTS}; back at 1280 px after.
     */
    shots: async (name: string) => {
      for (const width of [1280, 900]) {
        await p().setViewport({ width, height: 900 });
        expect(await noHorizontalScroll(), `${name} at ${width} px scrolls sideways`).toBe(true);
        expect(await a11yViolations(p())).toEqual([]);
        expect(await axeViolations(p())).toEqual([]);
        await p().screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
      }
      await p().setViewport({ width: 1280, height: 900 });
    },
  };
}

/** Open the console at `baseUrl` and log in through its form; resolves on the Runs page. */
export async function logIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('#login-email', { visible: true });
  await page.type('#login-email', email);
  await page.type('#login-password', password);
  await page.click('#login-submit');
  await page.waitForFunction(() => location.hash.startsWith('#/runs'));
}
