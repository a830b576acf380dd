import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { mcpClient } from '../../support/mcp-client.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { startRevisableSite, type RevisableSite } from '../../fixtures/revisable-site.js';
import { startFakeOpenAi } from '../../fixtures/fake-models/openai-chat.js';
import type { FakeServer, Responder } from '../../fixtures/fake-models/scripted.js';

// API.md "Typed data" through the local service: POST /v1/scrape with the typed formats on the
// fixture site (no model), typed_options.model against the OpenAI-compatible fake (fills empty
// fields only, never overrides), 400s, and a price-drop / restock watch on a revised page.

/** The model answers a sku and (wrongly) another price: only the sku may be taken. */
const responder: Responder = () => ({ json: { product: { sku: 'WDL-1', price: '1.00', brand: 'Lumen Works' } }, usage: { input: 300, output: 20 } });

let svc: TestService;
let site: FixtureSite;
let shop: RevisableSite;
let fake: FakeServer;
beforeAll(async () => {
  [site, shop, fake] = await Promise.all([startFixtureSite(), startRevisableSite(), startFakeOpenAi(responder, { apiKey: 'sk-typed' })]);
  svc = await startTestService({
    GLEANER_EGRESS_ALLOW: `${new URL(site.baseUrl).host},${shop.hostPort}`,
    GLEANER_LLM_BASE_URL: `${fake.url}/v1`,
    GLEANER_LLM_MODEL: 'llama3.1',
    GLEANER_LLM_API_KEY: 'sk-typed',
  });
});
afterAll(async () => {
  await svc?.destroy();
  await Promise.all([site?.close(), shop?.close(), fake?.close()]);
});

/** RFC 4180 rows (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  return rows;
}

const scrape = (json: Record<string, unknown>) => svc.call('/v1/scrape', { method: 'POST', json: { engine: 'http', ...json } });

describe('POST /v1/scrape with typed formats', () => {
  it('answers product from JSON-LD with provenance, and null for the kinds the page is not', async () => {
    const r = await scrape({ url: `${site.baseUrl}/typed/product`, formats: ['product', 'article', 'job_posting'] });

    expect(r.status).toBe(200);
    expect(r.body.product).toMatchObject({ name: 'Blue kettle 1.7 l', price: '24.50', currency: 'EUR', availability: 'InStock', sku: 'BK-17', brand: { name: 'Acme' }, breadcrumbs: [{ name: 'Kitchen', url: `${site.baseUrl}/typed/list` }], canonical_url: `${site.baseUrl}/typed/product`, warnings: [] });
    expect(r.body.product.provenance.price).toEqual({ source: 'json-ld', path: 'ld[0]["@graph"][1].offers.price', confidence: 0.95 });
    expect(r.body.article).toBeNull();
    expect(r.body.job_posting).toBeNull();
    expect(r.body.markdown).toBeUndefined();
  });

  it('reads a page without structured data from the document, struck price as regular_price', async () => {
    const r = await scrape({ url: `${site.baseUrl}/typed/plain`, formats: ['product', 'markdown'] });

    expect(r.status).toBe(200);
    expect(r.body.product).toMatchObject({ name: 'Walnut desk lamp', price: '44.99', regular_price: '59.00', currency: 'USD', availability: 'InStock' });
    expect(r.body.product.sku).toBeUndefined();
    expect(r.body.product.provenance.price.source).toBe('document');
    expect(r.body.markdown).toContain('Walnut desk lamp');
  });

  it('answers product_list and job_posting beside other formats', async () => {
    const list = await scrape({ url: `${site.baseUrl}/typed/list`, formats: ['product_list', 'links'] });
    expect(list.body.product_list).toMatchObject({ category_name: 'Kitchen', next_page_url: `${site.baseUrl}/typed/list?page=2`, page_number: 1 });
    expect(list.body.product_list.products.map((p: { url: string; price: string }) => [p.url, p.price])).toEqual([1, 2, 3].map((i) => [`${site.baseUrl}/typed/item/${i}`, `${10 + i}.00`]));
    expect(list.body.links).toEqual(expect.arrayContaining([`${site.baseUrl}/typed/item/1`]));

    const job = await scrape({ url: `${site.baseUrl}/typed/job`, formats: ['job_posting'] });
    expect(job.body.job_posting).toMatchObject({ job_title: 'Data engineer', date_published: '2026-11-02', hiring_organization: { name: 'Acme' }, employment_type: 'FULL_TIME', job_location: { raw: 'Porto, PT' } });
  });

  it('typed_options.model fills only empty fields through the governed model path, never a value found in the page', async () => {
    const before = fake.calls.length;
    const r = await scrape({ url: `${site.baseUrl}/typed/plain`, formats: ['product'], typed_options: { model: true } });

    expect(r.status).toBe(200);
    expect(r.body.product).toMatchObject({ price: '44.99', sku: 'WDL-1', brand: { name: 'Lumen Works' } });
    expect(r.body.product.provenance.price.source).toBe('document');
    expect(r.body.product.provenance.sku).toEqual({ source: 'model', path: '/product/sku', confidence: 0.5 });
    const call = fake.calls[before]!;
    // Asked only for what was empty; the page went as fenced data.
    expect(Object.keys((call.schema as { properties: { product: { properties: object } } }).properties.product.properties)).not.toContain('price');
    expect(call.userTexts[0]).toMatch(/<<<PAGE_CONTENT [0-9a-f]{12}>>>/);
    // Metered and audited as the json format is.
    await svc.deps.audit.flush();
    const audit = await svc.call('/dashboard/api/audit?action=model.extract&limit=200');
    expect(audit.body.data.some((a: { resource: string }) => a.resource === `${site.baseUrl}/typed/plain`)).toBe(true);
  });

  it('MCP scrape takes the typed formats and returns the object as structured content', async () => {
    const client = await mcpClient(svc.url, svc.key, 'typed-test');
    try {
      const r = await client.callTool({ name: 'scrape', arguments: { url: `${site.baseUrl}/typed/product`, engine: 'http', formats: ['product'] } });
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as { product: { price: string } }).product).toMatchObject({ price: '24.50', sku: 'BK-17' });
    } finally {
      await client.close();
    }
  });

  it('refuses bad typed_options and watch lists with 400', async () => {
    const noTyped = await scrape({ url: `${site.baseUrl}/typed/plain`, formats: ['markdown'], typed_options: { model: true } });
    expect(noTyped.status).toBe(400);
    expect(noTyped.body.code).toBe('invalid_request');
    const badWatch = await scrape({ url: `${site.baseUrl}/typed/plain`, formats: ['product', 'changes'], change_options: { watch: ['product/price'] } });
    expect(badWatch.status).toBe(400);
    const tooMany = await scrape({ url: `${site.baseUrl}/typed/plain`, formats: ['product', 'changes'], change_options: { watch: Array.from({ length: 21 }, (_, i) => `/product/x${i}`) } });
    expect(tooMany.status).toBe(400);
  });
});

describe('typed formats in runs', () => {
  const run = async (body: Record<string, unknown>) => {
    const c = await svc.call('/v1/runs', { method: 'POST', json: body });
    expect(c.status).toBe(201);
    const done = await svc.call(`/v1/runs/${c.body.id}?wait=30`);
    expect(done.body.status).toBe('succeeded');
    return c.body.id as string;
  };

  it('page-content items carry the typed object, and the CSV export names its columns', async () => {
    const id = await run({ scraper_id: 'page-content', input: { url: `${site.baseUrl}/typed/product`, engine: 'http', formats: ['product'] } });
    const items = await svc.call(`/v1/runs/${id}/results`);
    expect(items.body.data[0].data.product).toMatchObject({ price: '24.50', currency: 'EUR', sku: 'BK-17' });
    const csv = await svc.call(`/v1/runs/${id}/results?format=csv`);
    const [cols, row] = parseCsv(csv.text);
    expect(cols).toEqual(expect.arrayContaining(['product.price', 'product.currency', 'product.availability', 'product.sku', 'product.sources']));
    expect(row![cols!.indexOf('product.price')]).toBe('24.50');
    expect(row![cols!.indexOf('product.brand')]).toBe('Acme');
  });

  it('site-crawl items carry the typed objects of each page', async () => {
    const id = await run({ scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/typed/list`, engine: 'http', max_pages: 1, max_depth: 0, sitemap: 'skip', formats: ['product_list', 'product'] } });
    const items = await svc.call(`/v1/runs/${id}/results`);
    const start = items.body.data.find((i: { url: string }) => i.url === `${site.baseUrl}/typed/list`);
    expect(start.data.product).toBeNull();
    expect(start.data.product_list.products).toHaveLength(3);
  });

  it('css-extract records carry the typed object beside the selected fields', async () => {
    const id = await run({ scraper_id: 'css-extract', input: { url: `${site.baseUrl}/typed/plain`, engine: 'http', fields: { title: { selector: 'h1' } }, formats: ['product'] } });
    const items = await svc.call(`/v1/runs/${id}/results`);
    expect(items.body.data[0].data).toMatchObject({ title: 'Walnut desk lamp', product: { price: '44.99', currency: 'USD' } });
  });
});

describe('watching a price and the stock', () => {
  const page = (price: string, stock: string, blurb: string) => ({
    html: `<!doctype html><html lang="en-US"><head><meta charset="utf-8"><title>Desk</title></head><body><main><h1>Oak desk</h1><div class="buy"><span class="price">${price}</span><p>${stock}</p><button ${stock === 'Sold out' ? 'disabled' : ''}>Add to cart</button></div><p>${blurb}</p></main></body></html>`,
  });
  const watch = () => scrape({ url: `${shop.baseUrl}/desk`, formats: ['product', 'changes'], change_options: { tag: 'price-watch', watch: ['/product/price', '/product/availability'] } });

  it('is changed only when a watched value moved: a price drop, then a restock', async () => {
    shop.pages.set('/desk', page('$300.00', 'Sold out', 'Solid oak.'));
    expect((await watch()).body.change.status).toBe('new');

    // Only the blurb changed: not a change for this watch.
    shop.pages.set('/desk', page('$300.00', 'Sold out', 'Solid oak, oiled by hand.'));
    expect((await watch()).body.change).toMatchObject({ status: 'same', fields: null });

    // A price drop.
    shop.pages.set('/desk', page('$249.00', 'Sold out', 'Solid oak, oiled by hand.'));
    const drop = await watch();
    expect(drop.body.change.status).toBe('changed');
    expect(drop.body.change.fields['/product/price']).toEqual({ previous: '300.00', current: '249.00' });

    // Back in stock.
    shop.pages.set('/desk', page('$249.00', 'In stock', 'Solid oak, oiled by hand.'));
    const restock = await watch();
    expect(restock.body.change.status).toBe('changed');
    expect(restock.body.change.fields['/product/availability']).toEqual({ previous: 'OutOfStock', current: 'InStock' });
    const history = await svc.call(`/v1/changes?url=${encodeURIComponent(`${shop.baseUrl}/desk`)}&tag=price-watch`);
    expect(history.body.data.map((c: { status: string }) => c.status)).toEqual(['changed', 'changed', 'new']);
  });
});
