import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { HEAP_FLAG } from '../functions/local/heap-bound.js';
import { percentile, type BenchResult } from './stats.js';

/**
 * The authenticated hot path as a client sees it: `npm start`'s own entry (functions/local/main.ts,
 * stores in their child process) in a process of its own, loaded over 32 keep-alive connections.
 * Baseline: the same server's unauthenticated `GET /v1`, measured in alternating rounds in the same
 * run. Each authenticated read must reach >= 0.5x the baseline's requests/s, with p99 <= 4x the
 * baseline's p99. The key's tenant keeps the default limits (600 requests per 60 s), so most
 * authenticated calls are answered 429 after the first seconds (the path a client hammering the
 * API takes); GLEANER_BENCH_HOT_LIMIT=<n> raises the tenant's limit to n per second instead.
 */
export async function benchHotPath(): Promise<BenchResult[]> {
  const seconds = Number(process.env.GLEANER_BENCH_HOT_SECONDS ?? 3);
  const rounds = Number(process.env.GLEANER_BENCH_HOT_ROUNDS ?? 3);
  const connections = 32;
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-hot-'));
  const key = 'glr_benchbenchbenchbenchbenchbench0000';
  const port = await freePortTriple();
  const svc = await startService(dataDir, port, key);
  const base = `http://127.0.0.1:${port}`;
  const pool = new Pool(base, { connections, pipelining: 1 });
  try {
    if (process.env.GLEANER_BENCH_HOT_LIMIT) {
      // The operator CLI, against the running service's store (as `npm run admin` does).
      process.env.PORT = String(port);
      const { run } = await import('../functions/cli/admin.js');
      const tenants = (await run(['tenants', 'list'])) as { tenant_id: string; name: string }[];
      const id = tenants.find((t) => t.name === 'default')!.tenant_id;
      await run(['tenants', 'set-limits', id, '--rate', `${Number(process.env.GLEANER_BENCH_HOT_LIMIT)}/1`]);
    }
    const arms: { name: string; path: string; auth: boolean }[] = [
      { name: 'GET /v1 (no key)', path: '/v1', auth: false },
      { name: 'GET /v1/tenant', path: '/v1/tenant', auth: true },
      { name: 'GET /v1/runs?limit=1', path: '/v1/runs?limit=1', auth: true },
      { name: 'GET /v1/scrapers', path: '/v1/scrapers', auth: true },
    ];
    const samples = new Map(arms.map((a) => [a.name, { done: 0, ms: 0, lat: [] as number[], statuses: new Map<number, number>() }]));
    for (const a of arms) await load(pool, a.path, a.auth ? key : undefined, connections, 0.5); // warm up
    for (let round = 0; round < rounds; round++) {
      for (const a of arms) {
        const s = samples.get(a.name)!;
        const r = await load(pool, a.path, a.auth ? key : undefined, connections, seconds);
        s.done += r.done;
        s.ms += r.ms;
        s.lat.push(...r.lat);
        for (const [st, c] of r.statuses) s.statuses.set(st, (s.statuses.get(st) ?? 0) + c);
      }
    }
    const rps = (n: string) => (samples.get(n)!.done / samples.get(n)!.ms) * 1000;
    const p99 = (n: string) => percentile(samples.get(n)!.lat, 99);
    const b = arms[0]!.name;
    const describe = (n: string) => {
      const s = samples.get(n)!;
      const st = [...s.statuses].map(([k, v]) => `${k}: ${v}`).join(', ');
      return `${rps(n).toFixed(0)} req/s, p50 ${percentile(s.lat, 50).toFixed(1)} ms, p99 ${p99(n).toFixed(1)} ms (${st})`;
    };
    const rss = await rssOf(svc.child.pid!);
    const out: BenchResult[] = [];
    for (const a of arms.slice(1)) {
      const thr = rps(a.name) / rps(b);
      const tail = p99(a.name) / p99(b);
      out.push({ name: `hot path ${a.name} throughput (${connections} conns)`, measured: describe(a.name), baseline: `${b}: ${describe(b)}`, ratio: thr, target: '>= 0.5', pass: thr >= 0.5 });
      out.push({ name: `hot path ${a.name} p99`, measured: `p99 ${p99(a.name).toFixed(1)} ms`, baseline: `${b}: p99 ${p99(b).toFixed(1)} ms`, ratio: tail, target: '<= 4.0', pass: tail <= 4 });
    }
    console.log(`service RSS after the load: ${(rss / 1e6).toFixed(0)} MB`);
    return out;
  } finally {
    await pool.close();
    await stopService(svc.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Keeps `connections` requests in flight for `seconds`; every response body is read. */
async function load(pool: Pool, path: string, key: string | undefined, connections: number, seconds: number) {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const lat: number[] = [];
  const statuses = new Map<number, number>();
  const start = performance.now();
  const end = start + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const r = await pool.request({ method: 'GET', path, headers });
      await r.body.arrayBuffer();
      lat.push(performance.now() - t);
      statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
      if (r.statusCode !== 200 && r.statusCode !== 429) throw new Error(`${path} -> ${r.statusCode}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { done, ms: performance.now() - start, lat, statuses };
}

/** `npm start`'s entry, as `npm start` runs it (heap bound, stores in their own process). */
async function startService(dataDir: string, port: number, key: string): Promise<{ child: ChildProcess }> {
  const child = spawn(process.execPath, [HEAP_FLAG, '--import', 'tsx', 'functions/local/main.ts'], {
    env: { ...process.env, PORT: String(port), GLEANER_DATA_DIR: dataDir, GLEANER_LOG_LEVEL: 'error', GLEANER_BOOTSTRAP_API_KEY: key },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Gleaner is running')) resolve();
    });
    child.once('exit', (c) => reject(new Error(`service exited (${c}) before it was ready`)));
  });
  return { child };
}

async function stopService(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function rssOf(pid: number): Promise<number> {
  const { readFileSync } = await import('node:fs');
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/** A port p with p+1 and p+2 free too (npm start's stores take PORT+1 and PORT+2). */
async function freePortTriple(): Promise<number> {
  for (;;) {
    const p = await new Promise<number>((res) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const a = s.address() as { port: number };
        s.close(() => res(a.port));
      });
    });
    if (p > 65000) continue;
    const free = await Promise.all([p + 1, p + 2].map((q) => new Promise<boolean>((res) => {
      const s = createServer().once('error', () => res(false)).listen(q, '127.0.0.1', () => s.close(() => res(true)));
    })));
    if (free.every(Boolean)) return p;
  }
}
