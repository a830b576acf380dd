import { spawn } from 'node:child_process';
import { getHeapStatistics } from 'node:v8';
import { HEAP_FLAG } from '../functions/local/heap-bound.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../functions/config.js';
import { startLocal } from '../functions/local/local-server.js';
import { verifyFixtureHost } from '../test/support/verified-host.js';
import type { Table } from '../functions/ports/table.js';
import type { Blobs } from '../functions/ports/blobs.js';
import { itemSize } from '../functions/adapters/aws/item-size.js';
import { run as admin } from '../functions/cli/admin.js';
import { startFixtureSite, type FixtureSite } from '../test/fixtures/site/server.js';
import { LocalProcess, KEY as PROCESS_KEY } from '../test/e2e/crawl/local-process.js';
import type { BenchResult } from './stats.js';

/**
 * Large-crawl bench (issues 12 and 21). A loopback site graph of GLEANER_BENCH_CRAWL_PAGES pages
 * (default 10,000), host verified with limits 64/0.
 * - `gleaner`: the site in a process of its own, the service as `npm start` runs it (its entry,
 *   functions/local/main.ts, with the data stores in its child process), the crawl started and
 *   awaited through the API: pages/s, the service's RSS growth and CPU time.
 * - `crawlee`: Crawlee's CheerioCrawler (in-memory storage) on the same site process at the same
 *   concurrency, in a process of its own. The ratio of the two is the speed target.
 * - `counts`: the same crawl with the service in this process, its table wrapped to count calls by
 *   kind: table calls per page and the cost per 100,000 pages on AWS prices, against the figures
 *   before issue 31's round.
 * - `scale` (not in the default list): `counts` at PAGES and again at SCALE_PAGES (default 10x):
 *   the big crawl's table calls, cost and time per page against the small one's.
 * - `kill`: SIGKILL of an `npm start` process mid-crawl; counts pages fetched twice and items
 *   duplicated. `fair`, `fair-shared`: another tenant's one-page runs during a 100,000-page crawl,
 *   through `npm start` with the site in its own process.
 * Run alone: `npx tsx bench/run.ts crawl`.
 */
const PAGES = Number(process.env.GLEANER_BENCH_CRAWL_PAGES ?? 10_000);
/** Which arms to run (comma list of gleaner, crawlee, counts, kill, fair, fair-shared; default all). */
const ARMS = new Set((process.env.GLEANER_BENCH_CRAWL_ARMS ?? 'gleaner,crawlee,counts,kill,fair,fair-shared').split(','));
/**
 * The `scale` arm (not in the default list: long): the counts arm's crawl again on a site of
 * GLEANER_BENCH_CRAWL_SCALE_PAGES pages (default 10x PAGES), for table calls, request units and
 * time per page of the big crawl against the small one in the same run: cost must grow linearly.
 */
const SCALE_PAGES = Number(process.env.GLEANER_BENCH_CRAWL_SCALE_PAGES ?? PAGES * 10);
/** List prices' cost per 100,000 pages before this round (issue 31's measurement, this bench): the baseline of the cost line. */
const COST_BEFORE = { usd: 0.96, tablePerPage: 1.37, wruPerPage: 7.39 };
/**
 * Where the in-process arms (counts, fair) keep the stores: `embedded`, dynalite and s3rver inside
 * the service's process (GLEANER_LOCAL_STORES=embedded; RSS then includes them); default
 * `process`: in a process of their own, as `npm start` runs them.
 */
const STORES = process.env.GLEANER_BENCH_CRAWL_STORES === 'embedded' ? 'embedded' : 'process';
const KILL_PAGES = Number(process.env.GLEANER_BENCH_CRAWL_KILL_PAGES ?? Math.min(PAGES, 1000));
/** Pages in flight: 4 runs invocations x 4 pages per slice; Crawlee gets the same. */
const RUNS = 4;
const PER_SLICE = 4;
const CONCURRENCY = RUNS * PER_SLICE;
const KEY = 'glr_crawlBench000000000000000000000000';
const env = {
  GLEANER_BOOTSTRAP_API_KEY: KEY,
  GLEANER_CONCURRENCY_RUNS: String(RUNS),
  GLEANER_TENANT_CRAWL_PAGES: String(RUNS * 10),
  GLEANER_LOG_LEVEL: 'error',
};
const input = (baseUrl: string, n: number) => ({ scraper_id: 'site-crawl', input: { start_url: `${baseUrl}/graph/0`, max_pages: n, max_depth: 20, concurrency: PER_SLICE, engine: 'http' } });

/**
 * AWS on-demand list prices (us-east-1) used for the cost per 100,000 pages, stated in the output.
 * DynamoDB on-demand: $1.25 per million write request units, $0.25 per million read request
 * units; SQS standard $0.40 per million requests; S3 standard PUT $0.005 per 1,000.
 */
const PRICES = { wru: 1.25 / 1e6, rru: 0.25 / 1e6, sqs: 0.4 / 1e6, s3put: 0.005 / 1000 };

/**
 * Count table calls by kind: the frontier's and the run's records, and the local queue's own (SQS
 * on AWS). Also the request units DynamoDB would bill, by the item sizes DynamoDB counts
 * (functions/adapters/aws/item-size.ts): a put 1 WRU per KB of the item written (a conditional
 * put that fails is billed too), an update or a delete 1 WRU per KB of the item (as updated, as
 * deleted; 1 when its condition fails), a batch write 1 WRU per KB of each item; a consistent
 * read 1 RRU per 4 KB returned (a query: of all it returned; a batch read: of each item). And the
 * queue's messages.
 */
function countTable(t: Table) {
  const counts = { table: 0, queue: 0, messages: 0, wru: 0, rru: 0, byOp: {} as Record<string, number>, byRecord: {} as Record<string, number>, wruByRecord: {} as Record<string, number> };
  const target = t as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const kb = (x: unknown, unit: number) => Math.max(1, Math.ceil(itemSize((x ?? {}) as Record<string, unknown>) / unit));
  for (const op of ['get', 'put', 'update', 'delete', 'query', 'batchPut', 'batchGet'] as const) {
    const orig = target[op]!.bind(t);
    target[op] = async (...args: unknown[]) => {
      const a = args[0] as { pk?: string } | { pk?: string }[];
      const pk = Array.isArray(a) ? a[0]?.pk : a?.pk;
      const queue = !!pk?.startsWith('LQ#');
      if (queue) {
        counts.queue++;
        if (op === 'put') counts.messages++;
        return orig(...args);
      }
      counts.table++;
      const units = op === 'batchPut' ? Math.ceil((a as unknown[]).length / 25) : op === 'batchGet' ? Math.ceil((a as unknown[]).length / 100) : 1;
      counts.byOp[op] = (counts.byOp[op] ?? 0) + units;
      // Which records: the frontier's (by sort-key kind) or the partition's kind (gate, run, ...).
      const k = (Array.isArray(a) ? a[0] : a) as { pk?: string; sk?: string } | undefined;
      const kind = k?.pk?.includes('#CRAWL#') ? `crawl:${String(k.sk).split('#')[0]}` : `${String(k?.pk ?? '?').replace(/#[^#]*$/, '').replace(/^TEN#[^#]+/, 'TEN')}/${String(k?.sk ?? '').split('#')[0]!.replace(/^\d{4}-\d\d-\d\dT.*/, '<time>')}`;
      counts.byRecord[`${op} ${kind}`] = (counts.byRecord[`${op} ${kind}`] ?? 0) + units;
      let wru = 0;
      if (op === 'put') wru = kb(a, 1024);
      if (op === 'batchPut') for (const i of a as unknown[]) wru += kb(i, 1024);
      let out: unknown;
      try {
        out = await orig(...args);
      } catch (err) {
        if (op === 'update' || op === 'delete') wru = 1;
        counts.wru += wru;
        counts.wruByRecord[kind] = (counts.wruByRecord[kind] ?? 0) + wru;
        throw err;
      }
      if (op === 'update' || op === 'delete') wru = kb(out, 1024);
      if (op === 'get') counts.rru += kb(out, 4096);
      if (op === 'query') counts.rru += kb({ items: (out as { items: unknown[] }).items }, 4096);
      if (op === 'batchGet') for (const i of out as unknown[]) counts.rru += kb(i, 4096);
      counts.wru += wru;
      if (wru) counts.wruByRecord[kind] = (counts.wruByRecord[kind] ?? 0) + wru;
      return out;
    };
  }
  return counts;
}

/** Counts S3 PUTs (raw logs, items too big for the table). */
function countBlobs(b: Blobs) {
  const c = { puts: 0 };
  const orig = b.put.bind(b);
  b.put = (...args: Parameters<Blobs['put']>) => {
    c.puts++;
    return orig(...args);
  };
  return c;
}

const verifyHost = (table: Table, tenant: string, host: string) => verifyFixtureHost(table, tenant, host, { concurrency: 64, delay_ms: 0 });

/** RSS of a process, in bytes (Linux). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** A process's RSS once it has stopped moving (under 2 MB over a second; at most 30 s). */
async function settledRss(pid: number): Promise<number> {
  let last = rssOf(pid);
  for (const until = Date.now() + 30_000; Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = rssOf(pid);
    if (Math.abs(now - last) < 2e6) return now;
    last = now;
  }
  return last;
}

/**
 * dynalite and s3rver in a process of their own: they stand in for DynamoDB and S3, whose memory
 * is not the service's on AWS, and LevelDB maps its files into memory as the table grows. Under
 * the same heap bound as in `npm start`, where they share the service's process.
 */
async function startStoresProcess(dataDir: string) {
  const child = spawn(process.execPath, [HEAP_FLAG, ...(process.env.GLEANER_BENCH_STORES_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'functions/local/stores-main.ts', '--exit-with-stdin', dataDir, 'gleaner', 'gleaner-results', 'gleaner-raw'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((res, rej) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) res(buf.split('\n')[0]!);
    });
    child.once('exit', (code) => rej(new Error(`stores process exited ${code}`)));
  });
  const ends = JSON.parse(line) as { dynamoEndpoint: string; s3Endpoint: string };
  return { ...ends, pid: child.pid!, stop: () => new Promise<void>((r) => (child.once('exit', () => r()), child.stdin.end())) };
}

/**
 * Where the old generation's garbage comes from: V8's sampling heap profiler, keeping objects that
 * survived a scavenge and died in a mark-compact (GLEANER_BENCH_CRAWL_HEAPPROF=1; diagnostics).
 */
async function promotedSampler() {
  const { Session } = await import('node:inspector/promises');
  const s = new Session();
  s.connect();
  await s.post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: true } as object);
  return {
    async stop() {
      const { profile } = (await s.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
      type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };
      const by = new Map<string, number>();
      const walk = (n: Node, stack: string[]) => {
        const here = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\/(node_modules|functions)\//, '$1/')}:${n.callFrame.lineNumber}`;
        const st = [...stack, here];
        if (n.selfSize) {
          const key = st.filter((f) => /functions\/|node_modules\//.test(f)).slice(-3).join(' < ');
          by.set(key, (by.get(key) ?? 0) + n.selfSize);
        }
        for (const c of n.children) walk(c, st);
      };
      walk(profile.head, []);
      s.disconnect();
      const total = [...by.values()].reduce((a, b) => a + b, 0);
      return `sampled allocations (incl. promoted-then-collected), total ${(total / 1e6).toFixed(0)} MB:\n${[...by].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `  ${(v / 1e6).toFixed(1)} MB ${k}`).join('\n')}`;
    },
  };
}

async function countsArm(site: FixtureSite, PAGES: number, allow: string[] = []) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-crawlbench-'));
  const host = new URL(site.baseUrl).host;
  const stores = STORES === 'process' ? await startStoresProcess(join(dataDir, 'stores')) : undefined;
  const endpoints = stores ? { GLEANER_DYNAMODB_ENDPOINT: stores.dynamoEndpoint, GLEANER_S3_ENDPOINT: stores.s3Endpoint } : {};
  // Slices on this thread (GLEANER_LOCAL_CRAWL=inline): the wrapped table must see their calls.
  const svc = await startLocal(loadConfig({ ...env, PORT: '0', GLEANER_DATA_DIR: dataDir, GLEANER_EGRESS_ALLOW: [host, ...allow].join(','), GLEANER_LOCAL_CRAWL: 'inline', ...endpoints }), { quiet: true });
  const storesRss = () => (stores ? rssOf(stores.pid) : 0);
  try {
    await verifyHost(svc.deps.table, svc.tenantId, host);
    const counts = countTable(svc.deps.table);
    const blobs = countBlobs(svc.deps.blobs);
    const call = async (path: string, json?: unknown) =>
      (await fetch(`${svc.url}${path}`, { method: json ? 'POST' : 'GET', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: json ? JSON.stringify(json) : undefined })).json() as Promise<any>;
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    const storesRss0 = storesRss();
    let rssMax = rss0;
    let storesRssMax = storesRss0;
    const heap0 = process.memoryUsage().heapTotal;
    let heapMax = heap0;
    // RSS once the crawl has warmed up (10% of the pages): growth after it shows whether memory
    // follows the crawl's size or only the process's working set.
    let rssWarm: number | undefined;
    let pagesSeen = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      rssMax = Math.max(rssMax, m.rss);
      heapMax = Math.max(heapMax, m.heapTotal);
      if (rssWarm === undefined && pagesSeen >= PAGES / 10) rssWarm = m.rss;
      storesRssMax = Math.max(storesRssMax, storesRss());
    }, 100);
    const prof = process.env.GLEANER_BENCH_CRAWL_HEAPPROF ? await promotedSampler() : undefined;
    const t0 = performance.now();
    const run = await call('/v1/runs', input(site.baseUrl, PAGES));
    if (!run.id) throw new Error(`crawl not started: ${JSON.stringify(run)}`);
    let r;
    for (;;) {
      r = await call(`/v1/runs/${run.id}`);
      if (!r.status) throw new Error(`run not read: ${JSON.stringify(r)}`);
      if (!['queued', 'running'].includes(r.status)) break;
      pagesSeen = r.progress?.pages_done ?? 0;
      await new Promise((res) => setTimeout(res, 500));
    }
    const secs = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    if (prof) console.log(await prof.stop());
    if (process.env.GLEANER_BENCH_CRAWL_MEM) {
      global.gc?.();
      const m = process.memoryUsage();
      const { getHeapSpaceStatistics } = await import('node:v8');
      console.log(getHeapSpaceStatistics().map((x) => `${x.space_name} ${(x.space_size / 1e6).toFixed(0)}/${(x.space_used_size / 1e6).toFixed(0)}`).join(', '));
      console.log(readFileSync('/proc/self/status', 'utf8').split('\n').filter((l) => /^(Rss|VmRSS|VmData)/.test(l)).join('; '));
      const status = (pid: number | 'self') => readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').filter((l) => /^(VmRSS|RssAnon|RssFile)/.test(l)).join('; ').replace(/\s+/g, ' ');
      const storesPid = stores?.pid ?? 'self';
      console.log(`stores process (${stores ? 'own' : 'this one'}): ${status(storesPid)}`);
      const maps = readFileSync(`/proc/${storesPid}/smaps`, 'utf8').split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/).map((m) => ({ name: m.split('\n')[0]!.split(/\s+/).slice(5).join(' ') || '[anon]', rss: Number(/\nRss:\s+(\d+)/.exec(m)?.[1] ?? 0) }));
      const byName = new Map<string, number>();
      for (const m of maps) {
        const name = m.name.replace(/\d{6}\.ldb$/, 'NNNNNN.ldb');
        byName.set(name, (byName.get(name) ?? 0) + m.rss);
      }
      console.log(`stores process mappings (kB): ${[...byName].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ${v}`).join(', ')}`);
      console.log(`memory after the crawl (after gc): rss +${((m.rss - rss0) / 1e6).toFixed(0)} MB, heapTotal ${(m.heapTotal / 1e6).toFixed(0)} MB, heapUsed ${(m.heapUsed / 1e6).toFixed(0)} MB, external ${(m.external / 1e6).toFixed(0)} MB, arrayBuffers ${(m.arrayBuffers / 1e6).toFixed(0)} MB; peak rss +${((rssMax - rss0) / 1e6).toFixed(0)} MB`);
    }
    if (r.status !== 'succeeded') throw new Error(`crawl ended ${r.status}: ${JSON.stringify(r.error)}`);
    const pages = r.progress.items as number;
    // Per 100,000 pages at the prices above: SQS counts a send, a receive and a delete per message
    // (an upper bound: Lambda's event source receives and deletes in batches).
    const per = 100_000 / pages;
    const cost = { dynamo: (counts.wru * PRICES.wru + counts.rru * PRICES.rru) * per, sqs: counts.messages * 3 * PRICES.sqs * per, s3: blobs.puts * PRICES.s3put * per };
    return { cost, wruPerPage: counts.wru / pages, rruPerPage: counts.rru / pages, messagesPerPage: counts.messages / pages, s3PerPage: blobs.puts / pages, pages, secs, rate: pages / secs, rssGrowthMb: (rssMax - rss0) / 1e6, rssAfterWarmMb: ((rssMax - (rssWarm ?? rss0)) / 1e6), heapGrowthMb: (heapMax - heap0) / 1e6, storesRssGrowthMb: (storesRssMax - storesRss0) / 1e6, tablePerPage: counts.table / pages, queuePerPage: counts.queue / pages, byOp: Object.fromEntries(Object.entries(counts.byOp).map(([k, v]) => [k, +(v / pages).toFixed(2)])), byRecord: Object.fromEntries(Object.entries(counts.byRecord).sort((x, y) => y[1] - x[1]).map(([k, v]) => [k, +(v / pages).toFixed(2)])), wruByRecord: Object.fromEntries(Object.entries(counts.wruByRecord).sort((x, y) => y[1] - x[1]).map(([k, v]) => [k, +(v / pages).toFixed(2)])) };
  } finally {
    await svc.close();
    await stores?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** CheerioCrawler on the same site at the same concurrency, in a process of its own (bench/crawlee-main.ts). */
async function crawleeArm(baseUrl: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/crawlee-main.ts', baseUrl, String(PAGES), String(CONCURRENCY)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  const line = out.trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`crawlee exited ${code}: ${out.slice(-500)}`);
  const { pages, secs, cpuMs } = JSON.parse(line) as { pages: number; secs: number; cpuMs: number };
  return { pages, secs, rate: pages / secs, cpuMsPerPage: cpuMs / pages };
}

/** The fixture site in a process of its own (test/fixtures/site/site-main.ts). */
async function siteProcess(pages: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/site/site-main.ts', String(pages)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const baseUrl = await new Promise<string>((res, rej) => {
    child.stdout.once('data', (d: Buffer) => res(d.toString().trim()));
    child.once('exit', (code) => rej(new Error(`fixture site exited ${code}`)));
  });
  return { baseUrl, pid: child.pid!, stop: () => new Promise<void>((r) => (child.once('exit', () => r()), child.stdin.end())) };
}

/** CPU seconds (user + system) a process has used so far (Linux; clock ticks of 1/100 s). */
const cpuOf = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

/**
 * The crawl as a user runs it: `npm start`'s entry in its own process (its data stores in its
 * child), the site in another, the crawl started and awaited through the API.
 */
async function npmStartArm(baseUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-crawlbench-'));
  const host = new URL(baseUrl).host;
  const { GLEANER_BOOTSTRAP_API_KEY: _own, ...childEnv } = env; // the child uses LocalProcess's key
  const svc = new LocalProcess({ ...childEnv, GLEANER_DATA_DIR: dataDir, GLEANER_EGRESS_ALLOW: host });
  try {
    await svc.start();
    const pid = svc.pid!;
    const storesPid = Number(readFileSync(join(dataDir, 'stores.pid'), 'utf8').trim());
    const tenant = (await svc.call('/v1/tenant')).body.tenant_id as string;
    await verifyHost(svc.table(), tenant, host);
    // The service at rest has no crawl thread: it starts with the crawl's first slice
    // (crawl-thread.ts), so the growth below includes loading it (about +85 MB of modules and
    // heap) as well as the crawl's own working set. The thread ends 60 s after the crawl.
    const rss0 = await settledRss(pid);
    const storesRss0 = rssOf(storesPid);
    const cpu0 = cpuOf(pid);
    const storesCpu0 = cpuOf(storesPid);
    let rssMax = rss0;
    let storesRssMax = storesRss0;
    const sampler = setInterval(() => {
      rssMax = Math.max(rssMax, rssOf(pid));
      storesRssMax = Math.max(storesRssMax, rssOf(storesPid));
    }, 100);
    const t0 = performance.now();
    const created = await svc.call('/v1/runs', { method: 'POST', json: input(baseUrl, PAGES) });
    if (created.status !== 201) throw new Error(`run not created: ${created.status} ${created.text}`);
    let r;
    for (;;) {
      r = (await svc.call(`/v1/runs/${created.body.id}?wait=1`)).body;
      if (!['queued', 'running'].includes(r.status)) break;
    }
    const secs = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    if (r.status !== 'succeeded') throw new Error(`crawl ended ${r.status}: ${JSON.stringify(r.error)}`);
    const pages = r.progress.items as number;
    return { pages, secs, rate: pages / secs, rssAtRestMb: rss0 / 1e6, rssGrowthMb: (rssMax - rss0) / 1e6, storesRssGrowthMb: (storesRssMax - storesRss0) / 1e6, cpuMsPerPage: ((cpuOf(pid) - cpu0) * 1000) / pages, storesCpuMsPerPage: ((cpuOf(storesPid) - storesCpu0) * 1000) / pages };
  } finally {
    await svc.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function killArm(site: FixtureSite) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-crawlkill-'));
  const host = new URL(site.baseUrl).host;
  const { GLEANER_BOOTSTRAP_API_KEY: _own, ...childEnv } = env; // the child uses LocalProcess's key
  const svc = new LocalProcess({ ...childEnv, GLEANER_DATA_DIR: dataDir, GLEANER_EGRESS_ALLOW: host, GLEANER_LOG_LEVEL: 'warn' });
  try {
    await svc.start();
    const tenant = (await svc.call('/v1/tenant')).body.tenant_id as string;
    if (!/^ten_/.test(tenant)) throw new Error(`no tenant id from /v1/tenant: ${tenant}`);
    await verifyHost(svc.table(), tenant, host);
    const before = site.hitsByPath();
    const created = await svc.call('/v1/runs', { method: 'POST', json: input(site.baseUrl, KILL_PAGES) });
    if (created.status !== 201) throw new Error(`run not created: ${created.status} ${created.text}`);
    const id = created.body.id as string;
    const graphHits = () => {
      const m = new Map<string, number>();
      for (const [p, n] of site.hitsByPath()) if (p.startsWith('/graph/')) m.set(p, n - (before.get(p) ?? 0));
      return m;
    };
    while ([...graphHits().values()].filter((n) => n > 0).length < KILL_PAGES / 2) await new Promise((r) => setTimeout(r, 20));
    console.log(`kill arm: SIGKILL after ${[...graphHits().values()].filter((n) => n > 0).length} pages`);
    await svc.kill('SIGKILL');
    await svc.start();
    let r;
    for (;;) {
      r = (await svc.call(`/v1/runs/${id}?wait=20`)).body;
      if (!['queued', 'running'].includes(r.status)) break;
    }
    const nd = (await svc.call(`/v1/runs/${id}/results?format=ndjson`)).text.trim().split('\n');
    const urls = nd.map((l) => JSON.parse(l).url as string);
    const fetchedTwice = [...graphHits().values()].filter((n) => n > 1).length;
    return { status: r.status as string, items: urls.length, itemsDuplicated: urls.length - new Set(urls).size, fetchedTwice };
  } finally {
    await svc.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Pages of the big crawl in the fairness arm (GLEANER_BENCH_CRAWL_FAIR_PAGES; its site has as many), and one-page runs timed. */
const FAIR_PAGES = Number(process.env.GLEANER_BENCH_CRAWL_FAIR_PAGES ?? 100_000);
const FAIR_RUNS = Number(process.env.GLEANER_BENCH_CRAWL_FAIR_RUNS ?? 20);
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

/**
 * Fairness through the API (issue 21, issue 19 finding 7), as a user would see it: `npm start`'s
 * entry in its own process, the site in another, a second tenant created with the operator CLI.
 * That tenant's one-page runs are timed end to end (POST, then wait for the result), idle and
 * then while the first tenant's crawl of FAIR_PAGES pages runs. `verified`: the crawl tenant
 * verified the host (its own gate, 64/0): the runs share only the service, its workers and its
 * queue. Otherwise both share the host's polite gate (2 slots, 250 ms apart) as well, the case a
 * first-come gate starved.
 */
async function fairnessArm(baseUrl: string, verified: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-crawlfair-'));
  const host = new URL(baseUrl).host;
  const { GLEANER_BOOTSTRAP_API_KEY: _own, ...childEnv } = env; // the child uses LocalProcess's key
  const svc = new LocalProcess({ ...childEnv, GLEANER_DATA_DIR: dataDir, GLEANER_EGRESS_ALLOW: host });
  try {
    await svc.start();
    const tenant = (await svc.call('/v1/tenant')).body.tenant_id as string;
    if (verified) await verifyHost(svc.table(), tenant, host);
    const otherKey = ((await admin(['tenants', 'create', '--name', 'small'], svc.table())) as { api_key: string }).api_key;
    const call = async (path: string, json?: unknown, key = PROCESS_KEY) =>
      (await fetch(`http://127.0.0.1:${svc.port}${path}`, { method: json ? 'POST' : 'GET', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: json ? JSON.stringify(json) : undefined })).json() as Promise<any>;
    const onePage = async (i: number) => {
      const t0 = performance.now();
      const r = await call('/v1/runs', { scraper_id: 'page-content', input: { url: `${baseUrl}/graph/${(i * 7919) % FAIR_PAGES}?fair=${i}`, engine: 'http' } }, otherKey);
      let status = r.status as string;
      while (status === 'queued' || status === 'running') status = (await call(`/v1/runs/${r.id}?wait=5`, undefined, otherKey)).status;
      if (status !== 'succeeded') throw new Error(`one-page run ended ${status}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < 3; i++) await onePage(1000 + i); // warm up (robots.txt, first-call paths), not counted
    const idle: number[] = [];
    for (let i = 0; i < FAIR_RUNS; i++) idle.push(await onePage(i));
    const big = await call('/v1/runs', input(baseUrl, FAIR_PAGES));
    // Measured once the crawl is in full swing.
    for (;;) {
      const r = await call(`/v1/runs/${big.id}`);
      if ((r.progress?.pages_done ?? 0) >= Math.min(verified ? 500 : 50, FAIR_PAGES / 10) || !['queued', 'running'].includes(r.status)) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    const done0 = (await call(`/v1/runs/${big.id}`)).progress?.pages_done ?? 0;
    const t0 = performance.now();
    const during: number[] = [];
    for (let i = 0; i < FAIR_RUNS; i++) during.push(await onePage(FAIR_RUNS + i));
    const after = await call(`/v1/runs/${big.id}`);
    const crawlRate = ((after.progress?.pages_done ?? 0) - done0) / ((performance.now() - t0) / 1000);
    const stillRunning = ['queued', 'running'].includes(after.status);
    await call(`/v1/runs/${big.id}/cancel`, {});
    return { idleP95: p95(idle), duringP95: p95(during), crawlPagesDone: after.progress?.pages_done ?? 0, crawlRate, stillRunning };
  } finally {
    await svc.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchCrawl(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const site = await startFixtureSite({ graphPages: PAGES, verifyAnyToken: true, robotsTxt: 'User-agent: *\nAllow: /\n' });
  try {
    // Speed: both crawlers against one site process, the service as `npm start` runs it.
    if (ARMS.has('gleaner') || ARMS.has('crawlee')) {
      const remote = await siteProcess(PAGES);
      try {
        const g = ARMS.has('gleaner') ? await npmStartArm(remote.baseUrl) : undefined;
        if (g) console.log(`gleaner (npm start, site in its own process): ${g.pages} pages in ${g.secs.toFixed(1)} s = ${g.rate.toFixed(1)} pages/s; service RSS ${g.rssAtRestMb.toFixed(0)} MB at rest, +${g.rssGrowthMb.toFixed(0)} MB, CPU ${g.cpuMsPerPage.toFixed(2)} ms a page; data stores process RSS +${g.storesRssGrowthMb.toFixed(0)} MB, CPU ${g.storesCpuMsPerPage.toFixed(2)} ms a page`);
        const c = ARMS.has('crawlee') ? await crawleeArm(remote.baseUrl) : undefined;
        if (c) console.log(`crawlee (CheerioCrawler, same site process): ${c.pages} pages in ${c.secs.toFixed(1)} s = ${c.rate.toFixed(1)} pages/s, CPU ${c.cpuMsPerPage.toFixed(2)} ms a page`);
        if (g && c) {
          const ratio = g.rate / c.rate;
          out.push({ name: `crawl ${PAGES} pages, pages/s (concurrency ${CONCURRENCY}; npm start vs CheerioCrawler)`, measured: g.rate.toFixed(1), baseline: `${c.rate.toFixed(1)} (CheerioCrawler)`, ratio, target: '>= 1.5x', pass: ratio >= 1.5 && g.pages === PAGES });
          // CPU a page, less noisy than the rate on a shared machine: the service and its stores
          // process (DynamoDB and S3 on AWS) together, against CheerioCrawler's one process (which
          // makes no markdown and stores nothing durably).
          const cpu = g.cpuMsPerPage + g.storesCpuMsPerPage;
          out.push({ name: `crawl CPU a page, ms (npm start: service ${g.cpuMsPerPage.toFixed(2)} + stores ${g.storesCpuMsPerPage.toFixed(2)}; vs CheerioCrawler)`, measured: cpu.toFixed(2), baseline: `${c.cpuMsPerPage.toFixed(2)} (CheerioCrawler)`, ratio: cpu / c.cpuMsPerPage, target: 'reported', pass: true });
        }
        if (g) out.push({ name: 'crawl service RSS growth, MB (npm start; its data stores process apart)', measured: g.rssGrowthMb.toFixed(0), baseline: '100', ratio: g.rssGrowthMb / 100, target: '<= 100 MB', pass: g.rssGrowthMb <= 100 });
      } finally {
        await remote.stop();
      }
    }
    // The scale arm's site is started first: the API's egress check is built once per process,
    // from the first service's config, so both sites are allowed from the start.
    const bigSite = ARMS.has('scale') ? await startFixtureSite({ graphPages: SCALE_PAGES, verifyAnyToken: true, robotsTxt: 'User-agent: *\nAllow: /\n' }) : undefined;
    const allow = bigSite ? [new URL(bigSite.baseUrl).host] : [];
    const g = ARMS.has('counts') || ARMS.has('scale') ? await countsArm(site, PAGES, allow) : undefined;
    const costOf = (x: NonNullable<typeof g>) => x.cost.dynamo + x.cost.sqs + x.cost.s3;
    if (g) {
      console.log(`service heap bound: ${(getHeapStatistics().heap_size_limit / 1e6).toFixed(0)} MB (functions/local/heap-bound.ts)`);
      console.log(`counts arm (service in this process): ${g.pages} pages in ${g.secs.toFixed(1)} s = ${g.rate.toFixed(1)} pages/s; RSS +${g.rssGrowthMb.toFixed(0)} MB (+${g.rssAfterWarmMb.toFixed(0)} MB after the first 10% of pages; V8 heap committed +${g.heapGrowthMb.toFixed(0)} MB) (${STORES === "process" ? `stores process +${g.storesRssGrowthMb.toFixed(0)} MB` : "stores embedded, included"}); table ops/page ${g.tablePerPage.toFixed(2)} ${JSON.stringify(g.byOp)}; local-queue ops/page ${g.queuePerPage.toFixed(2)}`);
      console.log(`gleaner table calls per page by record: ${JSON.stringify(g.byRecord)}`);
      console.log(`gleaner WRU per page by record: ${JSON.stringify(g.wruByRecord)}`);
      console.log(`cost per 100,000 pages at AWS on-demand list prices (us-east-1: DynamoDB $1.25/M WRU, $0.25/M RRU; SQS $0.40/M requests; S3 PUT $0.005/1,000), from counted operations: DynamoDB $${g.cost.dynamo.toFixed(2)} (${g.wruPerPage.toFixed(2)} WRU + ${g.rruPerPage.toFixed(2)} RRU a page), SQS $${g.cost.sqs.toFixed(3)} (${g.messagesPerPage.toFixed(2)} messages a page, x3 requests), S3 $${g.cost.s3.toFixed(3)} (${g.s3PerPage.toFixed(2)} PUTs a page); total $${costOf(g).toFixed(2)} (Lambda time not included: the bench's process also serves the site); before this round: $${COST_BEFORE.usd} (${COST_BEFORE.wruPerPage} WRU, ${COST_BEFORE.tablePerPage} table calls a page)`);
      out.push({ name: `crawl RSS growth, MB (service in the bench process${STORES === 'embedded' ? ', stores embedded' : ''})`, measured: g.rssGrowthMb.toFixed(0), baseline: '100', ratio: g.rssGrowthMb / 100, target: '<= 100 MB', pass: g.rssGrowthMb <= 100 });
      out.push({ name: 'crawl table calls per page (vs before this round)', measured: g.tablePerPage.toFixed(2), baseline: `${COST_BEFORE.tablePerPage}`, ratio: g.tablePerPage / COST_BEFORE.tablePerPage, target: '<= 3 calls', pass: g.tablePerPage <= 3 });
      out.push({ name: 'crawl DynamoDB write request units per page (vs before this round)', measured: g.wruPerPage.toFixed(2), baseline: `${COST_BEFORE.wruPerPage}`, ratio: g.wruPerPage / COST_BEFORE.wruPerPage, target: 'reported', pass: true });
      out.push({ name: 'crawl cost per 100,000 pages, USD (DynamoDB + SQS + S3; vs before this round)', measured: costOf(g).toFixed(2), baseline: `${COST_BEFORE.usd.toFixed(2)}`, ratio: costOf(g) / COST_BEFORE.usd, target: '<= $0.50', pass: costOf(g) <= 0.5 });
    }
    if (g && bigSite) {
      try {
        const b = await countsArm(bigSite, SCALE_PAGES, [new URL(site.baseUrl).host]);
        console.log(`scale arm: ${b.pages} pages in ${b.secs.toFixed(1)} s = ${b.rate.toFixed(1)} pages/s; table calls/page ${b.tablePerPage.toFixed(3)} (${g.pages} pages: ${g.tablePerPage.toFixed(3)}); WRU/page ${b.wruPerPage.toFixed(3)} (${g.wruPerPage.toFixed(3)}); RRU/page ${b.rruPerPage.toFixed(3)} (${g.rruPerPage.toFixed(3)}); ms/page ${((b.secs * 1000) / b.pages).toFixed(2)} (${((g.secs * 1000) / g.pages).toFixed(2)}); $/100k ${costOf(b).toFixed(3)} (${costOf(g).toFixed(3)}); RSS +${b.rssGrowthMb.toFixed(0)} MB`);
        console.log(`scale arm table calls per page by record: ${JSON.stringify(b.byRecord)}`);
        const size = `${SCALE_PAGES}-page vs ${PAGES}-page crawl`;
        out.push({ name: `${size}: table calls per page`, measured: b.tablePerPage.toFixed(3), baseline: g.tablePerPage.toFixed(3), ratio: b.tablePerPage / g.tablePerPage, target: '<= 1.1x', pass: b.tablePerPage / g.tablePerPage <= 1.1 && b.pages === SCALE_PAGES });
        out.push({ name: `${size}: cost per page (WRU + RRU + SQS + S3)`, measured: `$${costOf(b).toFixed(3)}/100k`, baseline: `$${costOf(g).toFixed(3)}/100k`, ratio: costOf(b) / costOf(g), target: '<= 1.1x', pass: costOf(b) / costOf(g) <= 1.1 });
        out.push({ name: `${size}: time per page`, measured: `${((b.secs * 1000) / b.pages).toFixed(2)} ms`, baseline: `${((g.secs * 1000) / g.pages).toFixed(2)} ms`, ratio: (b.secs / b.pages) / (g.secs / g.pages), target: '<= 1.1x', pass: (b.secs / b.pages) / (g.secs / g.pages) <= 1.1 });
      } finally {
        await bigSite.close();
      }
    }
    const fairArms = (['fair', 'fair-shared'] as const).filter((a) => ARMS.has(a));
    const fairSite = fairArms.length ? await siteProcess(FAIR_PAGES) : undefined;
    for (const arm of fairArms) {
      const verified = arm === 'fair';
      const f = await fairnessArm(fairSite!.baseUrl, verified);
      const ratio = f.duringP95 / f.idleP95;
      console.log(`fairness (npm start; ${verified ? 'crawl host verified: own gate, shared service' : 'crawl host unverified: shared polite gate and service'}): another tenant's one-page run p95 ${f.idleP95.toFixed(0)} ms idle, ${f.duringP95.toFixed(0)} ms during a ${FAIR_PAGES}-page crawl (${f.crawlPagesDone} pages done by the end, ${f.crawlRate.toFixed(0)} pages/s while measured, ${f.stillRunning ? 'still running' : 'finished'}), ${FAIR_RUNS} runs each`);
      out.push({ name: `fairness${verified ? '' : ' (shared polite gate)'}: one-page run p95 during a ${FAIR_PAGES}-page crawl vs idle`, measured: `${f.duringP95.toFixed(0)} ms`, baseline: `${f.idleP95.toFixed(0)} ms idle`, ratio, target: '<= 2x', pass: ratio <= 2 && f.stillRunning });
    }
    await fairSite?.stop();
    if (!ARMS.has('kill')) return out;
    const k = await killArm(site);
    console.log(`kill arm (${KILL_PAGES} pages): ${k.status}, ${k.items} items, ${k.itemsDuplicated} duplicated, ${k.fetchedTwice} pages fetched twice`);
    out.push({ name: `crawl killed mid-way (${KILL_PAGES} pages): items duplicated`, measured: String(k.itemsDuplicated), baseline: '0', ratio: 1, target: '0', pass: k.itemsDuplicated === 0 && k.items === KILL_PAGES });
    // A page keeps its place until its outcome is written: a kill refetches at most the pages in flight.
    const inFlight = RUNS * PER_SLICE;
    out.push({ name: 'crawl killed mid-way: pages fetched twice', measured: String(k.fetchedTwice), baseline: `<= ${inFlight} (pages in flight)`, ratio: k.fetchedTwice / inFlight, target: 'only pages in flight', pass: k.fetchedTwice <= inFlight });
  } finally {
    await site.close();
  }
  return out;
}

if (process.argv[1]?.endsWith('crawl.bench.ts')) {
  const { report } = await import('./stats.js');
  report(await benchCrawl());
  process.exit(0);
}
