import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';

/**
 * Issue 37 finding 5: the synchronous scrape, the runbook test and the Studio preview went
 * around the per-host politeness gate runs use (five parallel scrapes reached a `Crawl-delay: 5`
 * host within 152 ms). Every surface that fetches now waits for the same gate: here a host with
 * `Crawl-delay: 2` sees the page requests of parallel scrapes one by one, each at least the crawl
 * delay after the one before (as the host itself measures the arrivals: load only makes the gaps
 * longer). A scrape (either engine), a runbook test or a preview that the host's politeness would
 * not let start within its own window answers 429 `host_busy` with Retry-After, without reaching
 * the host: the browser surfaces wait at the same gate.
 */
interface Host {
  server: Server;
  port: number;
  base: string;
  /** Arrival times (host clock, ms) of page requests (`/p/...`), in arrival order. */
  arrivals: number[];
}

async function startHost(crawlDelaySeconds: number): Promise<Host> {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`User-agent: *\nCrawl-delay: ${crawlDelaySeconds}\n`);
      return;
    }
    if (path.startsWith('/p/')) {
      arrivals.push(Date.now());
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<html><head><title>Page ${path.slice(3)}</title></head><body><h1 id="t">Page ${path.slice(3)}</h1><p>Polite host.</p></body></html>`);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { server, port, base: `http://127.0.0.1:${port}`, arrivals };
}

let svc: TestService;
let polite: Host;
let slow: Host;

beforeAll(async () => {
  polite = await startHost(2);
  slow = await startHost(30);
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${polite.port},127.0.0.1:${slow.port}` });
});
afterAll(async () => {
  await svc?.destroy();
  await Promise.all([polite, slow].map((h) => h && new Promise((r) => h.server.close(r))));
});

describe('one per-host gate for every surface that fetches', () => {
  it('spaces parallel scrapes by the host\'s Crawl-delay', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map((n) => svc.call('/v1/scrape', { method: 'POST', json: { url: `${polite.base}/p/${n}`, formats: ['markdown'] } })));
    for (const a of answers) expect(a.status, JSON.stringify(a.body).slice(0, 500)).toBe(200);
    // One at a time: each page request arrived at least the crawl delay (2 s) after the previous
    // one, less a little for the network path (before the fix all four came within milliseconds).
    expect(polite.arrivals).toHaveLength(4);
    const gaps = polite.arrivals.slice(1).map((t, i) => t - polite.arrivals[i]!);
    for (const g of gaps) expect(g, `gaps between page requests: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(1500);
  });

  it('answers 429 host_busy with Retry-After to a scrape, a runbook test and a Studio preview the host allows no request in time', async () => {
    const first = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${slow.base}/p/1`, formats: ['markdown'] } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // The next start on this host is 30 s away: more than any synchronous request may wait.
    const rb = await svc.call('/v1/runbooks', { method: 'POST', json: { name: 'polite', steps: [{ action: 'goto', url: `${slow.base}/p/rb` }, { action: 'extract', fields: { title: { selector: '#t' } } }] } });
    expect(rb.status, JSON.stringify(rb.body)).toBe(201);
    const refused = await Promise.all([
      svc.call('/v1/scrape', { method: 'POST', json: { url: `${slow.base}/p/2`, formats: ['markdown'], timeout_ms: 5000 } }),
      svc.call('/v1/scrape', { method: 'POST', json: { url: `${slow.base}/p/3`, engine: 'browser', formats: ['markdown'] } }),
      svc.call(`/v1/runbooks/${rb.body.id}/test`, { method: 'POST', json: { input: {} } }),
      svc.call('/dashboard/api/studio/preview', { method: 'POST', json: { url: `${slow.base}/p/preview` } }),
    ]);
    for (const r of refused) {
      expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(429);
      expect(r.body.code).toBe('host_busy');
      expect(r.body.message).toMatch(/retry after \d+ s/);
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(1);
      expect(retryAfter).toBeLessThanOrEqual(30);
    }
    expect(slow.arrivals).toHaveLength(1);
  });
});
