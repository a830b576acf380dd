import { describe, expect, it, vi } from 'vitest';
import { RobotsPolicy } from '../../../functions/core/governance/robots.js';

const UA = 'GleanerBot/0.1 (+https://github.com/gleaner)';
const ROBOTS = [
  'User-agent: *',
  'Disallow: /private',
  'Crawl-delay: 1',
  '',
  'User-agent: GleanerBot',
  'Disallow: /no-gleaner',
  'Allow: /no-gleaner/ok',
  'Crawl-delay: 7',
].join('\n');

function policy(responses: Record<string, { status: number; body?: string } | Error>, extra: { now?: () => number; maxEntries?: number } = {}) {
  const fetch = vi.fn(async (url: string) => {
    const r = responses[url];
    if (!r) return { status: 404, body: '' };
    if (r instanceof Error) throw r;
    return { status: r.status, body: r.body ?? '' };
  });
  return { p: new RobotsPolicy({ fetch, userAgent: UA, ...extra }), fetch };
}

describe('RobotsPolicy', () => {
  it('applies the group for our product token, with its crawl-delay', async () => {
    const { p } = policy({ 'https://a.test/robots.txt': { status: 200, body: ROBOTS } });
    await expect(p.check('https://a.test/no-gleaner/x')).resolves.toEqual({ allowed: false, crawlDelaySeconds: 7, reason: 'disallowed by robots.txt for GleanerBot' });
    await expect(p.check('https://a.test/no-gleaner/ok')).resolves.toMatchObject({ allowed: true, crawlDelaySeconds: 7 });
    // Our group replaces '*', so /private is not disallowed for us.
    await expect(p.check('https://a.test/private')).resolves.toMatchObject({ allowed: true });
  });

  it('falls back to * when no group names us', async () => {
    const { p } = policy({ 'https://b.test/robots.txt': { status: 200, body: 'User-agent: *\nDisallow: /private\nCrawl-delay: 2.5' } });
    await expect(p.check('https://b.test/private/1')).resolves.toMatchObject({ allowed: false, crawlDelaySeconds: 2.5 });
    await expect(p.check('https://b.test/public')).resolves.toEqual({ allowed: true, crawlDelaySeconds: 2.5, reason: 'allowed by robots.txt' });
  });

  it.each([400, 401, 403, 404, 410, 429])('treats %i as "no robots.txt": everything allowed', async (status) => {
    const { p } = policy({ 'https://c.test/robots.txt': { status } });
    await expect(p.check('https://c.test/anything')).resolves.toEqual({ allowed: true, crawlDelaySeconds: null, reason: `robots.txt returned ${status}: all allowed` });
  });

  it.each([500, 502, 503])('treats %i as unreachable: everything disallowed', async (status) => {
    const { p } = policy({ 'https://d.test/robots.txt': { status } });
    await expect(p.check('https://d.test/')).resolves.toMatchObject({ allowed: false, reason: `robots.txt returned ${status}: all disallowed` });
  });

  it('treats a network failure as unreachable: everything disallowed', async () => {
    const { p } = policy({ 'https://e.test/robots.txt': new Error('ECONNREFUSED') });
    await expect(p.check('https://e.test/x')).resolves.toMatchObject({ allowed: false, reason: expect.stringMatching(/unreachable \(ECONNREFUSED\)/) });
  });

  it('caches per origin (scheme, host, port) for the TTL, sharing concurrent fetches', async () => {
    let t = 0;
    const { p, fetch } = policy({ 'https://f.test/robots.txt': { status: 200, body: ROBOTS } }, { now: () => t });
    await Promise.all([p.check('https://f.test/a'), p.check('https://f.test/b'), p.check('https://f.test/c')]);
    expect(fetch).toHaveBeenCalledTimes(1);
    await p.check('http://f.test/a');
    await p.check('https://f.test:8443/a');
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['https://f.test/robots.txt', 'http://f.test/robots.txt', 'https://f.test:8443/robots.txt']);
    t = 24 * 3600_000 - 1;
    await p.check('https://f.test/a');
    expect(fetch).toHaveBeenCalledTimes(3);
    t = 24 * 3600_000;
    await p.check('https://f.test/a');
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('never caches longer than 24 h even when asked to', async () => {
    let t = 0;
    const fetch = vi.fn(async () => ({ status: 404, body: '' }));
    const p = new RobotsPolicy({ fetch, userAgent: UA, ttlMs: 7 * 86_400_000, now: () => t });
    await p.check('https://g.test/');
    t = 86_400_000;
    await p.check('https://g.test/');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('retries an unreachable robots.txt sooner than a fetched one', async () => {
    let t = 0;
    let status = 503;
    const fetch = vi.fn(async () => ({ status, body: '' }));
    const p = new RobotsPolicy({ fetch, userAgent: UA, now: () => t });
    await expect(p.check('https://h.test/')).resolves.toMatchObject({ allowed: false });
    status = 404;
    t = 600_000;
    await expect(p.check('https://h.test/')).resolves.toMatchObject({ allowed: true });
  });

  it('evicts the least recently used origin beyond maxEntries', async () => {
    const { p, fetch } = policy({}, { maxEntries: 2 });
    await p.check('https://1.test/');
    await p.check('https://2.test/');
    await p.check('https://1.test/'); // 1 becomes most recent
    await p.check('https://3.test/'); // evicts 2
    await p.check('https://1.test/');
    expect(fetch).toHaveBeenCalledTimes(3);
    await p.check('https://2.test/');
    expect(fetch).toHaveBeenCalledTimes(4);
  });
});
