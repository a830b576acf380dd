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

  constructor(
    private readonly table: Table,
    tenantId: string,
    tenantCrawlPages: number,
    concurrency: number,
  ) {
    this.pool = new SlotPool(table, keys.tenantPk(tenantId), 'CRAWLSHARE', TenantShare.slices(tenantCrawlPages, concurrency));
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
