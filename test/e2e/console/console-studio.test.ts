import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchConsoleBrowser, pageHelpers, SHOTS, type ConsoleBrowser, logIn } from './console-browser.js';
import { a11yViolations, axeViolations } from './console-a11y.js';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';

// Issue 29, Studio as a person uses it: build a runbook by pointing at elements of the page (the
// service's browser renders it; the console shows a screenshot with boxes), test it, see an empty
// field as a warning with its column, a stale result greyed, a step's error once at that step,
// the step forms and the JSON view in sync both ways, and the published runbook's input contract
// carried to the Runs form. Screenshots at 1280 and 900 px (test-artifacts/console/), axe clean.

const EMAIL = 'studio@example.com';
const PASSWORD = 'correct-horse-battery-staple';

let svc: TestService;
let site: FixtureSite;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  site = await startFixtureSite();
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port}` });
  await createUser(svc.deps.table, svc.tenantId, EMAIL, PASSWORD, new Date());
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
});

describe.skipIf(!CHROMIUM)('Studio (issue 29) in headless Chromium', () => {
  let cb: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    cb = await launchConsoleBrowser('gleaner-console-studio-');
    page = cb.page;
    page.on('dialog', (d) => void d.accept());
    await logIn(page, svc.url, EMAIL, PASSWORD);
  });
  afterAll(async () => {
    await cb?.close();
  });

  const { go, textOf, waitText, valueOf } = pageHelpers(() => page);
  const stepsJson = async () => JSON.parse(await valueOf('#rb-steps'));
  /** Type into a field as a person does (select what is there, then type). */
  const retype = async (sel: string, text: string) => {
    await page.click(sel, { count: 3 });
    await page.keyboard.press('Backspace');
    await page.type(sel, text);
  };
  /** Click Pick next to an input and choose the box whose label has `text`; `all` takes "all like it". */
  const pick = async (inputSel: string, text: string, all: boolean) => {
    await page.click(`${inputSel} + .pick-btn`);
    // The first preview starts the worker's browser: slow on a loaded machine. A refusal fails with its message.
    await page.waitForSelector('dialog.picker .pick-box, dialog.picker .error-box', { timeout: 90_000 });
    const refused = await page.$eval('dialog.picker', (d) => d.querySelector('.error-box')?.textContent ?? null);
    if (refused) throw new Error(`The picker could not show the page: ${refused}`);
    // Boxes are buttons: focus the one wanted and press Enter (a click at its centre may land on an inner box).
    const box = await page.waitForSelector(`dialog.picker .pick-box[aria-label*='${text}']`);
    await box!.focus();
    await page.keyboard.press('Enter');
    await page.click(all ? '#pick-use-all' : '#pick-use-one');
    await page.waitForFunction(() => !document.querySelector('dialog.picker'));
  };
  const products = () => `${site.baseUrl}/products?page=1`;

  it('builds a runbook by pointing at elements: the picker fills stable selectors and says how many elements they match', async () => {
    await go('#/studio/new');
    await page.waitForSelector('#rb-step-1-url');
    // No made-up address anywhere: the first goto starts empty.
    expect(await valueOf('#rb-step-1-url')).toBe('');
    expect(await page.$eval('#rb-steps', (t) => (t as HTMLTextAreaElement).value)).not.toContain('example.com');
    await page.type('#rb-name', 'Products by pointing');
    await page.type('#rb-step-1-url', products());
    // Form -> JSON.
    expect((await stepsJson())[0]).toEqual({ action: 'goto', url: products() });

    // The item selector: point at one product, take "all like it".
    await pick('#rb-step-2-item_selector', 'li “Product 2', true);
    expect(await valueOf('#rb-step-2-item_selector')).toBe('li.product');
    await waitText('.pick-row:has(#rb-step-2-item_selector) + output', 'matches 4 elements');
    // The first field: its name, then its selector by pointing at a product's name, used in each item.
    await retype('#rb-step-2-field-1-name', 'name');
    await pick('#rb-step-2-field-1-selector', 'span “Product 3”', true);
    expect(await valueOf('#rb-step-2-field-1-selector')).toBe('span.name');
    await waitText('.pick-row:has(#rb-step-2-field-1-selector) + output', 'matches 4 elements in the items');
    // A field typed by hand that matches nothing: the count says so before any test.
    await page.locator('#rb-step-2-add-field').click();
    await retype('#rb-step-2-field-2-name', 'sku');
    await page.type('#rb-step-2-field-2-selector', '.sku');
    await waitText('.pick-row:has(#rb-step-2-field-2-selector) + output', 'matches nothing in the items');
    expect((await stepsJson())[1]).toEqual({ action: 'extract', item_selector: 'li.product', fields: { name: { selector: 'span.name' }, sku: { selector: '.sku' } } });
  }, 240_000);

  it('keeps the JSON view and the step forms in sync both ways', async () => {
    const list = await stepsJson();
    list[1].fields.price = { selector: '.price' };
    list.push({ action: 'screenshot', name: 'after' });
    await page.$eval('#rb-steps', (t, v) => {
      (t as HTMLTextAreaElement).value = v;
      t.dispatchEvent(new Event('input', { bubbles: true }));
    }, JSON.stringify(list, null, 2));
    await page.waitForSelector('#rb-step-3-action');
    expect(await valueOf('#rb-step-3-action')).toBe('screenshot');
    expect(await valueOf('#rb-step-2-field-3-selector')).toBe('.price');
    // A broken JSON view greys the forms and says why; they keep their last state.
    await page.$eval('#rb-steps', (t) => {
      (t as HTMLTextAreaElement).value = '[{"action": ';
      t.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitText('#rb-steps-note', 'The JSON view has an error');
    expect(await page.$eval('#rb-step-cards', (el) => el.classList.contains('disabled'))).toBe(true);
    await page.$eval('#rb-steps', (t, v) => {
      (t as HTMLTextAreaElement).value = v;
      t.dispatchEvent(new Event('input', { bubbles: true }));
    }, JSON.stringify(list, null, 2));
    await page.waitForFunction(() => !document.querySelector('#rb-step-cards.disabled'));
    // Removing a step in the form rewrites the JSON.
    await page.click('button[aria-label="Remove step 3"]');
    expect((await stepsJson()).map((s: { action: string }) => s.action)).toEqual(['goto', 'extract']);
  });

  it('tests it: items beside the editor, the empty field a warning with its column kept', async () => {
    await page.locator('#rb-test').click();
    await page.waitForSelector('#rb-test-status', { timeout: 60_000 });
    expect(await textOf('#rb-test-status')).toBe('succeeded');
    await waitText('#rb-test-warnings', '1 warning');
    expect(await textOf('#rb-steplog')).toContain('field sku: .sku found nothing in any of the 4 items; its column is empty');
    // The sku column is there, empty, among the item columns.
    const headers = await page.$$eval('#rb-items th', (ths) => ths.map((t) => (t as HTMLElement).innerText.trim().toLowerCase()));
    expect(headers.some((t) => t.includes('sku'))).toBe(true);
    // Side by side at 1280: the test card's left edge is right of the editor card's.
    const [editor, result] = await page.$$eval('.studio-split > .card', (cs) => cs.map((c) => c.getBoundingClientRect().left));
    expect(result).toBeGreaterThan(editor! + 300);
    await page.screenshot({ path: join(SHOTS, 'studio-tested-1280.png'), fullPage: true });
  }, 240_000);

  it('greys the result out once the runbook changes after the test', async () => {
    expect(await page.$eval('#rb-test-result', (el) => el.classList.contains('stale'))).toBe(false);
    await page.type('#rb-step-2-field-2-selector', 'x');
    await page.waitForFunction(() => document.querySelector('#rb-test-result')?.classList.contains('stale'));
    expect(await page.$eval('#rb-stale-note', (el) => (el as HTMLElement).hidden)).toBe(false);
    expect(await page.$eval('#rb-steplog', (el) => Number(getComputedStyle(el).opacity))).toBeLessThan(1);
    await page.screenshot({ path: join(SHOTS, 'studio-stale-1280.png'), fullPage: true });
  });

  it('shows a step\'s error once, in that step\'s card', async () => {
    await retype('#rb-step-2-item_selector', 'li[');
    await page.locator('#rb-save').click();
    await page.waitForSelector('.step-card.has-error');
    const card = await textOf('#rb-step-2-errors');
    expect(card).toMatch(/item_selector: .*not a valid CSS selector/);
    expect(await textOf('#rb-errors')).toContain('See step 2 above');
    // The message appears once on the whole page (not in the summary, not in the banner).
    const count = await page.evaluate(() => document.body.innerText.split('is not a valid CSS selector').length - 1);
    expect(count).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'studio-step-error-1280.png'), fullPage: true });
    await retype('#rb-step-2-item_selector', 'li.product');
    await page.locator('#rb-save').click();
    await page.waitForFunction(() => !document.querySelector('.step-card.has-error') && document.getElementById('rb-dirty')?.textContent === '' && !(document.getElementById('rb-save') as HTMLButtonElement).disabled);
  });

  it('publishes it with an input contract: the URL becomes a described input, the test input and Start a run carry a URL that works here', async () => {
    await page.select('#rb-step-1-url-kind', 'input');
    await retype('#rb-step-1-url', 'start');
    await page.waitForSelector('#rb-input-start-description');
    await page.type('#rb-input-start-description', 'A product list page');
    await page.type('#rb-input-start-example', products());
    await page.locator('#rb-published').click();
    // The test input follows the new input, with the URL the goto used (never a made-up one).
    expect(JSON.parse(await valueOf('#rb-test-input'))).toEqual({ start: products() });
    await page.locator('#rb-save').click();
    await page.waitForFunction(() => !(document.getElementById('rb-start-run') as HTMLElement).hidden);
    const id = await page.evaluate(() => location.hash.split('/').pop()!);
    const listed = (await svc.call('/v1/scrapers')).body.data.find((s: { scraper_id: string }) => s.scraper_id === id);
    expect(listed.input_schema).toMatchObject({ required: ['start'], properties: { start: { type: 'string', format: 'uri', description: 'A product list page', examples: [products()] } } });
    await page.screenshot({ path: join(SHOTS, 'studio-published-1280.png'), fullPage: true });
    await page.locator('#rb-start-run').click();
    await page.waitForFunction(() => location.hash.startsWith('#/runs'));
    await page.waitForFunction((u) => (document.querySelector('[name="start"]') as HTMLInputElement | null)?.value === u, {}, products());
  });

  it('the same picker serves the Runs form: css-extract selectors and page-content exclude_tags', async () => {
    await go('#/runs?new=1');
    await page.waitForSelector('#run-scraper option[value="css-extract"]');
    await page.select('#run-scraper', 'css-extract');
    await page.waitForSelector('form [name="item_selector"] + .pick-btn');
    await page.type('form [name="url"]', products());
    await pick('form [name="item_selector"]', 'li “Product 4', true);
    expect(await valueOf('form [name="item_selector"]')).toBe('li.product');
    await waitText('.pick-row:has([name="item_selector"]) + output', 'matches 4 elements');
    // page-content: exclude_tags is a list (one per line); a pick appends to it.
    await page.select('#run-scraper', 'page-content');
    await page.waitForSelector('form [name="exclude_tags"] + .pick-btn');
    await page.type('form [name="url"]', products());
    await page.type('form [name="exclude_tags"]', 'nav');
    await pick('form [name="exclude_tags"]', 'a “Next page', false);
    expect((await valueOf('form [name="exclude_tags"]')).split('\n')).toEqual(['nav', 'a.next']);
  }, 240_000);

  it('picks the thing that repeats in three clicks: the item selector with its count, and the fields inside it (issue 41 item 2)', async () => {
    await go('#/studio/new');
    await page.waitForSelector('#rb-step-1-url');
    await page.type('#rb-step-1-url', products());
    await page.waitForSelector('#rb-step-2-item_selector');
    // Click 1: Pick beside the item selector. Click 2: a product card. Click 3: its repeated item.
    await page.click('#rb-step-2-item_selector + .pick-btn');
    await page.waitForSelector('dialog.picker .pick-box, dialog.picker .error-box', { timeout: 90_000 });
    const card = await page.waitForSelector(`dialog.picker .pick-box[aria-label*='li “Product 3']`);
    await card!.focus();
    await page.keyboard.press('Enter');
    await waitText('#pick-use-item', 'Use the repeated item: li.product (4 on the page)');
    expect(await textOf('#pick-item-fields')).toContain('It repeats 4 times; fields inside it: name (span.name, “Product 3”)');
    // Offered first for an item selector.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pick-use-item');
    await page.click('#pick-use-item');
    await page.waitForFunction(() => !document.querySelector('dialog.picker'));
    expect(await valueOf('#rb-step-2-item_selector')).toBe('li.product');
    const extract = (await stepsJson())[1];
    expect(extract.item_selector).toBe('li.product');
    expect(extract.fields).toMatchObject({ name: { selector: 'span.name' }, price: { selector: 'span.price' } });
    await waitText('.pick-row:has(#rb-step-2-item_selector) + output', 'matches 4 elements');
  }, 240_000);

  it('the Studio pages and the picker at 1280 and 900 px: screenshots, no serious accessibility problem', async () => {
    const problems: string[] = [];
    const rb = (await svc.call('/v1/runbooks')).body.data[0].id as string;
    for (const width of [1280, 900]) {
      await page.setViewport({ width, height: 900 });
      await go(`#/studio/${rb}`);
      await page.waitForSelector('#rb-step-2-item_selector');
      await page.screenshot({ path: join(SHOTS, `studio-editor-forms-${width}.png`), fullPage: true });
      if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)) problems.push(`editor @${width}: the page scrolls sideways`);
      for (const v of await a11yViolations(page)) problems.push(`editor @${width}: ${v}`);
      for (const v of await axeViolations(page)) problems.push(`editor @${width}: axe ${v}`);
      await page.locator('#rb-step-2-item_selector + .pick-btn').click();
      await page.waitForSelector('dialog.picker .pick-box', { timeout: 90_000 });
      await (await page.$("dialog.picker .pick-box[aria-label*='span “Product 1”']"))!.focus();
      await page.keyboard.press('Enter');
      await page.waitForSelector('#pick-use-one');
      await page.screenshot({ path: join(SHOTS, `studio-picker-${width}.png`) });
      for (const v of await axeViolations(page)) problems.push(`picker @${width}: axe ${v}`);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('dialog.picker'));
    }
    await page.setViewport({ width: 1280, height: 900 });
    expect(problems).toEqual([]);
    expect(cb.pageErrors).toEqual([]);
    expect(cb.cspViolations).toEqual([]);
  }, 240_000);
});
