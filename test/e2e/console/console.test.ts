import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { CHROMIUM, launchConsoleBrowser, pageHelpers, type ConsoleBrowser } from './console-browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { putResultFile, keyTimestamp } from '../../../functions/core/storage/result-files.js';
import { newId } from '../../../functions/core/ids.js';
import { CONSOLE_CSP } from '../../../functions/http/console-get.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { startFakeBucket, type FakeBucket } from '../../fixtures/s3-bucket.js';

const EXPECTED_CSP_PREFIX = "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'";

const EMAIL = 'ops@example.com';
const PASSWORD = 'correct-horse-battery-staple';

let svc: TestService;
let site: FixtureSite;
let bucket: FakeBucket;

beforeAll(async () => {
  [site, bucket] = await Promise.all([startFixtureSite(), startFakeBucket()]);
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: [`127.0.0.1:${site.port}`, bucket.hostPort].join(',') });
  await createUser(svc.deps.table, svc.tenantId, EMAIL, PASSWORD, new Date());
});
afterAll(async () => {
  await svc?.destroy();
  await Promise.all([site?.close(), bucket?.close()]);
});

/** A GET with the path sent exactly as written (fetch and URL would normalise `..`). */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('console files', () => {
  it('serves index.html at / with a strict CSP, nosniff and no-cache', async () => {
    const r = await rawGet('/');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(String(r.headers['content-security-policy']).startsWith(EXPECTED_CSP_PREFIX)).toBe(true);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['x-request-id']).toBeTruthy();
    expect(r.body).toContain('<script type="module" src="/console/app.js"></script>');
    // No inline script or style: the CSP would block them.
    expect(r.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(r.body).not.toMatch(/\sstyle=/);
  });

  it('serves assets with their content types and ETag revalidation', async () => {
    const js = await rawGet('/console/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-security-policy']).toBe(CONSOLE_CSP);
    const css = await rawGet('/console/style.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const page = await rawGet('/console/pages/storage.js');
    expect(page.status).toBe(200);
    const svg = await rawGet('/console/favicon.svg');
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    const etag = String(js.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const again = await rawGet('/console/app.js', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers unknown files with a 404 in the API error shape', async () => {
    const r = await rawGet('/console/nope.js');
    expect(r.status).toBe(404);
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({ code: 'not_found', message: expect.any(String), request_id: expect.any(String) });
    expect(r.headers['content-type']).toMatch(/^application\/json/);
  });

  it.each([
    '/console/../package.json',
    '/console/%2e%2e/package.json',
    '/console/%2E%2E/package.json',
    '/console/..%2fpackage.json',
    '/console/..%2Fpackage.json',
    '/console/%2e%2e%2fpackage.json',
    '/console/%252e%252e%252fpackage.json',
    '/console/..%5cpackage.json',
    '/console/pages/../../package.json',
    '/console/pages/%2e%2e/%2e%2e/package.json',
    '/console/.%2e/functions/routes.ts',
    '/console/%2fetc%2fpasswd',
    '/console//etc/passwd',
    '/console/app.js%00.css',
    '/console/.env',
    '/console/lib/../../README.md',
  ])('refuses traversal %s with 404', async (path) => {
    const r = await rawGet(path);
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('"name": "gleaner"');
    expect(r.body).not.toContain('export const routes');
    expect(() => JSON.parse(r.body)).not.toThrow();
  });

  it('a raw backslash in the path is refused before routing (the HTTP server answers 400)', async () => {
    const r = await rawGet('/console/..\\package.json');
    expect([400, 404]).toContain(r.status);
    expect(r.body).not.toContain('"name": "gleaner"');
  });
});

describe.skipIf(!CHROMIUM)('console in headless Chromium', () => {
  let cb: ConsoleBrowser;
  let browser: Browser;
  let page: Page;
  let downloadDir: string;
  let pageErrors: string[];
  let cspViolations: string[];

  beforeAll(async () => {
    downloadDir = mkdtempSync(join(tmpdir(), 'gleaner-console-dl-'));
    cb = await launchConsoleBrowser('gleaner-console-profile-');
    ({ browser, page, pageErrors, cspViolations } = cb);
    const cdp = await browser.target().createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloadDir, eventsEnabled: true });
  });
  afterAll(async () => {
    await cb?.close();
    if (downloadDir) rmSync(downloadDir, { recursive: true, force: true });
  });

  const { go, textOf, waitText, clickLive } = pageHelpers(() => page);

  it('shows the login page, logs in with email and password and holds only the session cookie', async () => {
    await page.goto(`${svc.url}/`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('#login-email', { visible: true });
    expect(await page.$eval('#nav', (n) => (n as HTMLElement).hidden)).toBe(true);

    // A wrong password shows the API error in the banner, not a blank page.
    await page.type('#login-email', EMAIL);
    await page.type('#login-password', 'wrong-password');
    await page.click('#login-submit');
    await page.waitForSelector('#banner:not([hidden])', { visible: true });
    expect(await textOf('#banner')).toContain('Email or password is wrong');
    expect(await textOf('#banner')).toMatch(/request id\s+req_/);

    await page.$eval('#login-password', (el) => {
      (el as HTMLInputElement).value = '';
    });
    await page.type('#login-password', PASSWORD);
    await page.click('#login-submit');
    await page.waitForFunction(() => location.hash.startsWith('#/runs'));
    await page.waitForSelector('#nav', { visible: true });
    expect(await textOf('#who-label')).toContain(EMAIL);

    // Issue 9, finding 8: no API key is created for the console and none is kept in the tab.
    const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem('gleaner.console.auth') ?? 'null'));
    expect(stored).toEqual({ mode: 'session', email: EMAIL, tenant_id: svc.tenantId });
    const keys = await svc.call('/dashboard/api/keys');
    expect(keys.body.data.filter((k: { name: string }) => k.name.startsWith('console session'))).toEqual([]);

    // The Runs page loaded scrapers and built the input form from page-content's input schema;
    // the JSON tab holds what the form holds (nothing filled yet: the service applies defaults).
    // The list comes first: the form opens with "New run" (rendered once the Runs page loaded).
    await page.waitForSelector('#runs-new', { visible: true });
    await page.click('#runs-new');
    await page.waitForSelector('#run-scraper option[value="page-content"]');
    await page.waitForSelector('#run-in-url');
    expect(await page.$eval('#run-in-url', (el) => [(el as HTMLInputElement).type, el.getAttribute('aria-required')])).toEqual(['url', 'true']);
    expect(await textOf('#run-form-fields')).toContain('Default (auto)');
    const input = await page.$eval('#run-input', (el) => (el as HTMLTextAreaElement).value);
    expect(JSON.parse(input)).toEqual({});
  });

  it('creates an API key (plaintext shown once) and lists it', async () => {
    await go('#/settings/keys');
    await page.waitForSelector('#key-name', { visible: true });
    await page.type('#key-name', 'ci-key');
    await page.click('input[name="key-scopes"][value="storage:read"]');
    await page.click('input[name="key-scopes"][value="queries:read"]');
    await page.type('#key-expiry', '30');
    await page.click('#key-create');
    await page.waitForSelector('#key-plaintext input', { visible: true });
    const plaintext = await page.$eval('#key-plaintext input', (el) => (el as HTMLInputElement).value);
    expect(plaintext).toMatch(/^glr_[0-9A-Za-z]{28,}$/);
    await waitText('#keys-table', 'ci-key');
    // The key works with exactly its scopes.
    expect((await svc.call('/v1/storage', { key: plaintext })).status).toBe(200);
    expect((await svc.call('/v1/jobs', { key: plaintext })).status).toBe(403);
  });

  it('a source without credentials cannot be ticked; a query that failed for it (from the API) shows its error', async () => {
    await go('#/queries');
    await page.waitForSelector('#query-prompt', { visible: true });
    // Issue 29: no credentials, no tick (the link beside it says where to add them).
    await page.waitForFunction(() => (document.querySelector('input[name="query-sources"][value="x"]') as HTMLInputElement | null)?.disabled === true);
    expect(await page.$eval('input[name="query-sources"][value="x"]', (b) => b.closest('label')?.parentElement?.querySelector('a.no-creds')?.textContent)).toContain('no credentials');
    const q = await svc.call('/v1/queries', { method: 'POST', json: { prompt: 'what are people saying about "acme shoes"', sources: ['x'], limit: 10 } });
    expect(q.status).toBe(202);
    await go(`#/queries/${q.body.query_id}`);
    await page.waitForSelector('#query-error', { visible: true, timeout: 30_000 });
    const err = await textOf('#query-error');
    expect(err).toContain('Query failed');
    expect(err).toContain('x credentials are missing');
    expect(await textOf('#query-status')).toContain('failed');
  });

  it('Storage: lists a result file, previews its JSON and downloads it', async () => {
    const queryId = newId('qry');
    const created = new Date();
    const key = `${queryId}_${keyTimestamp(created)}.json`;
    const result = {
      plan: { keywords: ['acme', 'shoes'], phrases: [], hashtags: [], mentions: [], exclude: [], since: '2026-01-01T00:00:00.000Z', until: '2026-01-08T00:00:00.000Z' },
      items: [{ source: 'x', id: '1', url: 'https://x.com/a/status/1', author: 'alice', text: 'I love <b>acme</b> shoes & "quotes"', created_at: '2026-01-02T10:00:00.000Z', metrics: { likes: 3 } }],
      by_source: { x: { status: 'ok', count: 1 } },
      summary: { total: 1, by_source: { x: 1 }, top_terms: ['acme'] },
    };
    await putResultFile(svc.deps.table, svc.deps.blobs, svc.tenantId, { key, query_id: queryId, job_id: null, created_at: created.toISOString() }, result);

    // SPEC.md 1: "open Storage in the top navigation, select a file to preview it, use the Download JSON button".
    // Storage is one area with the runs' datasets (Data & Storage), its files on the Stored files tab.
    await go('#/runs');
    await page.waitForSelector('#nav a[data-section="data"]', { visible: true });
    await page.click('#nav a[data-section="data"]');
    await page.waitForFunction(() => location.hash === '#/datasets' && document.querySelector('#nav a[data-section="data"]')?.getAttribute('aria-current') === 'page');
    expect(await page.$eval('#nav a[data-section="data"]', (a) => [a.textContent, a.getAttribute('aria-current')])).toEqual(['Data & Storage', 'page']);
    await page.waitForSelector('nav.subnav a[href="#/datasets?kind=files"]', { visible: true });
    await page.click('nav.subnav a[href="#/datasets?kind=files"]');
    const fileButton = `button.file[data-key="${key}"]`;
    await page.waitForSelector(fileButton, { visible: true });
    await page.click(fileButton);
    // A file holding a list of records previews as a table first; JSON is the other tab.
    await page.waitForSelector('#storage-preview table.data', { visible: true });
    expect(await textOf('#storage-preview table.data')).toContain('I love <b>acme</b> shoes');
    await page.click('#storage-preview [role="tab"]:nth-child(2)');
    await page.waitForSelector('#storage-preview .json-tree', { visible: true });
    expect(await textOf('#storage-preview-title')).toBe(key);
    // The markup in the data stays text.
    await waitText('#storage-preview .json-tree', 'I love <b>acme</b> shoes');
    expect(await page.$$eval('#storage-preview b', (b) => b.length)).toBe(0);
    const raw = await page.$eval('#storage-preview pre.json-raw', (el) => el.textContent ?? '');
    expect(JSON.parse(raw)).toEqual(result);
    expect(await page.$eval(fileButton, (b) => b.getAttribute('aria-pressed'))).toBe('true');

    await page.screenshot({ path: '/tmp/console-storage.png', fullPage: true });

    await page.click('#storage-download');
    const file = join(downloadDir, key);
    const deadline = Date.now() + 15_000;
    while (!existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(file), `downloaded files: ${readdirSync(downloadDir).join(', ')}`).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(result);
    await waitText('#notice', `Downloaded ${key}`);

    // A query's "Stored result" link opens the file directly.
    await go('#/runs');
    await page.waitForSelector('#run-in-url');
    await go(`#/storage?key=${encodeURIComponent(key)}`);
    await waitText('#storage-preview-title', key);
    await page.waitForSelector('#storage-preview table.data', { visible: true });

    // Narrow window: still usable (the layout stacks).
    await page.setViewport({ width: 800, height: 900 });
    await page.screenshot({ path: '/tmp/console-storage-800.png', fullPage: true });
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('Runs: starts a run from the form, follows it to succeeded, shows results and exports CSV', async () => {
    await go('#/runs?new=1');
    await page.waitForSelector('#run-scraper option[value="page-content"]');
    await page.select('#run-scraper', 'page-content');
    await page.$eval('#run-input', (el, url) => {
      (el as HTMLTextAreaElement).value = JSON.stringify({ url, engine: 'http' });
    }, `${site.baseUrl}/article`);
    await page.click('form[aria-label="Start a run"] button[type="submit"]');
    await page.waitForFunction(() => /^#\/runs\/run_/.test(location.hash));
    const runId = await page.evaluate(() => decodeURIComponent(location.hash.split('/')[2]!));
    await waitText('#run-status', 'succeeded', 60_000);
    await waitText('#run-results', `${site.baseUrl}/article`);
    // A row opens the item: its Markdown, rendered.
    await clickLive('#run-items tbody tr.clickable td:nth-child(2)');
    await waitText('dialog.item-detail #item-markdown', 'The article headline');
    await page.keyboard.press('Escape');
    // Export CSV asks which columns (all ticked: the service's default set).
    await page.click('#run-export-csv');
    await page.click('#csv-download');
    const file = join(downloadDir, `${runId}.csv`);
    const deadline = Date.now() + 15_000;
    while (!existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(file, 'utf8')).toContain(`${site.baseUrl}/article`);
    // The list shows it.
    await go('#/runs');
    await waitText('table.data', runId);
  });

  it('Settings > Storage: Save and test against an S3-compatible bucket, and a wrong key id shows the error', async () => {
    await go('#/settings/storage');
    await page.waitForSelector('#sync-endpoint', { visible: true });
    await page.type('#sync-endpoint', bucket.endpoint);
    await page.type('#sync-bucket', bucket.bucket);
    await page.type('#sync-access-key-id', bucket.accessKeyId);
    await page.type('#sync-secret', 'customer-secret-value');
    await page.click('#sync-path-style');
    await page.click('#sync-save-test');
    await waitText('#sync-result', 'Saved and tested');
    expect(await textOf('#sync-result')).toContain(bucket.bucket);
    expect((await bucket.keys('results/.gleaner-verify-')).length).toBe(1);
    // The secret is never shown back; the field asks only for a replacement.
    expect(await page.$eval('#sync-secret', (el) => (el as HTMLInputElement).value)).toBe('');
    expect(await page.$eval('#sync-secret', (el) => (el as HTMLInputElement).placeholder)).toContain('stored');
    expect(await page.content()).not.toContain('customer-secret-value');

    // A new key id needs the secret again; the form says so before the API has to.
    await page.$eval('#sync-access-key-id', (el) => {
      (el as HTMLInputElement).value = '';
    });
    await page.type('#sync-access-key-id', 'NOT-A-KEY');
    expect(await page.$eval('#sync-secret', (el) => (el as HTMLInputElement).required)).toBe(true);
    await page.type('#sync-secret', 'another-secret');
    await page.click('#sync-save-test');
    await waitText('#sync-result', 'the test failed');
    expect(await textOf('#sync-result')).toContain('InvalidAccessKeyId');
    await page.waitForSelector('#banner:not([hidden])', { visible: true });
    // Issue 41: the service's code is kept on hover, not in the words a person reads.
    expect(await page.$eval('#banner .banner-message', (e) => e.getAttribute('title'))).toBe('code bucket_test_failed');
    expect(await textOf('#banner')).not.toContain('bucket_test_failed');

    // The failed save reloads the settings once its banner is up: type only after it finished.
    await page.waitForSelector('#sync-save-test:not([disabled])');
    await page.type('#retention-days', '30');
    await page.click('#retention-save');
    await waitText('#notice', 'Retention saved');
    expect((await svc.call('/dashboard/api/settings/storage')).body.retention_days).toBe(30);
  });

  it('shows a refused job next to the schedule that caused it, with the request id', async () => {
    await go('#/jobs');
    await page.waitForSelector('#jobs-new');
    await page.click('#jobs-new');
    await page.waitForSelector('#job-label', { visible: true });
    await page.type('#job-label', 'Broken schedule');
    await page.select('#job-scraper', 'page-content');
    await page.type('#job-in-url', `${site.baseUrl}/article`);
    await page.$eval('#job-schedule', (el) => {
      (el as HTMLInputElement).value = 'not a cron';
    });
    await page.click('#job-create');
    // Issue 29: the error is where the person is looking, under the field it names.
    await page.waitForSelector('[data-field="schedule"] .field-error', { visible: true });
    expect(await page.$eval('#job-schedule', (i) => i.getAttribute('aria-invalid'))).toBe('true');
    expect(await textOf('#new-job .form-error')).toMatch(/request id req_/);
    expect(await page.$eval('#banner', (b) => (b as HTMLElement).hidden)).toBe(true);
    // The page is still there.
    expect(await page.$('#job-label')).not.toBeNull();
  });

  it('renders every page without a script error', async () => {
    for (const [hash, sel] of [
      ['#/runs?new=1', '#run-in-url'],
      ['#/jobs?new=1', '#job-label'],
      ['#/webhooks', '#webhook-url'],
      ['#/settings/storage', '#sync-endpoint'],
      ['#/settings/sources', '.source form'],
      ['#/settings/policy', '#policy-domains'],
      ['#/settings/audit', '#audit-action'],
    ] as const) {
      await go(hash);
      await page.waitForSelector(sel, { visible: true });
    }
    await page.waitForFunction(() => document.querySelectorAll('table.data tbody tr:not(.empty)').length > 0);
    // Newest first (one page of 50): the pages just visited are the latest records. Audit
    // records are written after the response, so the policy page's own record may land just
    // after the audit page read the list: open the audit page again until it is there (bounded).
    // Reads (GET calls such as this one) are out of the audit page's default view: ask for them.
    for (let i = 0; i < 20 && !(await textOf('table.data')).includes('settings.target-policy.get'); i++) {
      await new Promise((r) => setTimeout(r, 250));
      await go('#/runs?new=1');
      await page.waitForSelector('#run-in-url', { visible: true });
      await go('#/settings/audit?reads=include');
      await page.waitForFunction(() => document.querySelectorAll('table.data tbody tr:not(.empty)').length > 0);
    }
    expect(await textOf('table.data')).toContain('settings.target-policy.get');
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it('logs out: ends the cookie session (the console never held a key); an API key also logs in', async () => {
    // Issue 9, finding 8: after a password login the tab holds no secret, only the HttpOnly cookie.
    const stored = await page.evaluate(() => sessionStorage.getItem('gleaner.console.auth') ?? '');
    expect(stored).not.toMatch(/glr_|api_key/);
    expect(await page.evaluate(() => document.cookie)).not.toContain('gleaner_session');
    const keys = await svc.call('/dashboard/api/keys');
    expect(keys.body.data.filter((k: { name: string }) => k.name.startsWith('console session'))).toEqual([]);
    await page.click('#logout');
    await page.waitForSelector('#login-email', { visible: true });
    expect(await page.evaluate(() => sessionStorage.getItem('gleaner.console.auth'))).toBeNull();
    expect(await page.evaluate(() => fetch('/dashboard/api/session').then((r) => r.status))).toBe(401);

    await page.type('#login-key', svc.key);
    await page.click('#login-key-submit');
    await page.waitForFunction(() => location.hash.startsWith('#/runs'));
    await page.waitForSelector('#nav', { visible: true });
    expect(await textOf('#who-label')).toContain('API key');
    await page.click('#logout');
    await page.waitForSelector('#login-email', { visible: true });
    // The pasted key is only forgotten, not revoked.
    expect((await svc.call('/v1/tenant')).status).toBe(200);
  });
});
