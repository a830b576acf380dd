import { defineWorker } from './worker-kit.js';
import { executeRun, failRun, type RunWorkerDeps } from '../core/runs/execute-run.js';
import { executeTask } from '../core/runs/execute-task.js';
import { failTask } from '../core/runs/scrape-task.js';
import { executeCrawlSlice } from '../core/crawl/crawl-run.js';
import { randomUUID } from 'node:crypto';
import { EgressGuard } from '../core/governance/index.js';
import { processRobots } from '../core/governance/process-robots.js';
import { BrowserSession } from '../core/engine/fetch-browser.js';
import type { BrowserLauncher } from '../ports/browser.js';
import type { Deps } from '../runtime.js';
import { crawlGuard } from './run-guards.js';

/** One launcher per binary setting (GLEANER_CHROMIUM: a test process may run services on both). */
const launchers = new Map<string, Promise<BrowserLauncher>>();
/** One robots.txt cache per process, fetched through its own egress guard (shared with the API in local mode). */
const robotsPolicy = (d: Deps) => processRobots(d.config);
/** System Chromium locally (falling back to @sparticuz/chromium), @sparticuz/chromium on Lambda. */
const browserLauncher = (d: Deps): Promise<BrowserLauncher> => {
  const key = `${d.config.mode}:${d.config.chromiumBinary ?? 'auto'}`;
  let l = launchers.get(key);
  if (!l) {
    l = d.config.mode === 'aws'
      ? import('../adapters/aws/chromium-launcher.js').then((m) => new m.LambdaChromiumLauncher())
      : import('../adapters/local/chromium-launcher.js').then((m) => new m.LocalChromiumLauncher({ binary: d.config.chromiumBinary }));
    launchers.set(key, l);
  }
  return l;
};

/** One guard per run/task (a crawl's slices share their run's, run-guards.ts), so connections are per run. */
const runDeps = async (d: Deps, guard?: EgressGuard): Promise<RunWorkerDeps> => {
  const l = await browserLauncher(d);
  return {
    deps: d,
    guard: guard ?? new EgressGuard({ allow: d.config.egressAllow, userAgent: d.config.userAgent }),
    robots: robotsPolicy(d),
    startBrowser: (guard, profile, signal) => BrowserSession.start({ launcher: l, guard, userAgent: d.config.userAgent, profile, signal }),
    politeness: { maxConcurrent: 2, minDelayMs: 250 },
  };
};

export const { worker, handler } = defineWorker('runs', {
  'run.start': {
    timeoutMs: 880_000,
    async run(m, d, meta) {
      const w = await runDeps(d);
      try {
        await executeRun(w, m.tenant_id, m.run_id, meta.signal);
      } finally {
        await w.guard.close().catch(() => undefined);
      }
    },
    onDeadLetter: (m, d, error) => failRun(d, m.tenant_id, m.run_id, error),
  },
  'crawl.slice': {
    // A slice is a few pages; the deadline is the invocation's, and the slice hands back what it
    // cannot finish in time (crawl-slice.ts), so no crawl depends on one invocation.
    timeoutMs: 880_000,
    async run(m, d, meta) {
      // The run's connections outlive the slice (run-guards.ts): the next slice of the crawl reuses them.
      const pooled = crawlGuard(d, `${m.tenant_id}/${m.run_id}/${m.attempt}`);
      try {
        await executeCrawlSlice(await runDeps(d, pooled.guard), m, { deadline: meta.deadline, signal: meta.signal, holder: randomUUID(), receiveCount: meta.receiveCount, ...(meta.released ? { released: meta.released } : {}) });
      } finally {
        pooled.release();
      }
    },
    onDeadLetter: (m, d, error) => failRun(d, m.tenant_id, m.run_id, error),
  },
  'task.run': {
    timeoutMs: 90_000,
    async run(m, d, meta) {
      const w = await runDeps(d);
      try {
        await executeTask(w, m.tenant_id, m.task_id, meta.signal);
      } finally {
        await w.guard.close().catch(() => undefined);
      }
    },
    onDeadLetter: (m, d, error) => failTask(d, m.tenant_id, m.task_id, { code: 'scrape_failed', message: error, status: 502 }),
  },
});
