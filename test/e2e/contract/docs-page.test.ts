import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser } from 'puppeteer-core';
import { startTestService, type TestService } from '../../support/local-service.js';
import { CHROMIUM } from '../console/console-browser.js';
import { sparticuzExecutable } from '../../../functions/adapters/local/chromium-launcher.js';

let svc: TestService;
let browser: Browser | undefined;
let why = '';
beforeAll(async () => {
  svc = await startTestService();
  // The system Chromium when there is one, else the @sparticuz/chromium fallback.
  try {
    const s = CHROMIUM ?? { ...(await sparticuzExecutable()), headless: 'shell' as const };
    browser = await puppeteer.launch({ executablePath: s.executablePath, headless: s.headless, env: s.env ?? process.env, args: [...s.args, '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
  } catch (e) {
    why = (e as Error).message;
    console.warn(`[docs e2e] no browser could start, the page test is skipped: ${why}`);
  }
});
afterAll(async () => {
  await browser?.close();
  await svc?.destroy();
});

describe('the /docs reference page in a real browser', () => {
  it('renders navigation by tag, operations with their request and response shapes, offline, with no CSP violation', async (ctx) => {
    if (!browser) return ctx.skip(`no browser: ${why}`);
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const problems: string[] = [];
    const offOrigin: string[] = [];
    page.on('pageerror', (e) => problems.push(String((e as Error)?.message ?? e)));
    page.on('console', (m) => {
      // The renderer probes `new Function` in a try/catch; that one report is expected under script-src 'self'.
      if (/Content Security Policy/i.test(m.text()) && !/unsafe-eval/.test(m.text())) problems.push(m.text());
    });
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      if (!r.url().startsWith(svc.url) && !r.url().startsWith('data:')) {
        offOrigin.push(r.url());
        void r.abort();
      } else void r.continue();
    });
    await page.goto(`${svc.url}/docs`, { waitUntil: 'networkidle0', timeout: 60_000 });
    await page.waitForFunction(() => document.body.innerText.includes('Gleaner API'), { timeout: 60_000 });
    const text = await page.evaluate(() => document.body.innerText);
    // Navigation by tag: the sidebar lists the tags of the document.
    for (const tag of ['runs', 'queries', 'jobs', 'webhooks', 'storage', 'mcp']) expect(text.toLowerCase(), tag).toContain(tag);
    // Open the runs group from the sidebar's navigation…
    const opened1 = await page.evaluate(() => {
      const label = Array.from(document.querySelectorAll('button div')).find((e) => (e as HTMLElement).innerText?.trim() === 'runs');
      (label?.closest('button') as HTMLElement | undefined)?.click();
      return !!label;
    });
    expect(opened1).toBe(true);
    await page.waitForFunction(() => document.body.innerText.includes('Start a run of a scraper with an input'), { timeout: 30_000 });
    // …and deep-link one operation: its request body and responses show.
    await page.evaluate(() => {
      location.hash = 'tag/runs/POST/v1/runs';
    });
    await page.waitForFunction(() => /scraper_id/.test(document.body.innerText) && /201/.test(document.body.innerText), { timeout: 30_000 });
    const opened = await page.evaluate(() => document.body.innerText);
    expect(opened).toContain('scraper_id');
    expect(opened).toMatch(/Location|X-Request-Id/);
    expect(offOrigin).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
