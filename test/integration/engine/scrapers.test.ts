import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cssExtract, pageContent, siteCrawl } from '../../../functions/core/scrapers/registry.js';
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

describe('site-crawl', () => {
  const crawl = async (input: Record<string, unknown>) => {
    const hs = makeHarness({ fixturePort: site.port });
    const c = collectingContext(hs.engine);
    try {
      const out = await siteCrawl.run(siteCrawl.inputSchema.parse({ start_url: url('/crawl/'), engine: 'http', ...input }), c.ctx);
      return { out, items: c.items, stats: hs.engine.stats(), logs: hs.logs };
    } finally {
      await hs.close();
    }
  };

  it('crawls the whole tree breadth-first, same-site only, each page once; robots skips counted', async () => {
    const before = site.hits();
    const { out, items, stats, logs } = await crawl({ max_depth: 3, max_pages: 100 });
    const seen = paths(items);
    // 1 root + 4 + 8 + 16 pages; external links and /private/ never fetched.
    expect(seen).toHaveLength(29);
    expect(new Set(seen).size).toBe(29);
    expect(out).toEqual({ pages_done: 29, items: 29, stopped: 'done' });
    expect(seen[0]).toBe('/crawl/');
    expect(new Set(seen.slice(1, 5))).toEqual(new Set(['/crawl/a', '/crawl/b', '/crawl/c', '/crawl/skip']));
    const depths = items.map((i) => i.data.depth as number);
    expect([...depths].sort((a, b) => a - b)).toEqual(depths); // BFS order
    expect(Math.max(...depths)).toBe(3);
    expect(stats.robots_skipped).toBe(1);
    expect(site.hits('/private/hidden')).toBe(0);
    expect(logs.find((l) => l.decision === 'robots_skipped')?.url).toBe(url('/private/hidden'));
    expect(logs.every((l) => l.url.startsWith(site.baseUrl))).toBe(true);
    // Every fetch is one fixture hit (plus one robots.txt).
    expect(site.hits() - before).toBe(29 + 1);
  });

  it('stops at max_depth', async () => {
    const { items } = await crawl({ max_depth: 1 });
    expect(paths(items).sort()).toEqual(['/crawl/', '/crawl/a', '/crawl/b', '/crawl/c', '/crawl/skip']);
  });

  it('stops at max_pages', async () => {
    const { out, items } = await crawl({ max_depth: 3, max_pages: 3 });
    expect(items).toHaveLength(3);
    expect(out.pages_done).toBe(3);
  });

  it('applies include and exclude patterns (globs and regex)', async () => {
    // A page outside the filter is not fetched, so its links are not followed: include /crawl/a itself.
    const { items } = await crawl({ max_depth: 3, include: ['/crawl/a', '/crawl/a/**', '/crawl/b'], exclude: ['/\\/y$/'] });
    expect(paths(items).sort()).toEqual(['/crawl/', '/crawl/a', '/crawl/a/1', '/crawl/a/1/x', '/crawl/a/2', '/crawl/a/2/x', '/crawl/b']);
  });

  it('stops when the run says so', async () => {
    const hs = makeHarness({ fixturePort: site.port });
    const c = collectingContext(hs.engine, { stopAfterItems: 2 });
    try {
      const out = await siteCrawl.run(
        siteCrawl.inputSchema.parse({ start_url: url('/crawl/'), engine: 'http', concurrency: 1, max_depth: 3 }),
        c.ctx,
      );
      expect(out.stopped).toBe('stopped');
      expect(c.items).toHaveLength(2);
    } finally {
      await hs.close();
    }
  });
});
