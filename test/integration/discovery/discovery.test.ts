import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSitemapSite, type SitemapSite } from '../../fixtures/sitemap-site.js';
import { collectingContext, makeHarness, type Harness } from '../engine/harness.js';
import { discoverSitemaps } from '../../../functions/core/discovery/discover-sitemaps.js';
import { inSiteScope } from '../../../functions/core/discovery/site-scope.js';
import { siteMap } from '../../../functions/core/scrapers/site-map.js';
import type { SiteMapInput } from '../../../functions/core/scrapers/site-map-spec.js';

const scope = (start: string) => (u: string) => inSiteScope(u, start);
const paths = (urls: { url: string }[]) => urls.map((u) => new URL(u.url).pathname);

describe('sitemap discovery through the engine (normal site)', () => {
  let site: SitemapSite;
  let h: Harness;
  beforeAll(async () => {
    site = await startSitemapSite();
    h = makeHarness({ fixturePort: site.port });
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it("reads robots.txt's Sitemap: lines, the index, its gzipped part, the text sitemap and /sitemap.xml; each fetch counted and logged", async () => {
    const start = `${site.baseUrl}/`;
    const before = h.engine.stats().requests;
    const r = await discoverSitemaps(h.engine, start, { maxUrls: 1000, acceptUrl: scope(start), acceptSitemap: scope(start) });
    expect(paths(r.urls).sort()).toEqual(['/', '/gz/1', '/gz/2', '/gz/3', '/hidden/1', '/hidden/2', '/hidden/3', '/hidden/4', '/hidden/5', '/linked/1', '/private/secret', '/text/1', '/text/2'].sort());
    // Sitemap order: the index's gzipped part first (robots.txt names it first).
    expect(paths(r.urls).slice(0, 3)).toEqual(['/gz/1', '/gz/2', '/gz/3']);
    expect(r.urls.find((u) => u.url.endsWith('/gz/1'))!.title).toBe('First gzipped news');
    expect(r.urls.find((u) => u.url.endsWith('/hidden/1'))!.lastmod).toBe('2026-11-01');
    // index.xml lists itself: fetched once. 4 sitemaps: index, part-1.xml.gz, pages.txt, sitemap.xml.
    expect(site.hits('/sitemaps/index.xml')).toBe(1);
    expect(r.fetched).toBe(4);
    expect(h.engine.stats().requests - before).toBe(4);
    const lines = h.logs.filter((l) => l.url.includes('sitemap') || l.url.endsWith('.txt'));
    expect(lines.find((l) => l.url.endsWith('part-1.xml.gz'))?.reason).toMatch(/^sitemap \(gzip\): 3 URL\(s\); 1 duplicate/);
    expect(lines.find((l) => l.url.endsWith('/sitemaps/index.xml'))?.reason).toMatch(/1 child sitemap\(s\); 1 index entry already visited/);
    expect(lines.find((l) => l.url.endsWith('/sitemap.xml'))?.reason).toMatch(/1 off-site or filtered out/);
  });

  it('stops at the URL cap', async () => {
    const start = `${site.baseUrl}/`;
    const r = await discoverSitemaps(h.engine, start, { maxUrls: 2, acceptUrl: scope(start), acceptSitemap: scope(start) });
    expect(r.urls).toHaveLength(2);
    expect(r.fetched).toBe(2); // the index, then its part: the cap is met there
  });

  const run = async (input: Partial<SiteMapInput>) => {
    const { ctx, items } = collectingContext(h.engine);
    const out = await siteMap.run(siteMap.inputSchema.parse({ url: `${site.baseUrl}/`, ...input }), ctx);
    return { out, items };
  };

  it('site-map: sitemap URLs then the page links, normalised, de-duplicated, with titles and sources', async () => {
    const { out, items } = await run({});
    const data = items.map((i) => i.data as { url: string; source: string; title: string | null; lastmod: string | null });
    expect(new Set(data.map((d) => d.url)).size).toBe(data.length);
    expect(data.filter((d) => d.source === 'sitemap')).toHaveLength(13);
    // The page adds /linked/2 (the rest it links to are in the sitemaps already).
    expect(data.filter((d) => d.source === 'page').map((d) => new URL(d.url).pathname)).toEqual(['/linked/2']);
    expect(data.find((d) => d.url.endsWith('/linked/2'))!.title).toBe('linked 2');
    expect(items.every((i) => i.url === (i.data as { url: string }).url && i.status_code === 0)).toBe(true);
    expect(out).toMatchObject({ items: 14, stopped: 'done' });
  });

  it('site-map: search orders by relevance; only/skip choose the sources; limit caps the items', async () => {
    const ranked = (await run({ search: 'gzipped news' })).items.map((i) => new URL(i.url).pathname);
    expect(ranked[0]).toBe('/gz/1'); // its title matches both words
    expect(ranked).toHaveLength(14);
    const only = (await run({ sitemap: 'only' })).items;
    expect(only.every((i) => (i.data as { source: string }).source === 'sitemap')).toBe(true);
    const skip = (await run({ sitemap: 'skip' })).items.map((i) => new URL(i.url).pathname);
    expect(skip).toEqual(['/', '/linked/1', '/linked/2']);
    expect((await run({ limit: 5 })).items).toHaveLength(5);
  });
});

describe('hostile sitemaps get bounded work', () => {
  let site: SitemapSite;
  let h: Harness;
  beforeAll(async () => {
    site = await startSitemapSite({ mode: 'hostile', hang: true });
    h = makeHarness({ fixturePort: site.port });
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('self-referencing and looping indexes, a cross-host child, a gzip bomb, an endless body, a hang, XXE and malformed XML', async () => {
    const start = `${site.baseUrl}/`;
    const t0 = Date.now();
    const r = await discoverSitemaps(h.engine, start, {
      maxUrls: 1_000_000,
      acceptUrl: scope(start),
      acceptSitemap: scope(start),
      maxBytes: 8 * 1024 * 1024,
      // Long enough for 8 MB on a busy machine; the hanging sitemap waits it out once.
      timeoutMs: 10_000,
    });
    expect(Date.now() - t0).toBeLessThan(45_000); // a bound, not a timing target: nothing hangs
    for (const s of ['self-index.xml', 'loop-a.xml', 'loop-b.xml', 'bomb.xml.gz', 'encoded-bomb.xml', 'endless.xml', 'xxe.xml', 'malformed.xml', 'hang.xml']) expect(site.hits(`/sitemaps/${s}`)).toBe(1);
    // Named by robots.txt but disallowed by it: never fetched, logged as a robots skip.
    expect(site.hits('/private/sitemap.xml')).toBe(0);
    expect(h.logs.some((l) => l.url.endsWith('/private/sitemap.xml') && l.decision === 'robots_skipped')).toBe(true);
    expect(r.notes.some((n) => /private\/sitemap.xml: sitemap skipped: disallowed by robots.txt/.test(n))).toBe(true);
    // The endless body was read to the cap and no further (plus what sat in socket buffers).
    expect(site.endlessBytes()).toBeLessThan(40 * 1024 * 1024);
    const reason = (file: string) => h.logs.filter((l) => l.url.endsWith(`/sitemaps/${file}`)).map((l) => l.reason).join(' | ');
    expect(reason('bomb.xml.gz')).toMatch(/gzip.*truncated at 8 MB/);
    // Its one entry (the bomb's) is a duplicate by then; inflated by the HTTP client, cut at the same cap.
    expect(reason('encoded-bomb.xml')).toMatch(/^sitemap: 0 URL\(s\); 1 duplicate\(s\); body truncated at 8 MB/);
    expect(reason('endless.xml')).toMatch(/truncated at 8 MB/);
    expect(reason('self-index.xml')).toMatch(/already visited.*1 child sitemap\(s\) on another site skipped/);
    expect(reason('loop-b.xml')).toMatch(/2 index entries already visited/);
    expect(reason('hang.xml')).toMatch(/timed out/);
    expect(h.logs.some((l) => l.url.startsWith('http://elsewhere.invalid/sitemap.xml') && /another site/.test(l.reason ?? ''))).toBe(true);
    expect(h.logs.some((l) => l.url.includes('elsewhere.invalid') && l.decision === 'fetched')).toBe(false);
    expect(h.refused).toEqual([]); // nothing even tried to reach another host
    // 150,000 entries (13 MB): read up to the 8 MB cap; the XXE entity never resolved.
    const many = r.urls.filter((u) => u.url.includes('/many/')).length;
    expect(many).toBeGreaterThan(50_000);
    expect(many).toBeLessThan(150_000);
    expect(reason('many.xml')).toMatch(/^sitemap: \d+ URL\(s\);.*body truncated at 8 MB/);
    expect(r.urls.some((u) => /xxe|passwd|root:/.test(u.url))).toBe(false);
    expect(paths(r.urls).filter((p) => p.startsWith('/hidden/')).sort()).toEqual(['/hidden/1', '/hidden/2', '/hidden/3', '/hidden/4', '/hidden/5']);
    expect(reason('malformed.xml')).toMatch(/malformed entr/);
  });

  it('a huge sitemap stops at the URL cap, and the fetch cap bounds the number of sitemaps', async () => {
    const start = `${site.baseUrl}/`;
    const capped = await discoverSitemaps(h.engine, start, { maxUrls: 10, acceptUrl: scope(start), acceptSitemap: scope(start), maxSitemaps: 3, timeoutMs: 2_000, maxBytes: 1024 * 1024 });
    expect(capped.urls.length).toBeLessThanOrEqual(10);
    expect(capped.fetched).toBeLessThanOrEqual(3);
    const few = await discoverSitemaps(h.engine, start, { maxUrls: 1_000_000, acceptUrl: scope(start), acceptSitemap: scope(start), maxSitemaps: 2, timeoutMs: 2_000, maxBytes: 1024 * 1024 });
    expect(few.fetched).toBe(2);
    expect(few.notes.some((n) => /2 sitemaps fetched \(the cap\)/.test(n))).toBe(true);
  });
});

describe('sitemap indexes too wide or too deep', () => {
  let site: SitemapSite;
  let h: Harness;
  beforeAll(async () => {
    site = await startSitemapSite({ mode: 'hostile', robotsSitemaps: ['/sitemaps/deep-0.xml', '/sitemaps/wide-index.xml'] });
    h = makeHarness({ fixturePort: site.port });
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('follows index nesting to depth 4 only, and an index of 100,000 sitemaps costs at most the fetch cap', async () => {
    const start = `${site.baseUrl}/`;
    const r = await discoverSitemaps(h.engine, start, { maxUrls: 1_000_000, acceptUrl: scope(start), acceptSitemap: scope(start), timeoutMs: 5_000 });
    // deep-0 (depth 0) .. deep-4 (depth 4) are read; deep-5 would be depth 5.
    for (let i = 0; i <= 4; i++) expect(site.hits(`/sitemaps/deep-${i}.xml`), `deep-${i}`).toBe(1);
    expect(site.hits('/sitemaps/deep-5.xml')).toBe(0);
    expect(h.logs.find((l) => l.url.endsWith('/sitemaps/deep-4.xml'))?.reason).toMatch(/1 child sitemap\(s\) past the index depth cap skipped/);
    expect(r.fetched).toBe(50);
    expect(h.logs.find((l) => l.url.endsWith('/sitemaps/wide-index.xml'))?.reason).toMatch(/child sitemap\(s\) past the sitemap cap skipped/);
    expect(r.notes.some((n) => /50 sitemaps fetched \(the cap\)/.test(n))).toBe(true);
    expect(r.urls.length).toBeLessThanOrEqual(50);
  });
});
