import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../functions/config.js';
import { startLocal } from '../functions/local/local-server.js';
import { setLimits, DEFAULT_LIMITS } from '../functions/core/tenancy/tenants.js';
import { startFixtureSite } from '../test/fixtures/site/server.js';
import { percentile, timeEach, type BenchResult } from './stats.js';

/**
 * Freshness (API.md "Page actions and freshness"): the same POST /v1/scrape of a fixture article
 * through the whole local service (auth, rate limit, audit, task through the runs worker),
 * uncached (no max_age: a fetch every time) and answered from the tenant's earlier fetch
 * (max_age). Target: cached p50 <= 15 ms. Also checks the cached rounds sent nothing to the site.
 */
export async function benchFreshness(uncachedRounds = 40, cachedRounds = 300): Promise<BenchResult[]> {
  const site = await startFixtureSite();
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-bench-'));
  const key = 'glr_benchbenchbenchbenchbenchbench0000';
  const svc = await startLocal(
    loadConfig({ PORT: '0', GLEANER_DATA_DIR: dataDir, GLEANER_LOG_LEVEL: 'error', GLEANER_BOOTSTRAP_API_KEY: key, GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port}` }),
    { quiet: true },
  );
  await setLimits(svc.deps.table, svc.tenantId, { ...DEFAULT_LIMITS, rate_requests: 1_000_000, rate_seconds: 1, monthly_pages: null });
  const body = { url: `${site.baseUrl}/article`, engine: 'http', formats: ['markdown', 'metadata', 'links'] };
  const scrape = async (extra: Record<string, unknown>, cached: boolean) => {
    const r = await fetch(`${svc.url}/v1/scrape`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...body, ...extra }) });
    const j = (await r.json()) as { cached?: boolean };
    if (r.status !== 200 || Boolean(j.cached) !== cached) throw new Error(`scrape -> ${r.status} cached=${j.cached}`);
  };
  try {
    await timeEach(5, () => scrape({}, false)); // warm up both paths (and keep an answer)
    await timeEach(20, () => scrape({ max_age: 600_000 }, true));
    const uncached: number[] = [];
    const cached: number[] = [];
    let siteRequestsWhileCached = 0;
    for (let round = 0; round < 4; round++) {
      uncached.push(...(await timeEach(uncachedRounds / 4, () => scrape({}, false))));
      const before = site.hits();
      cached.push(...(await timeEach(cachedRounds / 4, () => scrape({ max_age: 600_000 }, true))));
      siteRequestsWhileCached += site.hits() - before;
    }
    // The request pipeline's own floor on this machine now (auth, rate limit, audit, one read).
    const floor = await timeEach(100, async () => (await fetch(`${svc.url}/v1/tenant`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
    const c50 = percentile(cached, 50);
    const u50 = percentile(uncached, 50);
    const fmt = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(2)} ms, p99 ${percentile(xs, 99).toFixed(2)} ms`;
    console.log(`freshness: cached ${fmt(cached)}; uncached ${fmt(uncached)}; uncached/cached p50 ${(u50 / c50).toFixed(1)}x; site requests during cached rounds: ${siteRequestsWhileCached}; pipeline floor (GET /v1/tenant) ${fmt(floor)}`);
    return [{ name: 'cached POST /v1/scrape (max_age) vs the same scrape uncached', measured: fmt(cached), baseline: fmt(uncached), ratio: c50 / u50, target: 'cached p50 <= 15 ms, 0 site requests', pass: c50 <= 15 && siteRequestsWhileCached === 0 }];
  } finally {
    await svc.close();
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
