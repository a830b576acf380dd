import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { verifyFixtureHost } from '../../support/verified-host.js';
import { run as admin } from '../../../functions/cli/admin.js';

// Fair to other tenants (issue 12), through the API: tenant A's large crawl on a host it verified
// (limits raised) fills the runs queue with slices; tenant B's one-page run, submitted while
// hundreds of A's pages are queued, is served at the next free worker, not after A's backlog.
// Measured in pages, not time: how many of A's pages were fetched between B's submission and
// B's completion, against how many A had queued when B arrived.
const PAGES = 3000;
let svc: TestService;
let site: FixtureSite;
let otherKey: string;

beforeAll(async () => {
  site = await startFixtureSite({ graphPages: PAGES, latencyMs: 20, verifyAnyToken: true, robotsTxt: 'User-agent: *\nAllow: /\n' });
  const host = new URL(site.baseUrl).host;
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: host, GLEANER_CONCURRENCY_RUNS: '2', GLEANER_TENANT_CRAWL_PAGES: '8' });
  const table = svc.deps.table;
  await verifyFixtureHost(table, svc.tenantId, host, { concurrency: 64, delay_ms: 0 });
  otherKey = ((await admin(['tenants', 'create', '--name', 'small'], table)) as { api_key: string }).api_key;
}, 120_000);

afterAll(async () => {
  await svc?.destroy();
  await site?.close();
});

const graphFetches = () => [...site.hitsByPath()].filter(([p]) => p.startsWith('/graph/')).reduce((n, [, c]) => n + c, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('fair to other tenants', () => {
  it("another tenant's one-page run is served while a large crawl's backlog waits", async () => {
    const big = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/graph/0`, max_pages: PAGES, max_depth: 20, concurrency: 4, engine: 'http' } } });
    expect(big.status, big.text).toBe(201);
    const bigId = big.body.id as string;
    // Let the crawl build a backlog of queued pages.
    let queued = 0;
    for (let i = 0; i < 600 && queued < 300; i++) {
      await sleep(100);
      queued = (await svc.call(`/v1/runs/${bigId}`)).body.progress?.pages_queued ?? 0;
    }
    expect(queued).toBeGreaterThanOrEqual(300);

    const before = graphFetches();
    const small = await svc.call('/v1/runs', { method: 'POST', key: otherKey, json: { scraper_id: 'page-content', input: { url: `${site.baseUrl}/about`, engine: 'http' } } });
    expect(small.status, small.text).toBe(201);
    let status = small.body.status as string;
    while (status === 'queued' || status === 'running') status = (await svc.call(`/v1/runs/${small.body.id}?wait=5`, { key: otherKey })).body.status;
    const during = graphFetches() - before;
    expect(status).toBe('succeeded');

    // B did not wait for A's backlog: far fewer of A's pages were fetched meanwhile than were queued
    // (round-robin by tenant; A's pages in flight are capped at 8 by GLEANER_TENANT_CRAWL_PAGES).
    expect(during).toBeLessThan(queued / 3);
    const a = (await svc.call(`/v1/runs/${bigId}`)).body;
    expect(a.status).toBe('running');

    const cancel = await svc.call(`/v1/runs/${bigId}/cancel`, { method: 'POST' });
    expect([200, 202]).toContain(cancel.status);
    let end = cancel.body.status as string;
    while (end === 'queued' || end === 'running') end = (await svc.call(`/v1/runs/${bigId}?wait=5`)).body.status;
    expect(end).toBe('cancelled');
    await svc.queue.idle(); // the slices still queued find the run over
  }, 300_000);
});
