import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';

/**
 * Issue 19 finding 1, from outside: a tenant's site whose pages redirect to another host whose
 * robots.txt disallows the target. Two loopback sites are two hosts (127.0.0.1:<a> and
 * localhost:<b>). Neither a scrape (either engine) nor a crawl may fetch the disallowed page;
 * the skip is counted and logged with the hop's URL.
 */
let svc: TestService;
let tenantSite: Server;
let victim: Server;
let A = '';
let B = '';
const victimPaths: string[] = [];

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
const page = (title: string, body = '') => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

beforeAll(async () => {
  victim = createServer((req, res) => {
    victimPaths.push(req.url ?? '');
    if (req.url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end(page(`victim ${req.url}`));
  });
  B = `http://localhost:${await listen(victim)}`;
  tenantSite = createServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    if (req.url?.startsWith('/go/')) return res.writeHead(302, { location: `${B}/private/${req.url.slice(4)}` }).end();
    if (req.url === '/chain') return res.writeHead(301, { location: '/go/chained' }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(page('tenant home', '<a href="/go/one">one</a> <a href="/go/two">two</a> <a href="/chain">chain</a> <a href="/about">about</a>'));
  });
  A = `http://127.0.0.1:${await listen(tenantSite)}`;
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `${A.slice(7)},${B.slice(7)}` });
}, 60_000);
afterAll(async () => {
  await svc?.destroy();
  await new Promise((r) => tenantSite?.close(r));
  await new Promise((r) => victim?.close(r));
});

const privateHits = () => victimPaths.filter((p) => p.startsWith('/private/')).length;

async function waitFor(runId: string) {
  for (let i = 0; i < 300; i++) {
    const r = await svc.call(`/v1/runs/${runId}`);
    if (['succeeded', 'failed', 'timed_out', 'cancelled', 'blocked'].includes(r.body.status)) return r.body;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error('run did not finish');
}

describe('cross-host redirect chains', () => {
  it.each(['http', 'browser', 'auto'])('a %s scrape redirected to a disallowed page is refused as robots_disallowed', async (engine) => {
    for (const path of ['/go/scrape', '/chain']) {
      const r = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${A}${path}`, engine } });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.code).toBe('robots_disallowed');
    }
    expect(privateHits()).toBe(0);
  }, 60_000);

  it('a crawl whose links redirect to a disallowed host counts robots skips and never fetches the target', async () => {
    const run = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${A}/`, max_pages: 10 } } });
    expect(run.status).toBe(201);
    const done = await waitFor(run.body.id);
    expect(done.status).toBe('succeeded');
    expect(done.stats.robots_skipped).toBeGreaterThanOrEqual(3);
    expect(privateHits()).toBe(0);
    const log = (await svc.call(`/v1/runs/${run.body.id}/log`)).body.data as { url: string; decision: string; reason?: string }[];
    const skips = log.filter((l) => l.decision === 'robots_skipped').map((l) => l.url);
    expect(skips).toEqual(expect.arrayContaining([`${B}/private/one`, `${B}/private/two`, `${B}/private/chained`]));
  }, 120_000);
});
