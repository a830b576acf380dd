import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { verifyFixtureHost } from '../../support/verified-host.js';

/**
 * Four parallel `POST /v1/scrape` calls used to end `npm start` within a few hundred requests
 * (s3rver lost a task's result folder under a concurrent delete, and the write stream's error
 * event killed the process). Here 32 at a time, three waves, and runs beside them: every call
 * answers with its own page, every run succeeds with its item, and the service stays up.
 */
let svc: TestService;
let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite({ staticPages: 200, verifyAnyToken: true });
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port}`, GLEANER_CONCURRENCY_RUNS: '4' });
  // The site is the tenant's own, with raised limits: what is tested here is the service under
  // many parallel calls, not the polite pace on a stranger's host (synchronous scrapes wait at the
  // same per-host gate as runs: test/e2e/runs/host-politeness.test.ts).
  await verifyFixtureHost(svc.deps.table, svc.tenantId, `127.0.0.1:${site.port}`, { concurrency: 64, delay_ms: 0 });
});
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
});

describe('parallel synchronous scrapes and runs on the local service', () => {
  it('answers 32 concurrent scrapes, three times over, with runs beside them, losing nothing', async () => {
    const runIds: string[] = [];
    for (let wave = 0; wave < 3; wave++) {
      const runs = Array.from({ length: 4 }, (_, i) =>
        svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input: { url: `${site.baseUrl}/pages/${wave * 4 + i + 1}` } } }),
      );
      const scrapes = Array.from({ length: 32 }, (_, i) => {
        const n = wave * 32 + i + 1;
        return svc.call('/v1/scrape', { method: 'POST', json: { url: `${site.baseUrl}/pages/${n}`, formats: ['markdown', 'metadata'] } }).then((r) => ({ n, r }));
      });
      for (const { n, r } of await Promise.all(scrapes)) {
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.url).toBe(`${site.baseUrl}/pages/${n}`);
        expect(r.body.metadata.title).toBe(`Static page ${n}`);
        expect(r.body.markdown).toContain(`Paragraph 1 of page ${n}`);
      }
      for (const r of await Promise.all(runs)) {
        expect(r.status).toBe(201);
        runIds.push(r.body.id);
      }
    }
    for (const id of runIds) {
      let run: { status: string; progress: { items: number } } | undefined;
      for (let i = 0; i < 10 && !['succeeded', 'failed', 'timed_out', 'cancelled', 'blocked'].includes(run?.status ?? ''); i++) run = (await svc.call(`/v1/runs/${id}?wait=20`)).body;
      expect(run?.status).toBe('succeeded');
      expect(run?.progress.items).toBe(1);
      const res = await svc.call(`/v1/runs/${id}/results`);
      expect(res.body.data).toHaveLength(1);
    }
    // Still serving.
    expect((await svc.call('/v1/scrapers')).status).toBe(200);
  });
});
