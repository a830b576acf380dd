import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard } from '../../../functions/core/governance/egress-guard.js';
import { RobotsPolicy } from '../../../functions/core/governance/robots.js';
import { closedPort, startFixture, type Fixture } from './loopback.js';

const UA = 'GleanerBot/0.1 (+test)';
const ROBOTS = 'User-agent: *\nDisallow: /\n\nUser-agent: GleanerBot\nDisallow: /admin\nCrawl-delay: 3\n';

let ok: Fixture;
let missing: Fixture;
let broken: Fixture;
let down: number;
const hits: string[] = [];
let guard: EgressGuard;

function robotsSite(status: number, body = '') {
  return startFixture((req, res) => {
    hits.push(`${req.socket.localPort}${req.url}`);
    if (req.url === '/robots.txt') return void res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    res.end('page');
  });
}

beforeAll(async () => {
  ok = await robotsSite(200, ROBOTS);
  missing = await robotsSite(404, 'not found');
  broken = await robotsSite(500, 'oops');
  down = await closedPort();
  guard = new EgressGuard({
    allow: [ok.hostPort, missing.hostPort, broken.hostPort, `127.0.0.1:${down}`],
    resolve: async (h) => Promise.reject(new Error(`no DNS in tests (${h})`)),
    userAgent: UA,
  });
});
afterAll(async () => {
  await guard.close();
  await Promise.all([ok.close(), missing.close(), broken.close()]);
});

function policy() {
  // Production wiring: robots.txt is fetched through the egress guard like everything else.
  return new RobotsPolicy({
    userAgent: UA,
    fetch: async (url) => {
      const res = await guard.fetch(url, { maxBytes: 512 * 1024, timeoutMs: 5000 });
      return { status: res.status, body: res.body.toString('utf8') };
    },
  });
}

describe('RobotsPolicy over loopback fixtures', () => {
  it('200: applies our group and its crawl-delay', async () => {
    const p = policy();
    await expect(p.check(`${ok.origin}/admin/users`)).resolves.toEqual({ allowed: false, crawlDelaySeconds: 3, reason: 'disallowed by robots.txt for GleanerBot' });
    await expect(p.check(`${ok.origin}/blog/post`)).resolves.toEqual({ allowed: true, crawlDelaySeconds: 3, reason: 'allowed by robots.txt' });
    expect(hits.filter((h) => h === `${ok.port}/robots.txt`)).toHaveLength(1); // cached
  });

  it('404: everything allowed', async () => {
    await expect(policy().check(`${missing.origin}/anything`)).resolves.toEqual({ allowed: true, crawlDelaySeconds: null, reason: 'robots.txt returned 404: all allowed' });
  });

  it('500: everything disallowed', async () => {
    await expect(policy().check(`${broken.origin}/anything`)).resolves.toEqual({ allowed: false, crawlDelaySeconds: null, reason: 'robots.txt returned 500: all disallowed' });
  });

  it('unreachable: everything disallowed', async () => {
    const d = await policy().check(`http://127.0.0.1:${down}/x`);
    expect(d.allowed).toBe(false);
    expect(d.reason).toMatch(/^robots\.txt unreachable/);
  });
});
