import { HostGate, type GateTable, type HostGateOptions, type ReleaseSlot } from './politeness.js';

/** A tenant's raised limits on one host it verified (API.md, verified domains). */
export interface RaisedHost {
  /** The verified host, as a URL shows its authority (`docs.example.com`, `127.0.0.1:4100`). */
  host: string;
  tenantId: string;
  concurrency: number;
  delayMs: number;
}

/**
 * The politeness gate of a run (issue 19 finding 1): the polite, shared gate for every host, and
 * for the one host the tenant verified, a gate of its own with its raised limits. Raised limits
 * bind only the verified host itself: a redirect from it to another host (or a page of the crawl
 * on another host) waits at that host's polite gate like anybody's request.
 */
export function runGate(
  table: GateTable,
  polite: HostGateOptions | undefined,
  raised: RaisedHost | null,
  /**
   * Whose requests these are (fair sharing), a block of slots a crawl slice holds on its host,
   * when to give way, and how long a request may wait (a synchronous request's window).
   */
  extra: Pick<HostGateOptions, 'tenant' | 'hold' | 'yieldTo' | 'maxWaitMs' | 'deadlineAt'> = {},
): (Pick<HostGate, 'acquire' | 'close'>) | undefined {
  const shared = polite ? new HostGate(table, { ...polite, ...extra }) : undefined;
  if (!raised) return shared;
  // Nobody else's requests pass the tenant's own gate: nothing there to give way to.
  const own = new HostGate(table, { ...polite, ...extra, yieldTo: undefined, maxConcurrent: raised.concurrency, minDelayMs: raised.delayMs, ignoreCrawlDelay: true, tenantScope: raised.tenantId });
  const verified = raised.host.toLowerCase();
  return {
    acquire(host: string, crawlDelaySeconds?: number): Promise<ReleaseSlot> {
      if (host.toLowerCase() === verified) return own.acquire(host, crawlDelaySeconds);
      return shared ? shared.acquire(host, crawlDelaySeconds) : Promise.resolve(async () => undefined);
    },
    async close() {
      await Promise.all([own.close(), shared?.close()]);
    },
  };
}
