import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestService } from '../test/support/local-service.js';
import { startFakeSearch, FAKE_KEYS } from '../test/fixtures/fake-search/fake-search.js';
import { setLimits, DEFAULT_LIMITS } from '../functions/core/tenancy/tenants.js';
import { percentile, timeEach, type BenchResult } from './stats.js';
import type { Table } from '../functions/ports/table.js';

/**
 * Search (issue 40): POST /v1/search with scrape through the whole local service (auth, quota,
 * task through the runs worker, governance per result, concurrent scrapes), against a fake Brave
 * answering in 100 ms and ten result pages on ten hosts answering in 50–400 ms. Measured: the
 * time to the complete answer, every page scraped, against the slowest single page fetched alone
 * through the same service (POST /v1/scrape of the 400 ms page). Target <= 1.5x. Also: table
 * calls per search (the local queue's records left out: SQS on AWS).
 */
const PAGE_DELAYS = Array.from({ length: 10 }, (_, i) => Math.round(50 + (i * 350) / 9));

function page(i: number) {
  const para = `Result page ${i} explains governed web search in plain words. `.repeat(20);
  return `<!doctype html><html lang="en"><head><title>Result ${i}</title></head><body><main><article><h1>Result ${i}</h1><p>${para}</p><p>${para}</p></article></main></body></html>`;
}

async function startPageHost(i: number, delayMs: number): Promise<{ server: Server; url: string; hostPort: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(i)), delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${port}/result/${i}`, hostPort: `127.0.0.1:${port}` };
}

/** Count table calls (queue records of the local queue left out: SQS on AWS). */
function countCalls(t: Table) {
  const c = { calls: 0 };
  const target = t as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const op of ['get', 'put', 'update', 'delete', 'query', 'batchPut', 'batchGet'] as const) {
    const orig = target[op]!.bind(t);
    target[op] = async (...args: unknown[]) => {
      const a = args[0] as { pk?: string } | { pk?: string }[];
      const pk = Array.isArray(a) ? a[0]?.pk : a?.pk;
      if (!pk?.startsWith('LQ#')) c.calls += op === 'batchPut' ? Math.ceil((a as unknown[]).length / 25) : op === 'batchGet' ? Math.ceil((a as unknown[]).length / 100) : 1;
      return orig(...args);
    };
  }
  return c;
}

export async function benchSearch(rounds = Number(process.env.GLEANER_BENCH_SEARCH_ROUNDS ?? 12)): Promise<BenchResult[]> {
  const hosts = await Promise.all(PAGE_DELAYS.map((d, i) => startPageHost(i, d)));
  const brave = await startFakeSearch('brave', hosts.map((h, i) => ({ url: h.url, title: `Result ${i}`, snippet: 'governed web search' })), { delayMs: 100 });
  const svc = await startTestService({
    GLEANER_SEARCH_BRAVE_BASE_URL: brave.baseUrl,
    GLEANER_EGRESS_ALLOW: [new URL(brave.baseUrl).host, ...hosts.map((h) => h.hostPort)].join(','),
    GLEANER_TEST_CONTRACT: 'off',
  });
  try {
    await setLimits(svc.deps.table, svc.tenantId, { ...DEFAULT_LIMITS, rate_requests: 1_000_000, rate_seconds: 1 });
    const put = await svc.call('/dashboard/api/search-providers/brave', { method: 'PUT', json: { api_key: FAKE_KEYS.brave } });
    if (put.status !== 200) throw new Error(`provider not stored: ${put.text}`);
    const counter = countCalls(svc.deps.table);
    const searchOnce = async () => {
      const r = await svc.call('/v1/search', { method: 'POST', json: { query: 'governed web search', limit: 10, scrape: { formats: ['markdown'], engine: 'http' } } });
      const scraped = r.body?.data?.filter((d: { scrape?: { status_code?: number } }) => d.scrape?.status_code === 200).length;
      if (r.status !== 200 || scraped !== 10) throw new Error(`search -> ${r.status}, ${scraped} scraped: ${r.text.slice(0, 300)}`);
    };
    const slowest = hosts[hosts.length - 1]!.url;
    const scrapeSlowest = async () => {
      const r = await svc.call('/v1/scrape', { method: 'POST', json: { url: slowest, formats: ['markdown'], engine: 'http' } });
      if (r.status !== 200) throw new Error(`scrape -> ${r.status}`);
    };
    await timeEach(2, searchOnce); // warm up: robots.txt cached, connections open
    await timeEach(2, scrapeSlowest);
    const search: number[] = [];
    const single: number[] = [];
    let calls = 0;
    for (let i = 0; i < rounds; i++) {
      const before = counter.calls;
      search.push(...(await timeEach(1, searchOnce)));
      calls += counter.calls - before;
      single.push(...(await timeEach(1, scrapeSlowest)));
    }
    const s50 = percentile(search, 50);
    const p50 = percentile(single, 50);
    const fmt = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(0)} ms, p90 ${percentile(xs, 90).toFixed(0)} ms`;
    const perSearch = calls / rounds;
    console.log(`search: 10 results scraped ${fmt(search)}; slowest page alone (POST /v1/scrape, ${PAGE_DELAYS.at(-1)} ms page) ${fmt(single)}; ratio ${(s50 / p50).toFixed(2)}x; table calls per search ${perSearch.toFixed(1)}`);
    return [
      { name: 'POST /v1/search, 10 results scraped, vs the slowest page alone', measured: fmt(search), baseline: fmt(single), ratio: s50 / p50, target: '<= 1.5x', pass: s50 / p50 <= 1.5 },
      { name: 'table calls per search (10 results scraped)', measured: perSearch.toFixed(1), baseline: '-', ratio: perSearch, target: 'reported', pass: true },
    ];
  } finally {
    await svc.destroy();
    await brave.close();
    await Promise.all(hosts.map((h) => new Promise<void>((r) => { h.server.closeAllConnections(); h.server.close(() => r()); })));
  }
}
