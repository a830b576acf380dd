import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cssExtract, pageContent } from '../../../functions/core/scrapers/registry.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { collectingContext, makeHarness, type Harness } from './harness.js';

let site: FixtureSite;
let h: Harness;

beforeAll(async () => {
  site = await startFixtureSite();
  h = makeHarness({ fixturePort: site.port });
});

afterAll(async () => {
  await h?.close();
  await site?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;
const paths = (items: { url: string }[]) => items.map((i) => new URL(i.url).pathname + new URL(i.url).search);

describe('page-content', () => {
  it.each(['http', 'browser'] as const)('returns title, text, markdown, links and metadata (%s)', async (engine) => {
    const c = collectingContext(h.engine);
    const out = await pageContent.run(pageContent.inputSchema.parse({ url: url('/article'), engine }), c.ctx);
    expect(out).toEqual({ pages_done: 1, items: 1, stopped: 'done' });
    expect(c.items).toHaveLength(1);
    const item = c.items[0];
    expect(item).toMatchObject({ url: url('/article'), status_code: 200 });
    expect(item.data).toMatchObject({ title: 'A Long Article', engine_used: engine, metadata: { lang: 'en-GB' } });
    expect(item.data.markdown).toMatch(/^# The article headline/);
    expect(item.data.links).toContain(url('/about'));
    expect(c.progress.at(-1)).toEqual({ pages_done: 1, pages_total: 1 });
  });

  it('emits nothing for a robots-disallowed page', async () => {
    const c = collectingContext(h.engine);
    const out = await pageContent.run(pageContent.inputSchema.parse({ url: url('/private/a') }), c.ctx);
    expect(out.items).toBe(0);
    expect(c.items).toEqual([]);
  });
});

describe('css-extract', () => {
  it('follows the next link across 3 pages, one item per product', async () => {
    const c = collectingContext(h.engine);
    const input = cssExtract.inputSchema.parse({
      url: url('/products?page=1'),
      item_selector: 'li.product',
      fields: { name: { selector: '.name' }, price: { selector: '.price' }, link: { selector: 'a.detail', attr: 'href' } },
      next_page: 'a.next',
      max_pages: 10,
      engine: 'http',
    });
    const out = await cssExtract.run(input, c.ctx);
    expect(out).toEqual({ pages_done: 3, items: 12, stopped: 'done' });
    expect(c.items.map((i) => i.data.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Product ${i + 1}`));
    expect(c.items[11]).toMatchObject({ url: url('/products?page=3'), status_code: 200, data: { price: '$30.00', link: url('/products/12') } });
    expect(new Set(paths(c.items))).toEqual(new Set(['/products?page=1', '/products?page=2', '/products?page=3']));
  });

  it('respects max_pages and gives one item per page without item_selector', async () => {
    const c = collectingContext(h.engine);
    const out = await cssExtract.run(
      cssExtract.inputSchema.parse({
        url: url('/products?page=1'),
        fields: { names: { selector: '.name', all: true }, heading: { selector: 'h1' } },
        next_page: 'a.next',
        max_pages: 2,
      }),
      c.ctx,
    );
    expect(out.pages_done).toBe(2);
    expect(c.items.map((i) => i.data)).toEqual([
      { names: ['Product 1', 'Product 2', 'Product 3', 'Product 4'], heading: 'Products (page 1 of 3)' },
      { names: ['Product 5', 'Product 6', 'Product 7', 'Product 8'], heading: 'Products (page 2 of 3)' },
    ]);
  });

  it('works with the browser engine', async () => {
    const c = collectingContext(h.engine);
    await cssExtract.run(
      cssExtract.inputSchema.parse({
        url: url('/products?page=2'),
        item_selector: 'li.product',
        fields: { id: { selector: '.name' } },
        engine: 'browser',
      }),
      c.ctx,
    );
    expect(c.items.map((i) => i.data.id)).toEqual(['Product 5', 'Product 6', 'Product 7', 'Product 8']);
  });
});
