import { describe, expect, it } from 'vitest';
import { BUILTIN_SCRAPERS, builtinScraper, describeScraper } from '../../../functions/core/scrapers/registry.js';

const parse = (id: string, input: unknown) => builtinScraper(id)!.inputSchema.safeParse(input);

describe('scraper registry', () => {
  it('lists page-content, css-extract, site-crawl and site-map with JSON Schemas', () => {
    expect(BUILTIN_SCRAPERS.map((s) => s.scraper_id)).toEqual(['page-content', 'css-extract', 'site-crawl', 'site-map', 'web-search']);
    for (const s of BUILTIN_SCRAPERS) {
      const d = describeScraper(s);
      // site-map reads sitemaps and one page's links over http only; web-search asks a provider's API (its scrape options pick the engine per result).
      expect(d).toMatchObject({ builtin: true, engine: s.scraper_id === 'site-map' || s.scraper_id === 'web-search' ? 'http' : 'auto' });
      expect(d.input_schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(JSON.parse(JSON.stringify(d))).toEqual(d); // plain data
    }
    expect(builtinScraper('nope')).toBeUndefined();
  });

  it('marks required inputs in the JSON Schema (defaults stay optional)', () => {
    expect(builtinScraper('page-content')!.input_schema.required).toEqual(['url']);
    expect(builtinScraper('css-extract')!.input_schema.required).toEqual(['url', 'fields']);
    expect(builtinScraper('site-crawl')!.input_schema.required).toEqual(['start_url']);
  });
});

describe('page-content input', () => {
  it('accepts a URL and applies defaults', () => {
    const r = parse('page-content', { url: 'https://example.com/' });
    expect(r.success && r.data).toEqual({ url: 'https://example.com/', engine: 'auto' });
  });

  it.each([
    [{}, 'url'],
    [{ url: 'ftp://example.com/' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'https://example.com/', engine: 'fast' }, 'engine'],
    [{ url: 'https://example.com/', extra: 1 }, ''],
    [{ url: 'https://example.com/', wait_for: 'div[[' }, 'wait_for'],
    [{ url: 'https://example.com/', timeout_ms: 10 }, 'timeout_ms'],
  ])('rejects %j (issue at %s)', (input, path) => {
    const r = parse('page-content', input);
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues.map((i) => i.path.join('.'))).toContain(path);
  });
});

describe('css-extract input', () => {
  it('accepts fields, item selector, pagination', () => {
    const r = parse('css-extract', {
      url: 'https://example.com/products',
      fields: { name: { selector: '.name' }, link: { selector: 'a', attr: 'href' }, tags: { selector: '.tag', all: true } },
      item_selector: 'li.product',
      next_page: 'a.next',
      max_pages: 3,
    });
    expect(r.success).toBe(true);
  });

  it('rejects empty fields, unknown field keys and too many pages', () => {
    const base = { url: 'https://example.com/' };
    expect(parse('css-extract', { ...base, fields: {} }).success).toBe(false);
    expect(parse('css-extract', { ...base, fields: { a: { selector: 'a', xpath: 'x' } } }).success).toBe(false);
    expect(parse('css-extract', { ...base, fields: { a: { selector: 'a' } }, max_pages: 101 }).success).toBe(false);
  });
});

describe('site-crawl input', () => {
  it('applies defaults', () => {
    const r = parse('site-crawl', { start_url: 'https://example.com/' });
    expect(r.success && r.data).toEqual({
      start_url: 'https://example.com/',
      max_pages: 50,
      max_depth: 5,
      include: [],
      exclude: [],
      engine: 'auto',
      concurrency: 4,
      sitemap: 'include',
    });
  });

  it('keeps a crawl started inside a section in that section unless include says otherwise', () => {
    const inc = (start_url: string, more = {}) => {
      const r = parse('site-crawl', { start_url, ...more });
      return r.success ? (r.data as { include: string[] }).include : r.error;
    };
    expect(inc('https://example.com/site/')).toEqual(['/site/**']);
    expect(inc('https://example.com/site/page.html?x=1')).toEqual(['/site/**']);
    expect(inc('https://example.com/docs/v2/')).toEqual(['/docs/v2/**']);
    expect(inc('https://example.com/')).toEqual([]);
    expect(inc('https://example.com/about')).toEqual([]);
    expect(inc('https://example.com/site/', { include: ['/**'] })).toEqual(['/**']);
    expect(inc('https://example.com/a*b/')).toEqual([]);
  });

  it('rejects bad patterns and out-of-range limits', () => {
    const base = { start_url: 'https://example.com/' };
    expect(parse('site-crawl', { ...base, include: ['/(unclosed/'] }).success).toBe(false);
    // Large crawls (API.md): up to 100,000 pages and 20 hops, no more.
    expect(parse('site-crawl', { ...base, max_depth: 20, max_pages: 100_000 }).success).toBe(true);
    expect(parse('site-crawl', { ...base, max_depth: 21 }).success).toBe(false);
    expect(parse('site-crawl', { ...base, max_pages: 100_001 }).success).toBe(false);
    expect(parse('site-crawl', { ...base, max_pages: 0 }).success).toBe(false);
    expect(parse('site-crawl', { ...base, url: 'https://example.com/' }).success).toBe(false);
    expect(parse('site-crawl', { ...base, sitemap: 'only' }).success).toBe(true);
    expect(parse('site-crawl', { ...base, sitemap: 'always' }).success).toBe(false);
  });
});

describe('site-map input', () => {
  it('applies defaults and bounds the limit', () => {
    const r = parse('site-map', { url: 'https://example.com/' });
    expect(r.success && r.data).toEqual({ url: 'https://example.com/', include_subdomains: false, sitemap: 'include', limit: 5000 });
    expect(parse('site-map', { url: 'https://example.com/', limit: 100_000, search: 'pricing', include_subdomains: true, sitemap: 'skip' }).success).toBe(true);
    for (const bad of [{ limit: 0 }, { limit: 100_001 }, { search: '' }, { sitemap: 'never' }, { start_url: 'https://example.com/' }]) expect(parse('site-map', { url: 'https://example.com/', ...bad }).success, JSON.stringify(bad)).toBe(false);
    expect(parse('site-map', { url: 'ftp://example.com/' }).success).toBe(false);
  });
});
