import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/local-service.js';
import type { FixtureSite } from '../../fixtures/site/server.js';
import { startVerifiedCrawl } from '../../support/verified-host.js';

// A crawl's slices share their run's connections (functions/workers/run-guards.ts): the site sees
// a few kept-alive connections for the whole crawl, not fresh ones for every slice.
const PAGES = 400;
let svc: TestService;
let site: FixtureSite;
beforeAll(async () => {
  ({ svc, site } = await startVerifiedCrawl(PAGES));
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
});

describe('crawl connections', () => {
  it('keeps its connections to the site from one slice to the next', async () => {
    const before = site.connections();
    const c = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/graph/0`, max_pages: PAGES, max_depth: 20, concurrency: 4, engine: 'http', sitemap: 'skip' } } });
    expect(c.status, c.text).toBe(201);
    let run = c.body;
    while (run.status === 'queued' || run.status === 'running') run = (await svc.call(`/v1/runs/${run.id}?wait=10`)).body;
    expect(run.status).toBe('succeeded');
    expect(run.progress.items).toBe(PAGES);
    const opened = site.connections() - before;
    // With a pool per slice, every slice opened up to `concurrency` connections of its own: 78 for
    // this crawl. Shared by the run: a few per worker, whatever the number of slices.
    expect(opened).toBeLessThanOrEqual(20);
  }, 120_000);
});
