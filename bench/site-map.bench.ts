import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { loadConfig } from '../functions/config.js';
import { startLocal } from '../functions/local/local-server.js';
import { startSitemapSite, type SitemapSite } from '../test/fixtures/sitemap-site.js';
import { run as admin } from '../functions/cli/admin.js';
import type { BenchResult } from './stats.js';

/**
 * Site map bench (issue 21): a loopback site whose `/sitemap.xml` is an index of gzipped parts
 * listing N URLs, mapped end to end through the API in local mode (`POST /v1/runs` with the
 * `site-map` scraper, polled until it succeeds, every item read back). Target: 10,000 URLs in
 * under 5 s. Baseline: the same sitemaps fetched, inflated and matched with a bare loop (undici +
 * zlib + one regex), in the same run. A second arm maps 100,000 URLs (the limit) to show the
 * item store takes them. `GLEANER_BENCH_SITEMAP_URLS=<n>` replaces the first arm's size;
 * `GLEANER_BENCH_SITEMAP_ARMS=10k` skips the 100,000 arm. Run alone: `npm run bench -- site-map`.
 */
const URLS = Number(process.env.GLEANER_BENCH_SITEMAP_URLS ?? 10_000);
const ARMS = new Set((process.env.GLEANER_BENCH_SITEMAP_ARMS ?? '10k,100k').split(','));
const KEY = 'glr_siteMapBench0000000000000000000000';

async function bare(site: SitemapSite): Promise<number> {
  const t0 = performance.now();
  const index = await (await request(`${site.baseUrl}/sitemap.xml`)).body.text();
  let n = 0;
  for (const loc of index.match(/<loc>[^<]+<\/loc>/g) ?? []) {
    const body = Buffer.from(await (await request(loc.slice(5, -6))).body.arrayBuffer());
    n += (gunzipSync(body).toString('utf8').match(/<loc>[^<]+<\/loc>/g) ?? []).length;
  }
  if (n < URLS) throw new Error(`bare baseline found ${n} URLs`);
  return (performance.now() - t0) / 1000;
}

/** One local service for every arm (the API's egress allow list is read once per process). */
async function service(sites: SitemapSite[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-sitemapbench-'));
  const allow = sites.map((s) => new URL(s.baseUrl).host).join(',');
  const svc = await startLocal(loadConfig({ PORT: '0', GLEANER_DATA_DIR: dataDir, GLEANER_EGRESS_ALLOW: allow, GLEANER_BOOTSTRAP_API_KEY: KEY, GLEANER_LOG_LEVEL: 'error' }), { quiet: true });
  // Reading 100,000 items back is 500 result pages: above the default 600 requests a minute.
  await admin(['tenants', 'set-limits', svc.tenantId, '--rate', '100000/60'], svc.deps.table);
  const call = async (path: string, json?: unknown) =>
    (await fetch(`${svc.url}${path}`, { method: json ? 'POST' : 'GET', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: json ? JSON.stringify(json) : undefined })).json() as Promise<any>;
  return {
    /** Map the site through the API and read every item back. */
    async map(site: SitemapSite, count: number): Promise<{ secs: number; items: number; readSecs: number; requests: number; queuedSecs: number; runSecs: number }> {
      const t0 = performance.now();
      let run = await call('/v1/runs', { scraper_id: 'site-map', input: { url: `${site.baseUrl}/`, limit: count, sitemap: 'only' } });
      while (run.status === 'queued' || run.status === 'running') run = await call(`/v1/runs/${run.id}?wait=1`);
      const secs = (performance.now() - t0) / 1000;
      if (run.status !== 'succeeded') throw new Error(`site-map ended ${run.status}: ${JSON.stringify(run.error ?? run)}`);
      const t1 = performance.now();
      const seen = new Set<string>();
      let cursor: string | null = null;
      do {
        const page: { data: { url: string }[]; next_cursor: string | null } = await call(`/v1/runs/${run.id}/results?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
        for (const i of page.data) seen.add(i.url);
        cursor = page.next_cursor;
      } while (cursor);
      if (seen.size !== count) throw new Error(`read back ${seen.size} distinct URLs, expected ${count}`);
      const at = (k: string) => Date.parse(run[k]);
      return { secs, items: seen.size, readSecs: (performance.now() - t1) / 1000, requests: run.stats.requests, queuedSecs: (at('started_at') - at('created_at')) / 1000, runSecs: (at('finished_at') - at('started_at')) / 1000 };
    },
    async close() {
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function benchSiteMap(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const small = await startSitemapSite({ mode: 'big', bigCount: URLS });
  const large = ARMS.has('100k') ? await startSitemapSite({ mode: 'big', bigCount: 100_000 }) : undefined;
  const svc = await service([small, ...(large ? [large] : [])]);
  try {
    if (ARMS.has('10k')) {
      await bare(small); // warm up
      const baseline = await bare(small);
      const r = await svc.map(small, URLS);
      console.log(`site-map ${URLS} URLs: ${r.secs.toFixed(2)} s through the API (run created -> succeeded: ${r.queuedSecs.toFixed(2)} s queued, ${r.runSecs.toFixed(2)} s running, ${r.requests} requests), all items read back in ${r.readSecs.toFixed(2)} s; bare fetch+gunzip+regex ${baseline.toFixed(3)} s`);
      out.push({ name: `site-map ${URLS} URLs (s)`, measured: r.secs.toFixed(2), baseline: `${baseline.toFixed(3)} (bare)`, ratio: r.secs / baseline, target: '< 5 s', pass: r.secs < 5 });
    }
    if (large) {
      const r = await svc.map(large, 100_000);
      console.log(`site-map 100000 URLs: ${r.secs.toFixed(2)} s through the API (${r.requests} requests), ${r.items} distinct items read back in ${r.readSecs.toFixed(2)} s`);
      out.push({ name: 'site-map 100000 URLs (s)', measured: r.secs.toFixed(2), baseline: '-', ratio: r.secs / 5, target: 'all 100,000 items stored', pass: r.items === 100_000 });
    }
  } finally {
    await svc.close();
    await small.close();
    await large?.close();
  }
  return out;
}
