import type { Key, Table } from '../../ports/table.js';
import { SlotPool } from '../governance/politeness.js';
import { keys } from '../table-keys.js';

/**
 * A tenant's share of the crawl workers (issue 12, fair to other tenants): at most
 * `tenantCrawlPages` crawl pages in flight per tenant across every worker. The local queue holds
 * slices back before delivery; SQS cannot, so every slice also takes a slot from its tenant's
 * share here before its first page: slices of `concurrency` pages each, so the tenant gets
 * max(1, floor(tenantCrawlPages / concurrency)) slices at once. Slots are records like the host
 * gate's (one conditional put to take, one delete to give back, a lease that frees the slot of a
 * worker that died); a slice that finds its tenant at the cap goes back to the queue, delayed,
 * and the worker serves the next message (another tenant's, on a fair queue).
 */
export class TenantShare {
  private readonly pool: SlotPool;
  private readonly parkKey: string;

  constructor(
    private readonly table: Table,
    tenantId: string,
    tenantCrawlPages: number,
    concurrency: number,
  ) {
    const n = TenantShare.slices(tenantCrawlPages, concurrency);
    this.pool = new SlotPool(table, keys.tenantPk(tenantId), 'CRAWLSHARE', n);
    this.parkKey = `${tenantId}/${n}`;
  }

  /**
   * Keep a slot a finished slice held for the tenant's next slice on this process (slices of a
   * crawl follow each other on a warm worker), for {@link PARK_MS}; given back after that. Saves
   * the take and the give-back of most slices; the slot still counts in the tenant's share while
   * parked, and its lease still ends if the process dies.
   */
  park(slot: Key, holder: string, leaseUntil: number): void {
    const list = parked.get(this.parkKey) ?? [];
    const entry: Parked = { slot, holder, leaseUntil, timer: setTimeout(() => {
      const l = parked.get(this.parkKey);
      const i = l?.indexOf(entry) ?? -1;
      if (i >= 0) l!.splice(i, 1);
      if (l && !l.length) parked.delete(this.parkKey);
      this.release(slot, holder).catch(() => undefined);
    }, PARK_MS) };
    entry.timer.unref?.();
    list.push(entry);
    parked.set(this.parkKey, list);
  }

  /** A slot parked by an earlier slice of this tenant on this process with at least `minLeftMs` of lease left, or null. */
  unpark(now: number, minLeftMs: number): { slot: Key; holder: string; leaseUntil: number } | null {
    const list = parked.get(this.parkKey);
    while (list?.length) {
      const e = list.pop()!;
      clearTimeout(e.timer);
      if (e.leaseUntil - now > minLeftMs) return { slot: e.slot, holder: e.holder, leaseUntil: e.leaseUntil };
      this.release(e.slot, e.holder).catch(() => undefined);
    }
    return null;
  }

  /** Slices of `concurrency` pages a tenant may have in flight. */
  static slices(tenantCrawlPages: number, concurrency: number): number {
    return Math.max(1, Math.floor(tenantCrawlPages / Math.max(1, concurrency)));
  }

  /** Take a slot for a slice, leased for `leaseMs` (renew it while the slice runs); null when the tenant is at its cap. */
  take(holder: string, now: number, leaseMs: number): Promise<Key | null> {
    return this.pool.tryTake(holder, now, leaseMs);
  }

  /** Keep a slot while its slice is still being worked on; false when it was lost (expired, taken over). */
  renew(slot: Key, holder: string, now: number, leaseMs: number): Promise<boolean> {
    return SlotPool.extend(this.table, slot, holder, now, leaseMs);
  }

  release(slot: Key, holder: string): Promise<void> {
    return SlotPool.release(this.table, slot, holder);
  }
}

/** How long a finished slice's slot waits for the tenant's next slice on the same process. */
export const PARK_MS = 1_000;
type Parked = { slot: Key; holder: string; leaseUntil: number; timer: NodeJS.Timeout };
const parked = new Map<string, Parked[]>();
