import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchConsoleBrowser, pageHelpers, SHOTS, type ConsoleBrowser, logIn } from './console-browser.js';
import { a11yViolations } from './console-a11y.js';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { startExtractionPages } from '../../fixtures/fake-models/extraction-pages.js';

// Issue 22, the console without a model provider: a Test says clearly that none is configured
// (422 model_not_configured, with the service's message on how to configure one), in the Runs
// form and in Studio, and starting a json run is refused with the same message. (Its own file:
// the local service's deps, the model provider among them, are per process.)

const EMAIL = 'nomodel@example.com';
const PASSWORD = 'correct-horse-battery-staple';

let svc: TestService;
let pages: Awaited<ReturnType<typeof startExtractionPages>>;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  pages = await startExtractionPages();
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: pages.hostPort });
  await createUser(svc.deps.table, svc.tenantId, EMAIL, PASSWORD, new Date());
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await pages?.close();
});

describe.skipIf(!CHROMIUM)('console: model extraction without a provider', () => {
  let cb: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    cb = await launchConsoleBrowser('gleaner-console-nomodel-');
    page = cb.page;
    page.on('dialog', (d) => void d.accept());
  });
  afterAll(async () => {
    await cb?.close();
  });

  const { go, textOf, waitText, noHorizontalScroll } = pageHelpers(() => page);

  it('logs in', async () => {
    await logIn(page, svc.url, EMAIL, PASSWORD);
  });

  it('Studio: Test shows that no model provider is configured, with the service\'s message on how to configure one', async () => {
    // What the API says, so the console is checked against it rather than against fixed words.
    const api = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${pages.baseUrl}/product`, formats: ['markdown', 'json'], json_options: { schema: { type: 'object', properties: { title: { type: 'string' } } } } } });
    expect(api.status).toBe(422);
    await go('#/studio');
    await page.waitForSelector('#studio-extract-url');
    await page.type('#studio-extract-url', `${pages.baseUrl}/product`);
    await page.select('#studio-extract-engine', 'http');
    await page.click('#studio-extract-example');
    await page.click('#studio-extract-test');
    await page.waitForSelector('#studio-extract-result .extract-error', { timeout: 30_000 });
    expect(await page.$eval('#studio-extract-result .extract-error', (e) => [(e as HTMLElement).dataset.code, e.getAttribute('role')])).toEqual(['model_not_configured', 'alert']);
    const text = await textOf('#studio-extract-result .extract-error');
    expect(text).toContain('No model provider is configured');
    expect(text).toContain(api.body.message);
    expect(text).toContain('GLEANER_LLM_BASE_URL');
    expect(text).toContain('HTTP 422');
    // The refusal shows in the panel, not also in the page's banner.
    expect(await page.$eval('#banner', (b) => (b as HTMLElement).hidden)).toBe(true);
    for (const width of [1280, 900]) {
      await page.setViewport({ width, height: 900 });
      expect(await noHorizontalScroll()).toBe(true);
      expect(await a11yViolations(page)).toEqual([]);
      await page.$eval('#studio-extract-card', (el) => el.scrollIntoView());
      await page.screenshot({ path: join(SHOTS, `studio-json-not-configured-${width}.png`), fullPage: true });
    }
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('Runs form: model extraction cannot be ticked, with the reason; a json run typed as JSON is refused next to the button', async () => {
    await go('#/runs?new=1');
    await page.waitForSelector('#run-scraper option[value="site-crawl"]');
    await page.select('#run-scraper', 'site-crawl');
    await page.waitForSelector('#run-in-json_options-on');
    await page.type('#run-in-start_url', `${pages.baseUrl}/product`);
    // Issue 29: an option that cannot work is disabled, and says why (the service's own words).
    await page.waitForFunction(() => (document.getElementById('run-in-json_options-on') as HTMLInputElement).disabled);
    expect(await page.$eval('[data-field="formats"] input[value="json"]', (b) => (b as HTMLInputElement).disabled)).toBe(true);
    expect(await textOf('#run-in-json_options-unavailable')).toContain('GLEANER_LLM_BASE_URL');
    await page.screenshot({ path: join(SHOTS, 'runs-json-not-configured-1280.png'), fullPage: true });
    // Typed in the JSON tab anyway: the service refuses it, and the message shows in the form.
    await page.click('[role="tab"]::-p-text(JSON)');
    await page.$eval('#run-input', (el, url) => {
      (el as HTMLTextAreaElement).value = JSON.stringify({ start_url: url, formats: ['json'], json_options: { schema: { type: 'object', properties: { title: { type: 'string' } } } } });
    }, `${pages.baseUrl}/product`);
    await page.click('#run-start');
    await waitText('#new-run .form-error', 'GLEANER_LLM_BASE_URL');
    expect(await page.evaluate(() => location.hash)).toBe('#/runs?new=1');
    expect(cb.pageErrors).toEqual([]);
    expect(cb.cspViolations).toEqual([]);
  });
});
