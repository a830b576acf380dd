import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { MAX_ELEMENT_CHARS, SitemapParser, xmlText, type SitemapEntry } from '../../../functions/core/discovery/sitemap-parser.js';
import { readSitemapBody } from '../../../functions/core/discovery/sitemap-body.js';
import { inSiteScope } from '../../../functions/core/discovery/site-scope.js';
import { rankByRelevance } from '../../../functions/core/discovery/rank-urls.js';

/** Parse `text` fed in chunks of `size` characters. */
function parse(text: string, size = text.length || 1, cap = Infinity) {
  const out: SitemapEntry[] = [];
  const p = new SitemapParser((e) => {
    out.push(e);
    return out.length < cap;
  });
  for (let i = 0; i < text.length; i += size) p.push(text.slice(i, i + size));
  p.end();
  return { out, stats: p.stats, stopped: p.stopped };
}

async function* chunks(buf: Buffer, size = 4096) {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://example.com/</loc><lastmod>2026-11-01</lastmod></url>
  <url>
    <loc> https://example.com/news/a?x=1&amp;y=2 </loc>
    <news:news><news:title>Big &amp; bold</news:title></news:news>
  </url>
  <url><loc><![CDATA[https://example.com/c&d]]></loc><image:image><image:loc>https://cdn.example.com/i.png</image:loc><image:title>Picture</image:title></image:image></url>
</urlset>`;

describe('sitemap parser', () => {
  it('reads a urlset: loc, lastmod, news and image titles, entities and CDATA, in any chunking', () => {
    for (const size of [URLSET.length, 7, 1]) {
      const { out, stats } = parse(URLSET, size);
      expect(out).toEqual([
        { kind: 'url', loc: 'https://example.com/', lastmod: '2026-11-01', title: null },
        { kind: 'url', loc: 'https://example.com/news/a?x=1&y=2', lastmod: null, title: 'Big & bold' },
        { kind: 'url', loc: 'https://example.com/c&d', lastmod: null, title: 'Picture' },
      ]);
      expect(stats).toMatchObject({ entries: 3, malformed: 0, format: 'xml' });
    }
  });

  it('reads a sitemap index as child sitemaps, not pages', () => {
    const { out } = parse('<sitemapindex><sitemap><loc>https://example.com/s1.xml</loc><lastmod>2026-01-01</lastmod></sitemap><sitemap><loc>https://example.com/s2.xml.gz</loc></sitemap></sitemapindex>', 5);
    expect(out.map((e) => [e.kind, e.loc])).toEqual([
      ['sitemap', 'https://example.com/s1.xml'],
      ['sitemap', 'https://example.com/s2.xml.gz'],
    ]);
  });

  it('reads a plain-text sitemap: one URL per line, other lines dropped', () => {
    const { out, stats } = parse('\uFEFFhttps://example.com/a\r\n\nhttps://example.com/b\nnot a url\n# comment\nhttp://example.com/c', 3);
    expect(out.map((e) => e.loc)).toEqual(['https://example.com/a', 'https://example.com/b', 'http://example.com/c']);
    expect(stats).toMatchObject({ format: 'text', malformed: 1 });
  });

  it('survives malformed XML: an unclosed entry costs that entry only; no <loc> is malformed', () => {
    const xml = '<urlset><url><loc>https://example.com/1</loc><url><loc>https://example.com/2</loc></url><url><lastmod>x</lastmod></url><url/><url><loc>https://example.com/3</loc></url><url><loc>https://example.com/4';
    const { out, stats } = parse(xml, 11);
    expect(out.map((e) => e.loc)).toEqual(['https://example.com/2', 'https://example.com/3']);
    expect(stats.malformed).toBe(4);
  });

  it('never resolves entities or DTDs (XXE): the entity stays literal text', () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY big "https://evil.test/">]>
<urlset><url><loc>&xxe;</loc></url><url><loc>&big;page</loc></url><url><loc>https://example.com/&#x61;&#98;</loc></url></urlset>`;
    const { out } = parse(xml);
    expect(out.map((e) => e.loc)).toEqual(['&xxe;', '&big;page', 'https://example.com/ab']);
    expect(xmlText('&lt;&gt;&quot;&apos;&amp;&unknown;')).toBe('<>"\'&&unknown;');
  });

  it('drops an element longer than the cap instead of buffering it', () => {
    const huge = `<urlset><url><loc>https://example.com/${'a'.repeat(MAX_ELEMENT_CHARS + 10)}</loc></url><url><loc>https://example.com/ok</loc></url></urlset>`;
    const { out, stats } = parse(huge, 64 * 1024);
    expect(out.map((e) => e.loc)).toEqual(['https://example.com/ok']);
    expect(stats.malformed).toBe(1);
  });

  it('stops when the consumer says so (the URL cap), even with 100,000+ entries', () => {
    const big = `<urlset>${Array.from({ length: 120_000 }, (_, i) => `<url><loc>https://example.com/p/${i}</loc></url>`).join('')}</urlset>`;
    const { out, stopped } = parse(big, 16 * 1024, 1000);
    expect(out).toHaveLength(1000);
    expect(out.at(-1)!.loc).toBe('https://example.com/p/999');
    expect(stopped).toBe(true);
  });
});

describe('sitemap bodies', () => {
  const xml = Buffer.from(URLSET);

  it('inflates gzip told by its magic bytes and reads plain bodies as they are', async () => {
    for (const [body, gz] of [[gzipSync(xml), true], [xml, false]] as const) {
      const seen: string[] = [];
      const r = await readSitemapBody(chunks(body, 100), new SitemapParser((e) => void seen.push(e.loc)));
      expect(r).toMatchObject({ gzip: gz, truncated: false, error: null, bytes: xml.length });
      expect(seen).toHaveLength(3);
    }
  });

  it('a gzip bomb is cut off at the decompressed cap', async () => {
    // 64 MB of spaces gzip to ~64 KB (1000:1); the cap stops inflation at 1 MB.
    const bomb = gzipSync(Buffer.concat([Buffer.from('<urlset><url><loc>https://example.com/x</loc></url>'), Buffer.alloc(64 * 1024 * 1024, 32)]), { level: 9 });
    expect(bomb.length).toBeLessThan(256 * 1024);
    const seen: string[] = [];
    const r = await readSitemapBody(chunks(bomb, 16 * 1024), new SitemapParser((e) => void seen.push(e.loc)), 1024 * 1024);
    expect(r).toMatchObject({ gzip: true, truncated: true, bytes: 1024 * 1024 });
    expect(seen).toEqual(['https://example.com/x']);
  });

  it('a plain body past the cap is truncated and the source is not read further', async () => {
    let produced = 0;
    async function* endless() {
      yield Buffer.from('<urlset><url><loc>https://example.com/1</loc></url>');
      for (;;) {
        produced++;
        yield Buffer.alloc(64 * 1024, 32);
      }
    }
    const r = await readSitemapBody(endless(), new SitemapParser(() => true), 1024 * 1024);
    expect(r.truncated).toBe(true);
    expect(produced).toBeLessThan(20);
  });

  it('broken gzip keeps what was parsed and says why', async () => {
    const good = gzipSync(xml);
    const broken = Buffer.concat([good.subarray(0, 10), Buffer.alloc(200, 7)]);
    const r = await readSitemapBody(chunks(broken), new SitemapParser(() => true));
    expect(r.gzip).toBe(true);
    expect(r.error).toMatch(/gzip/);
  });

  it('a truncated gzip stream yields the entries it holds', async () => {
    const many = Buffer.from(`<urlset>${Array.from({ length: 2000 }, (_, i) => `<url><loc>https://example.com/p/${i}</loc></url>`).join('')}</urlset>`);
    const gz = gzipSync(many);
    const seen: string[] = [];
    const r = await readSitemapBody(chunks(gz.subarray(0, Math.floor(gz.length / 2))), new SitemapParser((e) => void seen.push(e.loc)));
    expect(r.error).toBeNull();
    expect(seen.length).toBeGreaterThan(100);
    expect(seen.length).toBeLessThan(2000);
  });
});

describe('site scope and relevance', () => {
  it('same site by default; subdomains only when asked', () => {
    expect(inSiteScope('https://www.example.com/a', 'https://example.com/')).toBe(true);
    expect(inSiteScope('https://blog.example.com/a', 'https://example.com/')).toBe(false);
    expect(inSiteScope('https://blog.example.com/a', 'https://www.example.com/', true)).toBe(true);
    expect(inSiteScope('https://notexample.com/a', 'https://example.com/', true)).toBe(false);
    expect(inSiteScope('ftp://example.com/a', 'https://example.com/', true)).toBe(false);
  });

  it('orders by URL and title words, ties keep their order, no search keeps the order', () => {
    const e = (url: string, title: string | null = null) => ({ url, title });
    const list = [e('https://x.test/'), e('https://x.test/blog/hello'), e('https://x.test/pricing'), e('https://x.test/p/7', 'Pricing plans'), e('https://x.test/docs/pricing-api')];
    expect(rankByRelevance(list, 'pricing').map((x) => x.url)).toEqual(['https://x.test/pricing', 'https://x.test/docs/pricing-api', 'https://x.test/p/7', 'https://x.test/', 'https://x.test/blog/hello']);
    expect(rankByRelevance(list, undefined)).toBe(list);
    expect(rankByRelevance(list, '  ')).toBe(list);
  });
});
