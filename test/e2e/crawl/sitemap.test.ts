import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, toolJson as json } from '../../support/mcp-client.js';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startSitemapSite, type SitemapSite } from '../../fixtures/sitemap-site.js';
import { run as admin } from '../../../functions/cli/admin.js';

// Sitemaps through the API (issue 21): a site whose /hidden, /gz and /text pages are reachable
// only from its sitemaps (robots.txt Sitemap: lines, an index, a gzipped part, a text sitemap,
// /sitemap.xml), crawled with sitemap include, only and skip; the site-map scraper and the MCP
// map_site tool on the same site.
let svc: TestService;
let site: SitemapSite;
let hostile: SitemapSite;
beforeAll(async () => {
  site = await startSitemapSite();
  hostile = await startSitemapSite({ mode: 'hostile' });
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: [site, hostile].map((s) => new URL(s.baseUrl).host).join(',') });
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
  await hostile?.close();
});

type Item = { url: string; status_code: number; data: Record<string, unknown> };

async function runToEnd(body: unknown, key?: string) {
  const c = await svc.call('/v1/runs', { method: 'POST', json: body, key });
  expect(c.status, c.text).toBe(201);
  let run = c.body;
  while (run.status === 'queued' || run.status === 'running') run = (await svc.call(`/v1/runs/${run.id}?wait=10`, { key })).body;
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const page = await svc.call(`/v1/runs/${run.id}/results?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { key });
    items.push(...page.body.data);
    cursor = page.body.next_cursor;
  } while (cursor);
  return { run, items };
}
const crawl = (input: Record<string, unknown>) => runToEnd({ scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/`, max_pages: 100, max_depth: 2, engine: 'http', ...input } });
const pathsOf = (items: Item[]) => items.map((i) => new URL(i.url).pathname).sort();
const SITEMAP_ONLY = ['/gz/1', '/gz/2', '/gz/3', '/hidden/1', '/hidden/2', '/hidden/3', '/hidden/4', '/hidden/5', '/text/1', '/text/2'];

describe('site-crawl with sitemaps', () => {
  it('include (default): seeds from every sitemap, follows links too, marks sitemap-only pages; robots and same-site still apply', async () => {
    const { run, items } = await crawl({});
    expect(run.status).toBe('succeeded');
    expect(pathsOf(items)).toEqual(['/', '/linked/1', '/linked/2', ...SITEMAP_ONLY].sort());
    const via = (p: string) => items.find((i) => new URL(i.url).pathname === p)?.data.via;
    for (const p of SITEMAP_ONLY) expect(via(p), p).toBe('sitemap');
    // Linked from the start page: found by its link, not through the sitemap that also lists it.
    expect(via('/linked/1')).toBeUndefined();
    expect(via('/linked/2')).toBeUndefined();
    expect(items.find((i) => i.url.endsWith('/hidden/1'))!.data.depth).toBe(1);
    // In a sitemap but disallowed by robots.txt: never fetched, counted as a robots skip.
    expect(site.hits('/private/secret')).toBe(0);
    expect(run.stats.robots_skipped).toBeGreaterThanOrEqual(1);
    // 4 sitemap fetches (index, gzipped part, text, /sitemap.xml) count as requests.
    expect(run.stats.requests).toBe(items.length + 4);
    const log = (await svc.call(`/v1/runs/${run.id}/log?limit=200`)).body.data as { url: string; reason?: string }[];
    expect(log.find((l) => l.url.endsWith('/sitemaps/part-1.xml.gz'))?.reason).toMatch(/sitemap \(gzip\): 3 URL/);
  });

  it('only: the sitemap URLs (and the start page), no links followed', async () => {
    const { run, items } = await crawl({ sitemap: 'only' });
    expect(run.status).toBe('succeeded');
    // /linked/1 is in /sitemap.xml; /linked/2 is only linked from the start page.
    expect(pathsOf(items)).toEqual(['/', '/linked/1', ...SITEMAP_ONLY].sort());
  });

  it('skip: links only, no sitemap read', async () => {
    const before = site.hits('/sitemap.xml');
    const { run, items } = await crawl({ sitemap: 'skip' });
    expect(run.status).toBe('succeeded');
    expect(pathsOf(items)).toEqual(['/', '/linked/1', '/linked/2']);
    expect(site.hits('/sitemap.xml')).toBe(before);
  });

  it('max_pages is never exceeded, include/exclude filter sitemap URLs, max_depth 0 takes no seeds', async () => {
    const capped = await crawl({ max_pages: 5 });
    expect(capped.run.status).toBe('succeeded');
    expect(capped.items).toHaveLength(5);
    const filtered = await crawl({ exclude: ['/hidden/**', '/gz/*'] });
    expect(pathsOf(filtered.items)).toEqual(['/', '/linked/1', '/linked/2', '/text/1', '/text/2']);
    const flat = await crawl({ max_depth: 0 });
    expect(pathsOf(flat.items)).toEqual(['/']);
  });

  it('refuses a bad sitemap mode with a clear 400', async () => {
    const r = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/`, sitemap: 'sometimes' } } });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('body.input.sitemap');
  });
});

describe('hostile sitemaps through the service', () => {
  it('a crawl seeded from a gzip bomb, an endless body, loops, a cross-host index, XXE and 150,000 entries finishes within max_pages, and its log says why', async () => {
    const { run, items } = await runToEnd({ scraper_id: 'site-crawl', input: { start_url: `${hostile.baseUrl}/`, max_pages: 40, max_depth: 2, engine: 'http', sitemap: 'only' } });
    expect(run.status).toBe('succeeded');
    expect(items.length).toBeLessThanOrEqual(40);
    expect(items.some((i) => i.url.includes('/many/') && i.data.via === 'sitemap')).toBe(true);
    expect(items.some((i) => /xxe|passwd/.test(i.url))).toBe(false);
    // Read to the 50 MB cap and no further (plus what sat in socket buffers).
    expect(hostile.endlessBytes()).toBeLessThan(80 * 1024 * 1024);
    expect(hostile.hits('/sitemaps/self-index.xml')).toBe(1);
    const log: { url: string; reason?: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await svc.call(`/v1/runs/${run.id}/log?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      log.push(...page.body.data);
      cursor = page.body.next_cursor;
    } while (cursor);
    const reason = (file: string) => log.filter((l) => l.url.endsWith(file)).map((l) => l.reason).join(' | ');
    expect(reason('/sitemaps/bomb.xml.gz')).toMatch(/gzip.*truncated at 50 MB/);
    expect(reason('/sitemaps/endless.xml')).toMatch(/truncated at 50 MB/);
    expect(reason('/sitemaps/self-index.xml')).toMatch(/already visited.*on another site skipped/);
    expect(reason('elsewhere.invalid/sitemap.xml')).toMatch(/another site/);
    expect(reason('/sitemaps/many.xml')).toMatch(/URL limit 40 reached/);
  });
});

describe('site-map scraper and MCP map_site', () => {
  it('lists the site, sitemap URLs first then page links, with sources, titles and lastmod', async () => {
    const listed = (await svc.call('/v1/scrapers')).body.data.map((s: { scraper_id: string }) => s.scraper_id);
    expect(listed).toContain('site-map');
    const { run, items } = await runToEnd({ scraper_id: 'site-map', input: { url: `${site.baseUrl}/` } });
    expect(run.status).toBe('succeeded');
    const data = items.map((i) => i.data as { url: string; source: string; title: string | null; lastmod: string | null });
    expect(data.filter((d) => d.source === 'sitemap').map((d) => new URL(d.url).pathname).sort()).toEqual(['/', '/linked/1', '/private/secret', ...SITEMAP_ONLY].sort());
    expect(data.filter((d) => d.source === 'page').map((d) => new URL(d.url).pathname)).toEqual(['/linked/2']);
    expect(data.find((d) => d.url.endsWith('/gz/1'))!.title).toBe('First gzipped news');
    expect(data.find((d) => d.url.endsWith('/hidden/3'))!.lastmod).toBe('2026-11-01');
    const searched = await runToEnd({ scraper_id: 'site-map', input: { url: `${site.baseUrl}/`, search: 'text', limit: 3 } });
    expect(searched.items.map((i) => new URL(i.url).pathname)).toEqual(['/text/1', '/text/2', '/gz/1']); // then sitemap order
    const bad = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-map', input: { url: `${site.baseUrl}/`, limit: 100_001 } } });
    expect(bad.status).toBe(400);
  });

  it('map_site returns the URLs; it needs the runs:write scope', async () => {
    const connect = (key: string) => mcpClient(svc.url, key);
    const c = await connect(svc.key);
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('map_site');
    const out = json(await c.callTool({ name: 'map_site', arguments: { url: `${site.baseUrl}/`, sitemap: 'only' } }));
    expect(out).toMatchObject({ status: 'succeeded', total: 13, next_cursor: null });
    expect(out.urls.map((u: string) => new URL(u).pathname).sort()).toEqual(['/', '/linked/1', '/private/secret', ...SITEMAP_ONLY].sort());
    const bad = await c.callTool({ name: 'map_site', arguments: { url: 'ftp://example.com/' } });
    expect(bad.isError).toBe(true);
    await c.close();
    const k = (await admin(['keys', 'create', '--tenant', svc.tenantId, '--scopes', 'runs:read'], svc.deps.table)) as { api_key: string };
    const ro = await connect(k.api_key);
    const denied = await ro.callTool({ name: 'map_site', arguments: { url: `${site.baseUrl}/` } });
    expect(denied.isError).toBe(true);
    expect(json(denied)).toMatchObject({ code: 'forbidden' });
    await ro.close();
  });
});
