import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../functions/config.js';
import { startLocal } from '../functions/local/local-server.js';
import { seedFinishedCrawl } from '../test/fixtures/finished-crawl.js';
import type { BenchResult } from './stats.js';

/**
 * Issue 12, "Limits": a finished 100,000-page crawl (GLEANER_BENCH_EXPORT_ITEMS) exported through
 * the local API as NDJSON and CSV, streamed. Baseline, in the same run: reading the same items
 * through the JSON cursor pages (`?limit=200`), what a client did before exports streamed past
 * 5 MB. Reports items/s for each, the ratio, and the process's RSS growth during each export
 * (server, embedded dynalite and this client share the process, so it is an upper bound).
 */
const ITEMS = Number(process.env.GLEANER_BENCH_EXPORT_ITEMS ?? 100_000);
const KEY = 'glr_exportBench0123456789abcdefghijklm';

async function measure<T>(fn: () => Promise<T>): Promise<{ value: T; secs: number; rssGrowthMb: number }> {
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let rssMax = rss0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage().rss)), 50);
  const t = performance.now();
  try {
    const value = await fn();
    return { value, secs: (performance.now() - t) / 1000, rssGrowthMb: (rssMax - rss0) / 1e6 };
  } finally {
    clearInterval(sampler);
  }
}

/** Reads a streamed body and counts its lines, holding one chunk at a time. */
async function countLines(res: Response): Promise<{ lines: number; bytes: number }> {
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const b of chunk) if (b === 10) lines++;
  }
  return { lines, bytes };
}

export async function benchExport(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-exportbench-'));
  const svc = await startLocal(loadConfig({ PORT: '0', GLEANER_DATA_DIR: dataDir, GLEANER_LOG_LEVEL: 'warn', GLEANER_BOOTSTRAP_API_KEY: KEY }), { quiet: true });
  try {
    const seeded = await measure(() => seedFinishedCrawl(svc.deps.table, svc.tenantId, ITEMS));
    const run = seeded.value;
    console.log(`seeded ${ITEMS} frontier records in ${seeded.secs.toFixed(1)} s`);
    const get = (q: string) => fetch(`${svc.url}/v1/runs/${run.id}/results?${q}`, { headers: { authorization: `Bearer ${KEY}` } });
    const nd = await measure(async () => countLines(await get('format=ndjson')));
    const csv = await measure(async () => countLines(await get('format=csv')));
    const paged = await measure(async () => {
      let n = 0;
      let cursor: string | null = null;
      do {
        const body = (await (await get(`limit=200${cursor ? `&cursor=${cursor}` : ''}`)).json()) as { data: unknown[]; next_cursor: string | null };
        n += body.data.length;
        cursor = body.next_cursor;
      } while (cursor);
      return n;
    });
    const items = paged.value;
    const rate = (n: number, s: number) => n / s;
    for (const [name, m] of [['ndjson', nd], ['csv', csv]] as const)
      console.log(`${name}: ${m.value.lines} lines, ${(m.value.bytes / 1e6).toFixed(1)} MB in ${m.secs.toFixed(1)} s = ${rate(m.value.lines, m.secs).toFixed(0)} items/s; RSS +${m.rssGrowthMb.toFixed(0)} MB`);
    console.log(`json cursor pages: ${items} items in ${paged.secs.toFixed(1)} s = ${rate(items, paged.secs).toFixed(0)} items/s; RSS +${paged.rssGrowthMb.toFixed(0)} MB`);
    const ratio = rate(nd.value.lines, nd.secs) / rate(items, paged.secs);
    return [
      { name: `export ${ITEMS} crawl items, NDJSON items/s`, measured: rate(nd.value.lines, nd.secs).toFixed(0), baseline: `${rate(items, paged.secs).toFixed(0)} (JSON cursor pages)`, ratio, target: '>= 1x', pass: ratio >= 1 && nd.value.lines === items },
      { name: 'export NDJSON RSS growth, MB', measured: nd.rssGrowthMb.toFixed(0), baseline: '64', ratio: nd.rssGrowthMb / 64, target: '< 64 MB', pass: nd.rssGrowthMb < 64 },
      { name: 'export CSV RSS growth, MB', measured: csv.rssGrowthMb.toFixed(0), baseline: '64', ratio: csv.rssGrowthMb / 64, target: '< 64 MB', pass: csv.rssGrowthMb < 64 && csv.value.lines === items + 1 },
    ];
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
