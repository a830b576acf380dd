import type { Page } from 'puppeteer-core';
import { CHROMIUM, launchConsoleBrowser, pageHelpers, type ConsoleBrowser, logIn } from './console-browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { startCanary, startFixtureSite, type Canary, type FixtureSite } from '../../fixtures/site/server.js';

// Settings > Domains (verify a host, then raise its limits) and a running crawl's live progress
// on the run detail page, in real headless Chromium.

const EMAIL = 'domains@example.com';
const PASSWORD = 'correct-horse-battery-staple';

let svc: TestService;
let site: FixtureSite;
let slow: FixtureSite;
let canary: Canary;

beforeAll(async () => {
  site = await startFixtureSite();
  // A slow site so a crawl is still running while the page watches it.
  slow = await startFixtureSite({ latencyMs: 300 });
  canary = await startCanary();
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port},127.0.0.1:${slow.port}` });
  await createUser(svc.deps.table, svc.tenantId, EMAIL, PASSWORD, new Date());
});
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
  await slow?.close();
  await canary?.close();
});

describe.skipIf(!CHROMIUM)('console: Settings > Domains and live crawl progress', () => {
  let cb: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    cb = await launchConsoleBrowser('gleaner-console-domains-');
    page = cb.page;
    page.on('dialog', (d) => void d.accept());
  });
  afterAll(async () => {
    await cb?.close();
  });

  const { go, waitText } = pageHelpers(() => page);
  const card = (host: string) => `section.domain[data-host="${host}"]`;

  it('logs in', async () => {
    await logIn(page, svc.url, EMAIL, PASSWORD);
  });

  it('adds a host, shows the token, verify URL and TXT record, and keeps limits disabled until verified', async () => {
    const host = `127.0.0.1:${site.port}`;
    await go('#/settings/domains');
    await page.waitForSelector('#domain-host', { visible: true });
    const tabs = await page.$$eval('nav.subnav a', (as) => as.map((a) => a.textContent));
    expect(tabs).toContain('Domains');
    await page.type('#domain-host', host);
    await page.click('#domain-add');
    await page.waitForSelector(card(host));
    expect(await page.$eval(card(host), (el) => el.getAttribute('data-status'))).toBe('pending');
    const token = await page.$eval(`${card(host)} .domain-token`, (el) => (el as HTMLInputElement).value);
    const api = (await svc.call('/dashboard/api/domains')).body.data[0];
    expect(token).toBe(api.token);
    expect(await page.$eval(`${card(host)} .domain-verify-url`, (el) => (el as HTMLInputElement).value)).toBe(`http://${host}/.well-known/gleaner-verification/${token}.txt`);
    expect(await page.$eval(`${card(host)} .domain-txt`, (el) => (el as HTMLInputElement).value)).toBe(`_gleaner.127.0.0.1 TXT "gleaner-verification=${token}"`);
    expect(await page.$eval(`${card(host)} fieldset.domain-limits-fields`, (el) => (el as HTMLFieldSetElement).disabled)).toBe(true);

    // Verify before the token is served: still pending, with the reason shown.
    await page.click(`${card(host)} .domain-verify`);
    await waitText(`${card(host)} .domain-error`, 'HTTP 404');
    expect(await page.$eval(card(host), (el) => el.getAttribute('data-status'))).toBe('pending');

    // Serve the token: verified, and the limits form opens.
    site.verificationTokens.set(token, token);
    await page.click(`${card(host)} .domain-verify`);
    await page.waitForSelector(`${card(host)}[data-status="verified"]`);
    expect(await page.$eval(`${card(host)} fieldset.domain-limits-fields`, (el) => (el as HTMLFieldSetElement).disabled)).toBe(false);
    await page.$eval(`${card(host)} .domain-concurrency`, (el) => ((el as HTMLInputElement).value = '24'));
    await page.$eval(`${card(host)} .domain-delay`, (el) => ((el as HTMLInputElement).value = '10'));
    await page.click(`${card(host)} .domain-save-limits`);
    await waitText(card(host), '24 in flight, 10 ms apart');
    expect((await svc.call('/dashboard/api/domains')).body.data[0].limits).toEqual({ concurrency: 24, delay_ms: 10 });
  });

  it('shows the egress guard refusing a host that is not allowed, without any connection', async () => {
    const host = `127.0.0.1:${canary.port}`;
    await page.$eval('#domain-host', (el) => ((el as HTMLInputElement).value = ''));
    await page.type('#domain-host', host);
    await page.click('#domain-add');
    await page.waitForSelector(card(host));
    await page.click(`${card(host)} .domain-verify`);
    await waitText(`${card(host)} .domain-error`, 'not a public address');
    expect(canary.connections()).toBe(0);
    // Delete it.
    await page.click(`${card(host)} .domain-delete`);
    await page.waitForFunction((sel) => !document.querySelector(sel), {}, card(host));
    expect((await svc.call('/dashboard/api/domains')).body.data.map((d: { host: string }) => d.host)).toEqual([`127.0.0.1:${site.port}`]);
  });

  it('run detail shows a running crawl\'s progress live (done, queued, failed) until it finishes', async () => {
    // include /** : the whole site, as before crawls started in a folder stayed in it (issue 41); many pages queue at once.
    const run = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${slow.baseUrl}/pages/1`, max_pages: 20, max_depth: 20, include: ['/**'] } } });
    expect(run.status).toBe(201);
    await go(`#/runs/${run.body.id}`);
    await page.waitForSelector('#run-progress');
    // While running: pages queued appear, and the done count moves on without a reload.
    await waitText('#run-progress', 'queued', 30_000);
    const first = await page.$eval('#run-progress', (el) => (el as HTMLElement).innerText);
    await page.waitForFunction((before) => {
      const t = document.querySelector('#run-progress')?.textContent ?? '';
      return t !== before && /queued/.test(t);
    }, { timeout: 30_000 }, first);
    // Until the crawl knows its total, done shows against the run's max_pages (and no ETA).
    expect(first).toMatch(/^\d+ \/ 20 max pages done · \d+ queued · \d+ failed · \d+ items?/);
    expect(first).not.toContain('left');
    await waitText('#run-status', 'succeeded', 60_000);
    const done = await page.$eval('#run-progress', (el) => (el as HTMLElement).innerText);
    expect(done).toMatch(/^20 (\/ \d+ )?pages done/);
    expect(done).not.toContain('queued');
  });

  it('renders without a script error or CSP violation', () => {
    expect(cb.pageErrors).toEqual([]);
    expect(cb.cspViolations).toEqual([]);
  });
});
