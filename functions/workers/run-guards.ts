import { EgressGuard } from '../core/governance/index.js';
import type { Deps } from '../runtime.js';

/**
 * Egress guards of crawl runs, one per run in this process, shared by the run's slices. A slice
 * is up to 50 pages; with a guard (and so a connection pool) of its own, every slice opened fresh
 * connections to the crawled host and closed them at its end: about a TCP connection every third
 * page, work for the service and for the site. The run's slices follow each other on a warm
 * worker, so the run keeps its connections from one slice to the next (still one pool per run:
 * no other run's requests share them), and the pool is closed once no slice of the run used it for
 * {@link IDLE_MS}.
 */
const IDLE_MS = 5_000;
const pools = new Map<string, { guard: EgressGuard; users: number; timer?: NodeJS.Timeout }>();

/** The run's guard (created on first use) and the function that hands it back when the slice is done. */
export function crawlGuard(d: Deps, runKey: string): { guard: EgressGuard; release: () => void } {
  let p = pools.get(runKey);
  if (!p) {
    p = { guard: new EgressGuard({ allow: d.config.egressAllow, userAgent: d.config.userAgent }), users: 0 };
    pools.set(runKey, p);
  }
  const entry = p;
  clearTimeout(entry.timer);
  entry.users++;
  let released = false;
  return {
    guard: entry.guard,
    release() {
      if (released) return;
      released = true;
      if (--entry.users > 0) return;
      entry.timer = setTimeout(() => {
        if (entry.users > 0 || pools.get(runKey) !== entry) return;
        pools.delete(runKey);
        entry.guard.close().catch(() => undefined);
      }, IDLE_MS);
      entry.timer.unref?.();
    },
  };
}

/** Close every pooled guard now (shutdown, tests). */
export async function closeCrawlGuards(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  for (const p of all) clearTimeout(p.timer);
  await Promise.all(all.map((p) => p.guard.close().catch(() => undefined)));
}
