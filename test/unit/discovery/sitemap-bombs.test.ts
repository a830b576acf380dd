import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { SitemapParser } from '../../../functions/core/discovery/sitemap-parser.js';
import { readSitemapBody } from '../../../functions/core/discovery/sitemap-body.js';

// Issue 27: the sitemap parser is linear in its input. Unclosed `<url` elements used to make each
// one search to the end of the buffer for its close: a 12 KB gzip (8 MB inflated) took 34 s of
// CPU. Here the same bomb must parse well within the test's own timeout.

async function* chunks(buf: Buffer, size = 64 * 1024) {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

describe('sitemap bombs', () => {
  it('parses 8 MB of unclosed <url> elements (a 12 KB gzip) in one pass, each counted malformed', async () => {
    const xml = `<?xml version="1.0"?><urlset>${'<url><loc>https://a.example/x</loc>'.repeat(240_000)}</urlset>`;
    expect(xml.length).toBeGreaterThan(8_000_000);
    const gz = gzipSync(xml, { level: 9 });
    const entries: string[] = [];
    const parser = new SitemapParser((e) => void entries.push(e.loc));
    const r = await readSitemapBody(chunks(gz, 4096), parser);
    expect(r.gzip).toBe(true);
    expect(r.error).toBeNull();
    expect(entries).toHaveLength(0);
    expect(parser.stats.malformed).toBe(240_000);
  }, 15_000);

  it('an opening tag that never ends (no ">") costs one pass too', () => {
    const parser = new SitemapParser(() => undefined);
    const body = `<urlset>${'<url '.repeat(400_000)}`;
    for (let i = 0; i < body.length; i += 65_536) parser.push(body.slice(i, i + 65_536));
    parser.end();
    expect(parser.stats.malformed).toBeGreaterThan(0);
  }, 15_000);

  it('still reads well-formed entries between broken ones', () => {
    const got: string[] = [];
    const parser = new SitemapParser((e) => void got.push(e.loc));
    parser.push('<urlset><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/broken</loc><url><loc>https://a.example/2</loc></url></urlset>');
    parser.end();
    expect(got).toEqual(['https://a.example/1', 'https://a.example/2']);
    expect(parser.stats.malformed).toBe(1);
  });

  it('stops parsing at the deadline it is given, keeping what was parsed', async () => {
    const xml = Buffer.from(`<urlset>${'<url><loc>https://a.example/x</loc></url>'.repeat(10_000)}</urlset>`);
    const parser = new SitemapParser(() => undefined);
    const r = await readSitemapBody(chunks(xml), parser, undefined, Date.now() - 1);
    expect(r.error).toMatch(/timed out/);
    expect(parser.stats.entries).toBe(0);
  });
});
