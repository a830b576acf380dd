import { describe, expect, it } from 'vitest';
import { RobotsPolicy } from '../../../functions/core/governance/robots.js';

const UA = 'GleanerBot/0.1 (+https://gleaner.invalid)';

describe('RobotsPolicy.sitemaps', () => {
  it("lists robots.txt's Sitemap: lines from the same cached fetch as the checks", async () => {
    const fetched: string[] = [];
    const bodies: Record<string, { status: number; body: string }> = {
      'https://a.test/robots.txt': { status: 200, body: 'User-agent: *\nDisallow: /private/\nSitemap: https://a.test/sitemap_index.xml\nsitemap:https://a.test/news.xml.gz\n' },
      'https://b.test/robots.txt': { status: 404, body: '' },
    };
    const p = new RobotsPolicy({
      userAgent: UA,
      fetch: async (url) => {
        fetched.push(url);
        const r = bodies[url];
        if (!r) throw new Error('unreachable');
        return r;
      },
    });
    expect((await p.check('https://a.test/private/x')).allowed).toBe(false);
    expect(await p.sitemaps('https://a.test/any/page')).toEqual(['https://a.test/sitemap_index.xml', 'https://a.test/news.xml.gz']);
    expect(fetched).toEqual(['https://a.test/robots.txt']); // one fetch for both
    // No robots.txt (4xx) or an unreachable one: no sitemaps named (the default location is the caller's).
    expect(await p.sitemaps('https://b.test/')).toEqual([]);
    expect(await p.sitemaps('https://c.test/')).toEqual([]);
  });
});
