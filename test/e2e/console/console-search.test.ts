import type { Page } from 'puppeteer-core';
import { mkdirSync } from 'node:fs';
import { CHROMIUM, SHOTS, launchConsoleBrowser, pageHelpers, type ConsoleBrowser, logIn } from './console-browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { FAKE_KEYS, startFakeSearch, type FakeSearch } from '../../fixtures/fake-search/fake-search.js';

// The console's Search page (issue 40) in real headless Chromium: set up a provider with
// save-and-test, run a search, see allowed, denied and scraped results, open a result's content.

const EMAIL = 'search@example.com';
const PASSWORD = 'correct-horse-battery-staple';

let svc: TestService;
let site: FixtureSite;
let tavily: FakeSearch;

beforeAll(async () => {
  [site, tavily] = await Promise.all([startFixtureSite(), startFakeSearch('tavily')]);
  svc = await startTestService({ GLEANER_SEARCH_TAVILY_BASE_URL: tavily.baseUrl, GLEANER_EGRESS_ALLOW: [site.baseUrl, tavily.baseUrl].map((u) => new URL(u).host).join(',') });
  await createUser(svc.deps.table, svc.tenantId, EMAIL, PASSWORD, new Date());
  tavily.results = [
    { url: `${site.baseUrl}/article`, title: 'The article', snippet: 'an article' },
    { url: `${site.baseUrl}/private/one`, title: 'Private page', snippet: 'robots says no' },
  ];
});
afterAll(async () => {
  await svc?.destroy();
  await Promise.all([site?.close(), tavily?.close()]);
});

describe.skipIf(!CHROMIUM)('console: Search page in headless Chromium', () => {
  let cb: ConsoleBrowser;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    cb = await launchConsoleBrowser('gleaner-console-search-');
    ({ page, pageErrors } = cb);
  });
  afterAll(async () => {
    await cb?.close();
  });

  const { go, textOf, waitText, setValue, shots } = pageHelpers(() => page);

  it('sets up a provider with save-and-test; the key is never shown again', async () => {
    await logIn(page, svc.url, EMAIL, PASSWORD);
    await go('#/search');
    await waitText('main', 'No search provider is configured yet');
    await page.click('a[href="#/search/providers"]');
    await page.waitForSelector('#provider-tavily form');
    await setValue('#provider-tavily input[name="api_key"]', FAKE_KEYS.tavily);
    await page.click('#provider-tavily button[type="submit"]');
    await waitText('#provider-tavily', 'Test search succeeded');
    expect(await textOf('#provider-tavily')).toContain('configured');
    expect(await page.content()).not.toContain(FAKE_KEYS.tavily);
  });

  it('runs a search: allowed, denied and scraped results, and a result\'s content', async () => {
    await go('#/search');
    await page.waitForSelector('form[aria-label="Search the web"]');
    await setValue('input[name="query"]', 'fixture article');
    await page.click('form[aria-label="Search the web"] button[type="submit"]');
    await waitText('.search-results', '2 results from Tavily: 1 allowed, 1 denied, 1 scraped', 30_000);
    const rows = await page.$$eval('.search-results tbody tr', (trs) => trs.map((tr) => (tr as HTMLElement).innerText));
    expect(rows[0]).toMatch(/The article[\s\S]*allowed[\s\S]*scraped 200/);
    expect(rows[1]).toMatch(/Private page[\s\S]*denied[\s\S]*robots_disallowed[\s\S]*not fetched/);
    await page.click('.search-results button.btn-small');
    await waitText('section[aria-label="Result content"]', 'The article headline');
    // Both widths fit, no accessibility violations (ours and axe's).
    await shots('search');
    await go('#/search/providers');
    await page.waitForSelector('#provider-searxng form');
    await shots('search-providers');
    expect(pageErrors).toEqual([]);
  });
});
