import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../functions/config.js';
import { startLocal } from '../functions/local/local-server.js';
import { keys } from '../functions/core/table-keys.js';
import { setLimits, DEFAULT_LIMITS } from '../functions/core/tenancy/tenants.js';
import { percentile, timeEach, type BenchResult } from './stats.js';

/**
 * The authenticated hot path (GET /v1/tenant through the full pipeline: auth, scope, billing,
 * rate limit, audit) against a bare handler doing only the same single table read, both over
 * HTTP in the same process, same run. Target: pipeline p50 <= 2x bare p50.
 */
export async function benchHotPath(n = 1500): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-bench-'));
  const key = 'glr_benchbenchbenchbenchbenchbench0000';
  const svc = await startLocal(loadConfig({ PORT: '0', GLEANER_DATA_DIR: dataDir, GLEANER_LOG_LEVEL: 'error', GLEANER_BOOTSTRAP_API_KEY: key }), { quiet: true });
  await setLimits(svc.deps.table, svc.tenantId, { ...DEFAULT_LIMITS, rate_requests: 1_000_000, rate_seconds: 1 });

  const bare = new Hono().get('/bare', async (c) => c.json(await svc.deps.table.get(keys.tenant(svc.tenantId))));
  const bareServer = await new Promise<ReturnType<typeof serve>>((res) => {
    const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, () => res(s));
  });
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/bare`;
  const hotUrl = `${svc.url}/v1/tenant`;
  const get = async (url: string, auth?: string) => {
    const r = await fetch(url, { headers: auth ? { authorization: `Bearer ${auth}` } : {} });
    if (r.status !== 200) throw new Error(`${url} -> ${r.status}`);
    await r.arrayBuffer();
  };
  // Warm up both paths, then interleave rounds so drift hits both equally.
  await timeEach(200, () => get(hotUrl, key));
  await timeEach(200, () => get(bareUrl));
  const hot: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < 5; round++) {
    hot.push(...(await timeEach(n / 5, () => get(hotUrl, key))));
    base.push(...(await timeEach(n / 5, () => get(bareUrl))));
  }
  await new Promise<void>((r) => bareServer.close(() => r()));
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
  const p50 = percentile(hot, 50);
  const b50 = percentile(base, 50);
  const fmt = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(2)} ms, p99 ${percentile(xs, 99).toFixed(2)} ms`;
  return [{ name: 'auth hot path (GET /v1/tenant) vs bare single read', measured: fmt(hot), baseline: fmt(base), ratio: p50 / b50, target: '<= 2.0', pass: p50 / b50 <= 2 }];
}
