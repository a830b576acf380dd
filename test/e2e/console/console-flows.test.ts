import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchConsoleBrowser, pageHelpers, SHOTS, type ConsoleBrowser, logIn } from './console-browser.js';
import { a11yViolations, axeViolations } from './console-a11y.js';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { putResultFile, keyTimestamp } from '../../../functions/core/storage/result-files.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';

// Issue 20, the console as people work in it: readable results (item panel, sanitised Markdown,
// copy, column picker, scroll cue), forms from input schemas with a JSON tab in sync, names
// before ids, live lists and results while a run runs, right states, one Data & Storage area,
// social credentials marks, monitoring ranges, the Studio editor's completion; every page at
// 1280 and 900 px with screenshots (test-artifacts/console/) and an accessibility check.

const EMAIL = 'flows@example.com';
const PASSWORD = 'correct-horse-battery-staple';

let svc: TestService;
let site: FixtureSite;
let slow: FixtureSite;
let articleRun: string;
let missingRun: string;
let runbookRun: string;
let fileKey: string;
const PROMPT = 'what do people say about acme shoes';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  site = await startFixtureSite();
  // Every request to this one waits: a paginated run takes seconds, long enough to watch it run
  // (2.5 s: at 1.5 s a run on a loaded clone ended before the page had shown it running).
  slow = await startFixtureSite({ latencyMs: 2500 });
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port},127.0.0.1:${slow.port}` });
  await createUser(svc.deps.table, svc.tenantId, EMAIL, PASSWORD, new Date());
  const start = async (scraper_id: string, input: Record<string, unknown>) => {
    const r = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id, input } });
    expect(r.status).toBe(201);
    expect((await svc.call(`/v1/runs/${r.body.id}?wait=30`)).body.status).toBe('succeeded');
    return r.body.id as string;
  };
  articleRun = await start('page-content', { url: `${site.baseUrl}/article`, engine: 'http' });
  missingRun = await start('page-content', { url: `${site.baseUrl}/no-such-page`, engine: 'http' });
  const rb = await svc.call('/v1/runbooks', {
    method: 'POST',
    json: { name: 'Fixture headline', published: true, input_schema: { type: 'object' }, steps: [{ action: 'goto', url: `${site.baseUrl}/article` }, { action: 'extract', fields: { headline: { selector: 'article h1' } } }] },
  });
  expect(rb.status).toBe(201);
  runbookRun = await start(rb.body.id, {});
  // A stored query result named by its prompt (the query fails fast without credentials; its record stays).
  const q = await svc.call('/v1/queries', { method: 'POST', json: { prompt: PROMPT, sources: ['reddit'], limit: 10 } });
  expect(q.status).toBe(202);
  fileKey = `${q.body.query_id}_${keyTimestamp(new Date())}.json`;
  await putResultFile(svc.deps.table, svc.deps.blobs, svc.tenantId, { key: fileKey, query_id: q.body.query_id, job_id: null, created_at: new Date().toISOString() },
    { items: [{ source: 'reddit', author: 'alice', text: 'I like <b>acme</b>', likes: 3 }, { source: 'reddit', author: 'bob', text: 'meh', likes: 0 }] });
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
  await slow?.close();
});

describe.skipIf(!CHROMIUM)('console flows (issue 20) in headless Chromium', () => {
  let cb: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    cb = await launchConsoleBrowser('gleaner-console-flows-');
    page = cb.page;
    page.on('dialog', (d) => void d.accept());
    await cb.browser.defaultBrowserContext().overridePermissions(svc.url, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  });
  afterAll(async () => {
    await cb?.close();
  });

  const { go, textOf, openDetails, waitText, setValue, noHorizontalScroll, clickLive } = pageHelpers(() => page);

  it('logs in with email and password', async () => {
    await logIn(page, svc.url, EMAIL, PASSWORD);
  });

  it('Runs list: target URL and scraper or runbook name first, ids second with copy, durations', async () => {
    await go('#/runs');
    await waitText('table.data', `${site.baseUrl}/article`);
    const row = (id: string) => page.$eval(`a[href="#/runs/${id}"]`, (a) => (a.closest('tr') as HTMLElement).innerText);
    const article = await row(articleRun);
    expect(article).toContain(`${site.baseUrl}/article`);
    expect(article).toContain('Page content');
    expect(article).toContain(articleRun);
    expect(article).toMatch(/\d+(\.\d+)? ?(ms|s)\b/);
    // A runbook run shows the runbook's name, not its rbk_ id.
    expect(await row(runbookRun)).toContain('Fixture headline');
    expect(await page.$eval(`a[href="#/runs/${articleRun}"]`, (a) => a.closest('tr')!.querySelector('button.copy-id')!.getAttribute('aria-label'))).toBe(`Copy run id ${articleRun}`);
    await page.$eval(`a[href="#/runs/${articleRun}"]`, (a) => (a.closest('tr')!.querySelector('button.copy-id') as HTMLButtonElement).click());
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(articleRun);
  });

  it('Start a run from the schema form (JSON tab in sync both ways); results appear while it runs; the list follows it live', async () => {
    await go('#/runs?new=1');
    await page.waitForSelector('#run-scraper option[value="css-extract"]');
    await page.select('#run-scraper', 'css-extract');
    await page.waitForSelector('#run-in-url');
    // Form -> JSON: a URL, a map of fields (nested objects with a boolean), an enum, a string.
    await page.type('#run-in-url', `${slow.baseUrl}/products`);
    // The map of fields starts with one example entry (title: h1) from the schema; rename it.
    expect(await page.$$('[data-field="fields"] .map-row')).toHaveLength(1);
    await setValue('[data-field="fields"] .map-row input[placeholder="name"]', 'name');
    await setValue('[data-field="fields.*.selector"] input', '.name');
    await page.type('#run-in-item_selector', '.product');
    await page.type('#run-in-next_page', 'a.next');
    const engineIndex = await page.$eval('#run-in-engine', (s) => Array.from((s as HTMLSelectElement).options).find((o) => o.textContent === 'http')!.value);
    await page.select('#run-in-engine', engineIndex);
    const fromForm = JSON.parse(await page.$eval('#run-input', (t) => (t as HTMLTextAreaElement).value));
    expect(fromForm).toEqual({ url: `${slow.baseUrl}/products`, fields: { name: { selector: '.name' } }, item_selector: '.product', next_page: 'a.next', engine: 'http' });
    // JSON -> form: max_pages typed in the JSON tab shows in the form's number field.
    await page.click('[role="tab"]::-p-text(JSON)');
    await setValue('#run-input', JSON.stringify({ ...fromForm, max_pages: 3 }, null, 2));
    await page.waitForFunction(() => (document.getElementById('run-in-max_pages') as HTMLInputElement).value === '3');
    expect(await page.$eval('#run-in-max_pages', (i) => [i.getAttribute('min'), i.getAttribute('max')])).toEqual(['1', '100']);
    await page.screenshot({ path: join(SHOTS, 'runs-form-json-1280.png'), fullPage: true });
    await page.click('[role="tab"]::-p-text(Form)');
    await page.screenshot({ path: join(SHOTS, 'runs-form-1280.png'), fullPage: true });
    await page.click('#run-start');
    await page.waitForFunction(() => /^#\/runs\/run_/.test(location.hash));
    const id = await page.evaluate(() => decodeURIComponent(location.hash.split('/')[2]!));
    // Items show while the run is still running (stored page by page as they come): status, items
    // and the note read in one look at the page, as the run may end right after it.
    await page.waitForFunction(
      () => document.querySelector('#run-status')?.textContent?.includes('running') && document.querySelectorAll('#run-items tbody tr.clickable').length > 0 && document.querySelector('#run-results-note')?.textContent?.includes('still running'),
      { timeout: 30_000 },
    );
    await page.screenshot({ path: join(SHOTS, 'run-while-running-1280.png'), fullPage: true });
    await waitText('#run-status', 'succeeded', 60_000);
    await page.waitForFunction(() => document.querySelectorAll('#run-items tbody tr.clickable').length === 12);
    expect(await page.$eval('#notice', (n) => (n as HTMLElement).hidden)).toBe(true);
    expect(await textOf('#run-progress')).toContain('12 items');
    // The runs list, left open on another run's start, follows this one to succeeded without a reload.
    const other = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input: { url: `${slow.baseUrl}/about`, engine: 'http' } } });
    await go('#/runs');
    await page.waitForSelector(`a[href="#/runs/${other.body.id}"]`);
    await page.waitForFunction((rid) => (document.querySelector(`a[href="#/runs/${rid}"]`)?.closest('tr') as HTMLElement | null)?.innerText.includes('succeeded'), { timeout: 60_000 }, other.body.id);
    expect(id).toMatch(/^run_/);
  });

  it('Item panel: rendered Markdown is sanitised, with Markdown, Text and JSON tabs and copy', async () => {
    await go(`#/runs/${articleRun}`);
    await page.waitForSelector('#run-items tbody tr.clickable');
    await clickLive('#run-items tbody tr.clickable td:nth-child(2)');
    await page.waitForSelector('dialog.item-detail[open] #item-markdown');
    const md = await page.$eval('#item-markdown', (el) => ({
      headings: el.querySelectorAll('h1, h2, h3').length,
      scripts: el.querySelectorAll('script, iframe, object, embed, img, style').length,
      handlers: Array.from(el.querySelectorAll('*')).filter((e) => Array.from(e.attributes).some((a) => a.name.startsWith('on') || a.name === 'style')).length,
      links: Array.from(el.querySelectorAll('a')).map((a) => [a.getAttribute('href') ?? '', a.getAttribute('target'), a.getAttribute('rel') ?? '']),
    }));
    expect(md.headings).toBeGreaterThan(0);
    expect(md.scripts).toBe(0);
    expect(md.handlers).toBe(0);
    for (const [href, target, rel] of md.links) {
      expect(href).toMatch(/^https?:/);
      expect(target).toBe('_blank');
      expect(rel).toContain('noopener');
    }
    await page.screenshot({ path: join(SHOTS, 'item-panel-1280.png') });
    const results = await svc.call(`/v1/runs/${articleRun}/results`);
    await page.click('dialog.item-detail [role="tabpanel"]:not([hidden]) button::-p-text(Copy Markdown)');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(results.body.data[0].data.markdown);
    await page.click('dialog.item-detail [role="tab"]::-p-text(JSON)');
    await page.click('dialog.item-detail [role="tabpanel"]:not([hidden]) button::-p-text(Copy JSON)');
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(results.body.data[0]);
    expect(await a11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('dialog.item-detail'));

    // The renderer on hostile Markdown: raw HTML stays text, only http(s) links, images become links.
    // (A string expression: the test runner would rewrite a dynamic import inside a function.)
    const hostile = (await page.evaluate(`(async () => {
      const { renderMarkdown } = await import('/console/lib/markdown.js');
      const box = document.createElement('div');
      box.append(renderMarkdown('# T\\n<script>alert(1)</script>\\n<img src=x onerror=alert(2)>\\n[a](javascript:alert(3)) [b](data:text/html,x) [c](https://example.com/ok)\\n![i](https://example.com/i.png)\\n\\n| x | y |\\n|---|---|\\n| <b>1</b> | 2 |'));
      return {
        tags: Array.from(box.querySelectorAll('*')).map((e) => e.tagName.toLowerCase()),
        hrefs: Array.from(box.querySelectorAll('a')).map((a) => a.getAttribute('href')),
        text: box.textContent,
      };
    })()`)) as { tags: string[]; hrefs: string[]; text: string };
    expect(hostile.tags).not.toContain('script');
    expect(hostile.tags).not.toContain('img');
    expect(hostile.tags).not.toContain('b');
    expect(hostile.tags).toContain('table');
    expect(hostile.hrefs).toEqual(['https://example.com/ok', 'https://example.com/i.png']);
    expect(hostile.text).toContain('<script>alert(1)</script>');
  });

  it('Column picker and a visible scroll cue on a wide table (900 px)', async () => {
    await page.setViewport({ width: 900, height: 900 });
    await go(`#/runs/${articleRun}`);
    await page.waitForSelector('#run-items tbody tr.clickable');
    const heads = await page.$$eval('#run-items thead th', (ths) => ths.map((t) => t.textContent));
    expect(heads.slice(0, 3)).toEqual(['URL', 'Title', 'HTTP']);
    expect(heads.at(-1)).toBe('Item');
    expect(heads).not.toContain('markdown');
    await openDetails('#run-items .col-picker summary');
    for (const c of await page.$$eval('#run-items .col-picker input:not(:checked)', (is) => is.map((i) => (i as HTMLInputElement).value))) await page.click(`#run-items .col-picker input[value="${c}"]`);
    await page.waitForSelector('#run-items .scroll-hint:not([hidden])', { visible: true });
    expect(await page.$eval('#run-items .table-wrap', (w) => w.classList.contains('scrolls'))).toBe(true);
    expect(await noHorizontalScroll()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'run-columns-900.png'), fullPage: true });
    // Back to the defaults for the pages that follow.
    for (const c of await page.$$eval('#run-items .col-picker input:checked', (is) => is.map((i) => (i as HTMLInputElement).value))) {
      if (!['url', 'title', 'status'].includes(c)) await page.click(`#run-items .col-picker input[value="${c}"]`);
    }
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('Right states: filter-aware empty text, an HTTP 404 page warned on a succeeded run, plurals', async () => {
    await go('#/runs?status=failed');
    await waitText('table.data', 'No failed runs.');
    expect(await textOf('table.data')).not.toContain('Start one above');
    await go(`#/runs/${missingRun}`);
    await waitText('#run-status', 'succeeded');
    await waitText('#run-http-warning', '404');
    const progress = await textOf('#run-progress');
    expect(progress).toContain('1 item');
    expect(progress).not.toContain('1 items');
    expect(await textOf('#run-info')).toContain('1 request ·');
    await page.screenshot({ path: join(SHOTS, 'run-http-404-1280.png'), fullPage: true });
  });

  it('Data & Storage: files named by their prompt; a list of records previews as a table', async () => {
    await go('#/datasets?kind=files');
    await waitText('#storage-files', PROMPT);
    await page.click(`button.file[data-key="${fileKey}"]`);
    await page.waitForSelector('#storage-preview table.data', { visible: true });
    expect(await page.$$eval('#storage-preview table.data thead th', (ths) => ths.map((t) => t.textContent))).toEqual(['source', 'author', 'text', 'likes']);
    expect(await textOf('#storage-preview h2')).toBe(PROMPT);
    await page.screenshot({ path: join(SHOTS, 'storage-table-1280.png'), fullPage: true });
    await go('#/datasets');
    await waitText('#datasets-table', `${site.baseUrl}/article`);
  });

  it('Social: sources without credentials are marked in the query form, each linked to its card', async () => {
    await go('#/queries');
    await page.waitForSelector('a.no-creds');
    expect(await page.$$eval('a.no-creds', (as) => as.map((a) => a.getAttribute('href')))).toContain('#/settings/sources?source=reddit');
    await page.click('a.no-creds[href="#/settings/sources?source=reddit"]');
    await page.waitForSelector('#source-reddit.highlight');
    expect(await textOf('#source-reddit')).not.toContain('PUT /dashboard');
  });

  it('Monitoring: a range selector, legends that read without hovering, a line on what usage counts', async () => {
    await go('#/monitoring');
    await page.waitForSelector('#chart-work canvas');
    await page.click('nav.pills a[href="#/monitoring?range=1h"]');
    await page.waitForFunction(() => /^1[23]$/.test((document.getElementById('chart-work') as HTMLElement | null)?.dataset.points ?? ''));
    expect(await textOf('#chart-work .chart-legend')).toMatch(/Runs: \d+ in total/);
    expect(await textOf('#chart-work figcaption')).toBe('Runs and queries per 5 minutes');
    expect(await textOf('#mon-usage-note')).toContain('Billed pages');
    await page.click('nav.pills a[href="#/monitoring?range=30d"]');
    await page.waitForFunction(() => /^3[01]$/.test((document.getElementById('chart-work') as HTMLElement | null)?.dataset.points ?? ''));
  });

  it('Audit log shows the console user\'s email', async () => {
    await go('#/settings/audit');
    await waitText('table.data', EMAIL);
  });

  it('Studio: the steps editor highlights JSON and completes step fields and actions', async () => {
    await go('#/studio/new');
    await page.waitForSelector('#rb-step-action option[value="extract"]');
    expect(await page.$$eval('.code-highlight .tk-key', (ks) => ks.length)).toBeGreaterThan(0);
    // Caret at the start of a new key inside the goto step: its missing field is offered.
    await page.evaluate(() => {
      const t = document.getElementById('rb-steps') as HTMLTextAreaElement;
      const i = t.value.indexOf('"url"');
      t.focus();
      t.setSelectionRange(i, i);
    });
    await page.keyboard.type('"wa');
    await page.waitForSelector('ul.completions:not([hidden])');
    expect(await textOf('ul.completions')).toContain('wait_for');
    await page.keyboard.press('Enter');
    expect(await page.$eval('#rb-steps', (t) => (t as HTMLTextAreaElement).value)).toContain('"wait_for": ');
    // An action's value: the catalogue's actions.
    await page.evaluate(() => {
      const t = document.getElementById('rb-steps') as HTMLTextAreaElement;
      const i = t.value.indexOf('"goto"') + 1;
      t.setSelectionRange(i, i + 4);
    });
    await page.keyboard.press('Backspace');
    await page.keyboard.type('scr');
    await page.waitForFunction(() => document.querySelector('ul.completions:not([hidden])')?.textContent?.includes('scroll'));
    expect(await textOf('ul.completions')).toContain('screenshot');
    await page.keyboard.press('Escape');
    await page.screenshot({ path: join(SHOTS, 'studio-editor-1280.png'), fullPage: true });
  });

  it('every page at 1280 and 900 px: screenshots, no page-wide horizontal scroll, no serious accessibility problem (own checks and axe-core)', async () => {
    const pages: Array<[string, string, string]> = [
      ['monitoring', '#/monitoring', '#mon-runs'],
      ['runs', '#/runs?new=1', '#run-in-url'],
      ['run', `#/runs/${articleRun}`, '#run-items tbody tr.clickable'],
      ['captcha', '#/captcha', '#captcha-encounters'],
      ['studio', '#/studio', '#studio-runbooks'],
      ['studio-new', '#/studio/new', '#rb-step-action option'],
      ['social', '#/social', '#social-sources tbody tr:not(.empty)'],
      ['queries', '#/queries', '#query-prompt'],
      ['jobs', '#/jobs?new=1', '#job-label'],
      ['changes', '#/changes', 'main h1'],
      ['data-runs', '#/datasets', '#datasets-table tbody tr:not(.empty)'],
      ['data-files', '#/datasets?kind=files', '#storage-files button.file'],
      ['webhooks', '#/webhooks', 'main h1'],
      ['settings-keys', '#/settings/keys', '#key-name'],
      ['settings-storage', '#/settings/storage', '#sync-endpoint'],
      ['settings-sources', '#/settings/sources', '#source-reddit'],
      ['settings-policy', '#/settings/policy', '#policy-domains'],
      ['settings-domains', '#/settings/domains', 'main h1'],
      ['settings-secrets', '#/settings/secrets', '#secret-name'],
      ['settings-profiles', '#/settings/profiles', '#profile-name'],
      ['settings-audit', '#/settings/audit', 'table.data tbody tr:not(.empty)'],
    ];
    const problems: string[] = [];
    for (const width of [1280, 900]) {
      await page.setViewport({ width, height: 900 });
      for (const [name, hash, sel] of pages) {
        await go(hash);
        await page.waitForSelector(sel);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
        await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
        if (!(await noHorizontalScroll())) problems.push(`${name} @${width}: the page scrolls sideways`);
        for (const v of await a11yViolations(page)) problems.push(`${name} @${width}: ${v}`);
        for (const v of await axeViolations(page)) problems.push(`${name} @${width}: axe ${v}`);
      }
    }
    expect(problems).toEqual([]);
    expect(cb.pageErrors).toEqual([]);
    expect(cb.cspViolations).toEqual([]);
  }, 300_000); // 42 page renders with two accessibility checks each, on a shared machine
});
