import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchConsoleBrowser, pageHelpers, SHOTS, type ConsoleBrowser, logIn } from './console-browser.js';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { SCOPES } from '../../../functions/routes.js';

// Issue 29, a console that stays true while work runs: the Runs list comes first with the new-run
// form one click away; the list follows runs started elsewhere (here: the API) and never shows a
// finished run as running; a run whose page answered 404 carries the same mark in the list and on
// its page; a run's log, "Run again" and "Clone"; CSV with chosen columns; forms that show
// defaults as their state and send nothing the person did not choose; errors next to the field
// that caused them. Screenshots at 1280 and 900 px (test-artifacts/console/), accessibility checks.

const EMAIL = 'live@example.com';
const PASSWORD = 'correct-horse-battery-staple';

let svc: TestService;
let site: FixtureSite;
let slow: FixtureSite;
let articleRun: string;
let missingRun: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  site = await startFixtureSite();
  // Every response waits 1.5 s: a run started through the API is still running when the list first sees it.
  slow = await startFixtureSite({ latencyMs: 1500 });
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port},127.0.0.1:${slow.port}` });
  await createUser(svc.deps.table, svc.tenantId, EMAIL, PASSWORD, new Date());
  const start = async (input: Record<string, unknown>) => {
    const r = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input } });
    expect(r.status).toBe(201);
    expect((await svc.call(`/v1/runs/${r.body.id}?wait=30`)).body.status).toBe('succeeded');
    return r.body.id as string;
  };
  articleRun = await start({ url: `${site.baseUrl}/article`, engine: 'http' });
  missingRun = await start({ url: `${site.baseUrl}/no-such-page`, engine: 'http' });
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
  await slow?.close();
});

describe('run exports with chosen columns (API)', () => {
  it('?format=csv&columns= exports exactly those columns in that order', async () => {
    const r = await svc.call(`/v1/runs/${articleRun}/results?format=csv&columns=title,url,status_code`);
    expect(r.status).toBe(200);
    const [head, row] = r.text.split('\r\n');
    expect(head).toBe('title,url,status_code');
    expect(row).toContain(`${site.baseUrl}/article,200`);
    expect((await svc.call(`/v1/runs/${articleRun}/results?format=csv&columns=,`)).status).toBe(400);
  });
});

describe.skipIf(!CHROMIUM)('console: live status and forms that tell the truth (issue 29)', () => {
  let cb: ConsoleBrowser;
  let page: Page;
  let downloadDir: string;

  beforeAll(async () => {
    downloadDir = mkdtempSync(join(tmpdir(), 'gleaner-console-live-dl-'));
    cb = await launchConsoleBrowser('gleaner-console-live-');
    page = cb.page;
    page.on('dialog', (d) => void d.accept());
    const cdp = await cb.browser.target().createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloadDir, eventsEnabled: true });
  });
  afterAll(async () => {
    await cb?.close();
    if (downloadDir) rmSync(downloadDir, { recursive: true, force: true });
  });

  const { go, textOf, openDetails, waitText, shots } = pageHelpers(() => page);

  it('logs in', async () => {
    await logIn(page, svc.url, EMAIL, PASSWORD);
  });

  it('Runs: the list comes first; "New run" opens the form above it in one click', async () => {
    await go('#/runs');
    await waitText('table.data', `${site.baseUrl}/article`);
    expect(await page.$eval('#new-run', (el) => (el as HTMLElement).hidden)).toBe(true);
    expect(await page.$eval('#runs-new', (b) => b.getAttribute('aria-expanded'))).toBe('false');
    await shots('runs-list-first');
    await page.click('#runs-new');
    await page.waitForSelector('#run-scraper', { visible: true });
    expect(await page.$eval('#runs-new', (b) => b.getAttribute('aria-expanded'))).toBe('true');
    // The form sits between the header and the list, and the list is still there.
    expect(await page.evaluate(() => document.getElementById('new-run')!.getBoundingClientRect().top < document.querySelector('table.data')!.getBoundingClientRect().top)).toBe(true);
    await shots('runs-new-run-open');
  });

  it('the top bar stays on one line at 900 px', async () => {
    for (const width of [1280, 900]) {
      await page.setViewport({ width, height: 900 });
      const rows = await page.evaluate(() => new Set(Array.from(document.querySelectorAll('#nav a')).map((a) => Math.round(a.getBoundingClientRect().top))).size);
      expect(rows, `nav rows at ${width} px`).toBe(1);
    }
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('an open Runs list picks up a run started through the API and shows it finished without a reload', async () => {
    await go('#/runs');
    await waitText('table.data', `${site.baseUrl}/article`);
    const r = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input: { url: `${slow.baseUrl}/about`, engine: 'http' } } });
    expect(r.status).toBe(201);
    const id = r.body.id as string;
    const row = `a[href="#/runs/${id}"]`;
    await page.waitForSelector(row, { timeout: 15_000 });
    const finished = await svc.call(`/v1/runs/${id}?wait=30`);
    expect(finished.body.status).toBe('succeeded');
    // No click on Refresh: the list reads the service again and the row says succeeded, no spinner.
    await page.waitForFunction((sel) => {
      const tr = document.querySelector(sel)?.closest('tr');
      return !!tr && tr.textContent!.includes('succeeded') && !tr.querySelector('.spinner') && !tr.textContent!.includes('so far');
    }, { timeout: 15_000 }, row);
  });

  it('a run whose page answered 404 carries the same HTTP 404 mark in the list and on its page', async () => {
    await go('#/runs');
    const row = `a[href="#/runs/${missingRun}"]`;
    await page.waitForFunction((sel) => document.querySelector(sel)?.closest('tr')?.querySelector('.badge-http-error')?.textContent === 'HTTP 404', { timeout: 15_000 }, row);
    // The article run (200) has no mark.
    expect(await page.$eval(`a[href="#/runs/${articleRun}"]`, (a) => !!a.closest('tr')!.querySelector('.badge-http-error'))).toBe(false);
    await go(`#/runs/${missingRun}`);
    await page.waitForFunction(() => document.querySelector('#run-status .badge-http-error')?.textContent === 'HTTP 404', { timeout: 15_000 });
    expect(await textOf('#run-status')).toContain('succeeded');
  });

  it('a run\'s page shows its log (every request with its decision)', async () => {
    await go(`#/runs/${articleRun}`);
    await waitText('#run-status', 'succeeded');
    await openDetails('#run-log-box summary');
    await waitText('#run-log', 'Fetched');
    expect(await textOf('#run-log')).toContain(`${site.baseUrl}/article`);
    expect(await textOf('#run-log-note')).toMatch(/\d+ entr(y|ies)/);
    await shots('run-log');
  });

  it('exports CSV with the columns the person chose', async () => {
    await go(`#/runs/${articleRun}`);
    await waitText('#run-results', `${site.baseUrl}/article`);
    await page.click('#run-export-csv');
    await page.waitForSelector('dialog.csv-columns[open]');
    // Column names for people, the raw name beside them.
    expect(await textOf('dialog.csv-columns')).toContain('HTTP status');
    await shots('run-csv-columns');
    await page.$$eval('dialog.csv-columns input[type="checkbox"]', (boxes) => {
      for (const b of boxes as HTMLInputElement[]) b.checked = b.value === 'url' || b.value === 'title';
    });
    await page.click('#csv-download');
    const file = join(downloadDir, `${articleRun}.csv`);
    const deadline = Date.now() + 15_000;
    while (!existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const [head, row] = readFileSync(file, 'utf8').split('\r\n');
    expect(head).toBe('url,title');
    expect(row).toContain(`${site.baseUrl}/article,`);
  });

  it('"Run again" starts the same run; "Clone" opens the form filled with its input', async () => {
    await go(`#/runs/${articleRun}`);
    await waitText('#run-status', 'succeeded');
    await page.click('#run-rerun');
    await page.waitForFunction((old) => /^#\/runs\/run_/.test(location.hash) && !location.hash.includes(old), {}, articleRun);
    const again = await page.evaluate(() => decodeURIComponent(location.hash.split('/')[2]!));
    const rec = await svc.call(`/v1/runs/${again}`);
    expect(rec.body.scraper_id).toBe('page-content');
    expect(rec.body.input).toEqual({ url: `${site.baseUrl}/article`, engine: 'http' });
    await go(`#/runs/${articleRun}`);
    await waitText('#run-status', 'succeeded');
    await page.click('#run-clone');
    await page.waitForFunction(() => (document.getElementById('run-in-url') as HTMLInputElement | null)?.value?.includes('/article'), { timeout: 15_000 });
    expect(await page.$eval('#run-scraper', (s) => (s as HTMLSelectElement).value)).toBe('page-content');
    expect(JSON.parse(await page.$eval('#run-input', (t) => (t as HTMLTextAreaElement).value))).toEqual({ url: `${site.baseUrl}/article`, engine: 'http' });
    expect(await page.$eval('#new-run', (el) => (el as HTMLElement).hidden)).toBe(false);
  });

  it('forms tell the truth: formats every item carries show ticked; a box ticked then unticked sends nothing', async () => {
    await go('#/runs?new=1');
    await page.waitForSelector('#run-scraper option[value="page-content"]');
    await page.select('#run-scraper', 'page-content');
    await page.waitForSelector('#run-in-formats-0');
    const formats = await page.$$eval('[data-field="formats"] input[type="checkbox"]', (bs) => bs.map((b) => [(b as HTMLInputElement).value, (b as HTMLInputElement).checked, (b as HTMLInputElement).disabled]));
    // markdown, text, links and metadata always come back: ticked (and fixed); json, changes and
    // the typed formats (product, product_list, article, job_posting) are the choice, unticked.
    expect(formats.map(([v]) => v)).toEqual(expect.arrayContaining(['markdown', 'text', 'links', 'metadata', 'json', 'product', 'job_posting']));
    for (const [v, checked, disabled] of formats) {
      if (['json', 'changes', 'product', 'product_list', 'article', 'job_posting'].includes(v as string)) expect([v, checked]).toEqual([v, false]);
      else expect([v, checked, disabled]).toEqual([v, true, true]);
    }
    expect(JSON.parse(await page.$eval('#run-input', (t) => (t as HTMLTextAreaElement).value)).formats).toBeUndefined();
    // A boolean with a default: its box shows the default; ticking then unticking sends nothing.
    await page.select('#run-scraper', 'site-map');
    await page.waitForSelector('#run-in-include_subdomains');
    expect(await page.$eval('#run-in-include_subdomains', (b) => (b as HTMLInputElement).checked)).toBe(false);
    expect(await textOf('[data-field="include_subdomains"]')).toContain('Default: off');
    await page.click('#run-in-include_subdomains');
    expect(JSON.parse(await page.$eval('#run-input', (t) => (t as HTMLTextAreaElement).value)).include_subdomains).toBe(true);
    await page.click('#run-in-include_subdomains');
    expect(JSON.parse(await page.$eval('#run-input', (t) => (t as HTMLTextAreaElement).value))).not.toHaveProperty('include_subdomains');
    await shots('runs-form-defaults');
  });

  it('a refused submit shows the error next to the field that caused it, not in the page banner', async () => {
    await go('#/runs?new=1');
    await page.waitForSelector('#run-scraper option[value="site-crawl"]');
    await page.select('#run-scraper', 'site-crawl');
    await page.waitForSelector('#run-in-start_url');
    await page.type('#run-in-start_url', `${site.baseUrl}/crawl`);
    await page.type('#run-in-include', '/(unclosed/'); // a regular expression that does not compile
    await page.click('#run-start');
    await page.waitForSelector('[data-field="include"] .field-error', { timeout: 15_000 });
    expect(await page.$eval('#run-in-include', (a) => a.getAttribute('aria-invalid'))).toBe('true');
    expect(await textOf('#new-run .form-error')).toMatch(/Not started/);
    expect(await page.$eval('#banner', (b) => (b as HTMLElement).hidden)).toBe(true);
    // The message sits within a screen of the button that was pressed.
    const gap = await page.evaluate(() => Math.abs(document.getElementById('run-start')!.getBoundingClientRect().top - document.querySelector('#new-run .form-error')!.getBoundingClientRect().top));
    expect(gap).toBeLessThan(400);
    await shots('runs-form-error-in-place');
  });

  it('the key form offers every scope the service has (secrets:use included)', async () => {
    await go('#/settings/keys');
    await page.waitForSelector('input[name="key-scopes"]');
    const offered = await page.$$eval('input[name="key-scopes"]', (bs) => bs.map((b) => (b as HTMLInputElement).value));
    expect(offered.sort()).toEqual([...SCOPES].sort());
  });

  it('source credentials: only secrets are masked', async () => {
    await go('#/settings/sources?source=reddit');
    await page.waitForSelector('#source-reddit input');
    const types = await page.$$eval('#source-reddit input', (is) => Object.fromEntries(is.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).type])));
    expect(types).toMatchObject({ client_id: 'text', username: 'text', client_secret: 'password', password: 'password' });
  });

  it('the audit log records page views, leaves reads out by default and filters by who, action and time', async () => {
    // A page view, and a change (a key created through the API by the tenant's admin key).
    await go(`#/runs/${articleRun}`);
    await waitText('#run-status', 'succeeded');
    const key = await svc.call('/dashboard/api/keys', { method: 'POST', json: { name: 'audit probe', scopes: ['runs:read'] } });
    expect(key.status).toBe(201);
    await svc.deps.audit.flush();
    const views = await svc.call(`/dashboard/api/audit?action=console.view&limit=200`);
    const view = (views.body.data as Array<{ resource: string; surface: string; principal: { email?: string } }>).find((r) => r.resource === `/runs/${articleRun}`);
    expect(view).toMatchObject({ surface: 'console', principal: { email: EMAIL } });
    // The console's own /v1 calls count as the console's.
    const reads = await svc.call(`/dashboard/api/audit?action=runs.get&principal=${encodeURIComponent(EMAIL)}&limit=5`);
    expect(reads.body.data[0]?.surface).toBe('console');
    // Default view: no reads (no page views, no GET calls); the key creation is there.
    await go('#/settings/audit');
    await waitText('table.data', 'keys.create');
    const actions = await page.$$eval('table.data tbody tr td:nth-child(4)', (tds) => tds.map((t) => (t as HTMLElement).innerText));
    expect(actions).not.toContain('Viewed a page');
    expect(actions.some((a) => /\.(get|list)$/.test(a))).toBe(false);
    await shots('audit-default');
    // Reads included, by this console user: the page view, named as a page.
    await page.click('#audit-reads');
    await page.type('#audit-email', EMAIL);
    await page.click('#audit-filter');
    await page.waitForFunction(() => location.hash.includes('reads=include'));
    await waitText('table.data', `Page /runs/${articleRun}`);
    // A time window that ended before anything happened: nothing.
    await go(`#/settings/audit?until=${encodeURIComponent('2020-01-01T00:00:00.000Z')}&reads=include`);
    await waitText('table.data', 'No audit records match');
    // The created key, found by its name in "Who".
    await go('#/settings/audit?reads=include');
    await page.waitForSelector(`#audit-who option[value="${key.body.key_id}"]`);
    expect(await page.$eval(`#audit-who option[value="${key.body.key_id}"]`, (o) => o.textContent)).toBe('key “audit probe”');
  });
});
