import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchConsoleBrowser, pageHelpers, SHOTS, type ConsoleBrowser, logIn } from './console-browser.js';
import { a11yViolations } from './console-a11y.js';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { run as admin } from '../../../functions/cli/admin.js';
import { clearAuthCache } from '../../../functions/http/pipeline/authenticate.js';
import { startFakeOpenAi } from '../../fixtures/fake-models/openai-chat.js';
import { startExtractionPages } from '../../fixtures/fake-models/extraction-pages.js';
import type { FakeServer, Responder } from '../../fixtures/fake-models/scripted.js';

// Issue 22, the console part: model extraction in the Runs form (a JSON Schema editor for
// json_options with checks worded for people, a prompt, and a Test button that shows the page's
// Markdown beside the extracted JSON and its token usage) and in Studio, and model tokens in
// usage, against the OpenAI-compatible fake. (Without a provider: console-json-unconfigured.test.ts.)

const EMAIL = 'json@example.com';
const PASSWORD = 'correct-horse-battery-staple';
const TOKEN_LIMIT = 100_000;
/** What the console's "Example schema" button writes (console/lib/json-extract-panel.js). */
const STARTER = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'The name of the product or the page title' },
    price: { type: 'number', description: 'The price as a number, without the currency' },
  },
  required: ['title'],
};

/** The model: the kettle for any task, except one that never answers JSON (to see json_error). */
const responder: Responder = (call) => {
  if ((call.userTexts[0] ?? '').includes('ALWAYS-WRONG')) return { text: 'It is a kettle, I think.' };
  return { json: { title: 'Blue kettle', price: 24.5 }, usage: { input: 400, output: 20 } };
};

let svc: TestService;
let fake: FakeServer;
let pages: Awaited<ReturnType<typeof startExtractionPages>>;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  pages = await startExtractionPages();
  fake = await startFakeOpenAi(responder);
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: pages.hostPort, GLEANER_LLM_BASE_URL: `${fake.url}/v1`, GLEANER_LLM_MODEL: 'llama3.1' });
  await admin(['tenants', 'set-limits', svc.tenantId, '--monthly-model-tokens', String(TOKEN_LIMIT)], svc.deps.table);
  clearAuthCache();
  await createUser(svc.deps.table, svc.tenantId, EMAIL, PASSWORD, new Date());
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await fake?.close();
  await pages?.close();
});

describe.skipIf(!CHROMIUM)('console: model extraction (issue 22) in headless Chromium', () => {
  let cb: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    cb = await launchConsoleBrowser('gleaner-console-json-');
    page = cb.page;
    page.on('dialog', (d) => void d.accept());
  });
  afterAll(async () => {
    await cb?.close();
  });

  const { go, textOf, waitText, noHorizontalScroll, clickLive } = pageHelpers(() => page);
  /** Replace a textarea's text as typing would (input event), then wait for the live check. */
  const setText = async (sel: string, value: string) => {
    await page.$eval(sel, (el, v) => {
      (el as HTMLTextAreaElement).value = v;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, value);
  };
  const runInput = async () => JSON.parse(await page.$eval('#run-input', (t) => (t as HTMLTextAreaElement).value));

  it('logs in', async () => {
    await logIn(page, svc.url, EMAIL, PASSWORD);
  });

  it('Runs form: formats are checkboxes; turning model extraction on adds "json" and a schema editor, kept in sync with the JSON tab', async () => {
    await go('#/runs?new=1');
    await page.waitForSelector('#run-scraper option[value="page-content"]');
    await page.select('#run-scraper', 'page-content');
    await page.waitForSelector('#run-in-json_options-on');
    expect(await page.$$eval('[data-field="formats"] input[type="checkbox"]', (bs) => bs.map((b) => (b as HTMLInputElement).value))).toEqual(['markdown', 'text', 'links', 'metadata', 'json', 'changes', 'product', 'product_list', 'article', 'job_posting']);
    expect(await page.$eval('#run-in-json_options-schema', (t) => (t as HTMLElement).offsetParent === null)).toBe(true);
    await page.click('#run-in-json_options-on');
    await page.waitForSelector('#run-in-json_options-schema', { visible: true });
    expect(await page.$eval('[data-field="formats"] input[value="json"]', (b) => (b as HTMLInputElement).checked)).toBe(true);
    expect(await runInput()).toMatchObject({ formats: ['json'], json_options: { schema: { type: 'object', properties: {} } } });
    // Unticking "json" in Formats turns extraction off again, and the JSON follows.
    await page.click('[data-field="formats"] input[value="json"]');
    await page.waitForFunction(() => !(document.getElementById('run-in-json_options-on') as HTMLInputElement).checked);
    expect((await runInput()).json_options).toBeUndefined();
    await page.click('#run-in-json_options-on');
    await page.waitForSelector('#run-in-json_options-schema', { visible: true });
  });

  it('the schema editor says what is wrong, in words, with the line and column, and where', async () => {
    await setText('#run-in-json_options-schema', '{\n  "type": "object",\n  "properties": {\n    "title": { "type": "string" }\n    "price": { "type": "number" }\n  }\n}');
    await waitText('#run-in-json_options-schema-status', 'Line 5, column 5');
    expect(await textOf('#run-in-json_options-schema-status')).toContain('a comma (,) or a closing } is missing here');
    expect(await page.$eval('#run-in-json_options-schema', (t) => t.getAttribute('aria-invalid'))).toBe('true');
    await page.screenshot({ path: join(SHOTS, 'runs-json-schema-error-1280.png'), fullPage: true });
    // "Show where" puts the caret on the problem.
    await page.click('[data-field="json_options"] .schema-check button::-p-text(Show where)');
    const caret = await page.$eval('#run-in-json_options-schema', (t) => {
      const ta = t as HTMLTextAreaElement;
      return ta.value.slice(0, ta.selectionStart).split('\n').length;
    });
    expect(caret).toBe(5);
    await setText('#run-in-json_options-schema', '{ "type": "array", "items": { "type": "string" } }');
    await waitText('#run-in-json_options-schema-status', 'The top level needs "type": "object"');
    await setText('#run-in-json_options-schema', '{ "type": "object", "properties": { "price": { "type": "float" } } }');
    await waitText('#run-in-json_options-schema-status', 'Field "price": "float" is not a JSON Schema type');
    // Starting a run with a broken schema is refused in the form, naming the problem.
    await page.type('#run-in-url', `${pages.baseUrl}/product`);
    await page.click('#run-start');
    // Issue 29: the refusal shows in the form, above the button, not in the page banner.
    await waitText('#new-run .form-error', 'Model extraction schema');
    expect(await page.evaluate(() => location.hash)).toBe('#/runs?new=1');
    // The example starts from a valid schema; the check says so.
    await page.click('#run-in-json_options-example');
    await waitText('#run-in-json_options-schema-status', '2 fields: title, price');
    expect(await page.$eval('#run-in-json_options-schema', (t) => t.hasAttribute('aria-invalid'))).toBe(false);
    expect(await page.$$eval('[data-field="json_options"] .code-highlight .tk-key', (ks) => ks.length)).toBeGreaterThan(0);
  });

  it('the schema checks name common mistakes in words (trailing comma, unquoted key, open string, lists, early end)', async () => {
    // A string expression: the test runner would rewrite a dynamic import inside a function.
    const out = (await page.evaluate(`(async () => {
      const { checkSchemaText } = await import('/console/lib/json-extract-panel.js');
      const cases = ['', '{ "type": "object", }', '{ type: "object" }', '{ "type": "object", "properties": { "a": { "type": "string } } }', '[{ "type": "object" }]', '{ "type": "object"', '{ "type": "object" } x', '{ "type": "object", "properties": [] }'];
      return cases.map((c) => checkSchemaText(c).error ?? 'ok');
    })()`)) as string[];
    expect(out[0]).toContain('Write a JSON Schema here');
    expect(out[1]).toMatch(/Line 1, column \d+: a field name in double quotes is expected here/);
    expect(out[2]).toMatch(/Line 1, column 3: a field name in double quotes/);
    expect(out[3]).toContain('a text value is not closed with a double quote');
    expect(out[4]).toContain('must be a JSON object ({ … }), not a list');
    expect(out[5]).toContain('the schema stops too early');
    expect(out[6]).toContain('more text after the schema');
    expect(out[7]).toContain('"properties" must be an object');
  });

  it('Test shows the page\'s Markdown beside the extracted JSON, with the tokens and this month\'s usage', async () => {
    const engineIndex = await page.$eval('#run-in-engine', (s) => Array.from((s as HTMLSelectElement).options).find((o) => o.textContent === 'http')!.value);
    await page.select('#run-in-engine', engineIndex);
    await page.type('#run-in-json_options-prompt', 'The product on this page');
    const before = fake.calls.length;
    await page.click('#run-in-json_options-test');
    await page.waitForSelector('#run-in-json_options-result .extract-result', { timeout: 30_000 });
    // The request the model got: the schema and prompt from the editor, the page in markdown.
    const call = fake.calls[before]!;
    expect(call.schema).toEqual(STARTER);
    expect(call.userTexts[0]).toContain('The product on this page');
    expect(await textOf('#run-in-json_options-result .extract-page .markdown')).toContain('Blue kettle');
    expect(await textOf('#run-in-json_options-result .extract-page .markdown')).toContain('24.50 EUR');
    const json = await textOf('#run-in-json_options-result .extract-json .json-view');
    expect(json).toContain('Blue kettle');
    expect(json).toContain('24.5');
    const usage = await textOf('#run-in-json_options-result .extract-usage');
    expect(usage).toContain('openai:llama3.1');
    expect(usage).toContain('400 in + 20 out = 420');
    await waitText('#run-in-json_options-result .extract-month', 'model tokens of 100,000');
    // Side by side at 1280 px: the JSON pane's left edge is right of the page pane's.
    const [pageBox, jsonBox] = await page.$$eval('#run-in-json_options-result .extract-result > section', (ss) => ss.map((s) => s.getBoundingClientRect().left));
    expect(jsonBox!).toBeGreaterThan(pageBox! + 200);
    expect(await a11yViolations(page)).toEqual([]);
    await page.$eval('#run-in-json_options-result', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, 'runs-json-test-1280.png'), fullPage: true });
    await page.setViewport({ width: 900, height: 900 });
    expect(await noHorizontalScroll()).toBe(true);
    expect(await a11yViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'runs-json-test-900.png'), fullPage: true });
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('a model that never answers the schema shows json_error, not data', async () => {
    await setText('#run-in-json_options-prompt', 'ALWAYS-WRONG');
    await page.click('#run-in-json_options-test');
    await page.waitForSelector('#run-in-json_options-result .extract-json-error', { timeout: 30_000 });
    expect(await page.$eval('#run-in-json_options-result .extract-json-error', (e) => (e as HTMLElement).dataset.code)).toBe('schema_mismatch');
    expect(await textOf('#run-in-json_options-result .extract-json-error')).toContain('did not match the schema');
    expect(await textOf('#run-in-json_options-result .extract-page')).toContain('Blue kettle');
  });

  it('a run started from the form carries the schema; its item holds the extracted json', async () => {
    await setText('#run-in-json_options-prompt', 'The product on this page');
    await page.click('[role="tab"]::-p-text(JSON)');
    expect(await runInput()).toEqual({ url: `${pages.baseUrl}/product`, engine: 'http', formats: ['json'], json_options: { schema: STARTER, prompt: 'The product on this page' } });
    await page.click('[role="tab"]::-p-text(Form)');
    await page.click('#run-start');
    await page.waitForFunction(() => /^#\/runs\/run_/.test(location.hash));
    const id = await page.evaluate(() => decodeURIComponent(location.hash.split('/')[2]!));
    await waitText('#run-status', 'succeeded', 60_000);
    const run = await svc.call(`/v1/runs/${id}`);
    expect(run.body.input.json_options).toEqual({ schema: STARTER, prompt: 'The product on this page' });
    const results = await svc.call(`/v1/runs/${id}/results`);
    expect(results.body.data[0].data.json).toEqual({ title: 'Blue kettle', price: 24.5 });
    // The run page says what was extracted and what it cost; an item opens on its extracted object.
    await waitText('#run-json-summary', '1 object extracted');
    expect(await textOf('#run-json-summary')).toContain('420 model tokens');
    await clickLive('#run-items tbody tr.clickable td:nth-child(2)');
    await page.waitForSelector('dialog.item-detail[open] .item-extracted', { visible: true });
    expect(await textOf('dialog.item-detail [role="tab"][aria-selected="true"]')).toBe('Extracted');
    expect(await textOf('dialog.item-detail .item-extracted')).toContain('Blue kettle');
    expect(await textOf('dialog.item-detail .item-extracted')).toContain('400 input + 20 output tokens');
    expect(await a11yViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'run-json-item-1280.png') });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('dialog.item-detail'));
  });

  it('Studio: a model extraction panel with URL, schema, prompt and Test', async () => {
    await go('#/studio');
    await page.waitForSelector('#studio-extract-url');
    await page.type('#studio-extract-url', `${pages.baseUrl}/product`);
    await page.select('#studio-extract-engine', 'http');
    // Test with no schema yet: the editor says what to do, no request is made.
    const before = fake.calls.length;
    await page.click('#studio-extract-test');
    await waitText('#studio-extract-schema-status', 'Example schema');
    expect(fake.calls.length).toBe(before);
    await page.click('#studio-extract-example');
    await page.click('#studio-extract-test');
    await page.waitForSelector('#studio-extract-result .extract-result', { timeout: 30_000 });
    expect(await textOf('#studio-extract-result .extract-json')).toContain('Blue kettle');
    expect(await textOf('#studio-extract-result .extract-page .markdown')).toContain('A 1.7 litre kettle');
    await waitText('#studio-extract-result .extract-month', 'model tokens');
    for (const width of [1280, 900]) {
      await page.setViewport({ width, height: 900 });
      await page.$eval('#studio-extract-card', (el) => el.scrollIntoView());
      expect(await noHorizontalScroll()).toBe(true);
      expect(await a11yViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `studio-json-test-${width}.png`), fullPage: true });
    }
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('Monitoring shows model tokens used and the monthly limit beside pages and results', async () => {
    const tenant = await svc.call('/v1/tenant');
    const used = tenant.body.usage.model_tokens as number;
    expect(used).toBeGreaterThanOrEqual(420 * 3);
    await go('#/monitoring');
    await page.waitForSelector('#mon-model-tokens');
    expect(await textOf('#mon-model-tokens')).toContain(`${used} of ${TOKEN_LIMIT}`);
    expect(await page.$eval('#mon-model-tokens meter', (m) => [m.getAttribute('value'), m.getAttribute('max')])).toEqual([String(used), String(TOKEN_LIMIT)]);
    const labels = await page.$$eval('#mon-usage dt', (ds) => ds.map((d) => d.textContent));
    expect(labels).toEqual(expect.arrayContaining(['Pages', 'Results', 'Model tokens']));
    await page.$eval('#mon-usage', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, 'monitoring-model-tokens-1280.png'), fullPage: true });
  });

  it('the schema editor completes keywords and type names', async () => {
    await go('#/studio');
    await page.waitForSelector('#studio-extract-schema');
    await page.click('#studio-extract-example');
    await page.evaluate(() => {
      const t = document.getElementById('studio-extract-schema') as HTMLTextAreaElement;
      const i = t.value.indexOf('"description"', t.value.indexOf('"title"'));
      t.focus();
      t.setSelectionRange(i, i);
    });
    await page.keyboard.type('"ite');
    await page.waitForSelector('ul.completions:not([hidden])');
    expect(await textOf('ul.completions')).toContain('items');
    await page.keyboard.press('Escape');
    // A value of "type": the JSON Schema type names.
    await page.evaluate(() => {
      const t = document.getElementById('studio-extract-schema') as HTMLTextAreaElement;
      const i = t.value.indexOf('"string"') + 1;
      t.setSelectionRange(i, i + 6);
    });
    await page.keyboard.press('Backspace');
    await page.keyboard.type('int');
    await page.waitForFunction(() => document.querySelector('ul.completions:not([hidden])')?.textContent?.includes('integer'));
    await page.keyboard.press('Escape');
  });

  it('at the monthly model token limit, a Test says so (402 quota_exceeded)', async () => {
    await admin(['tenants', 'set-limits', svc.tenantId, '--monthly-model-tokens', '100'], svc.deps.table);
    clearAuthCache();
    await go('#/studio');
    await page.waitForSelector('#studio-extract-url');
    await page.type('#studio-extract-url', `${pages.baseUrl}/product`);
    await page.select('#studio-extract-engine', 'http');
    await page.click('#studio-extract-example');
    const before = fake.calls.length;
    await page.click('#studio-extract-test');
    await page.waitForSelector('#studio-extract-result .extract-error', { timeout: 30_000 });
    expect(await page.$eval('#studio-extract-result .extract-error', (e) => (e as HTMLElement).dataset.code)).toBe('quota_exceeded');
    expect(await textOf('#studio-extract-result .extract-error')).toContain('The model token limit for this month is used up');
    expect(await textOf('#studio-extract-result .extract-error')).toContain('HTTP 402');
    expect(fake.calls.length).toBe(before);
    expect(cb.pageErrors).toEqual([]);
    expect(cb.cspViolations).toEqual([]);
  });
});
