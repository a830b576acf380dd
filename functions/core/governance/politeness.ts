import { randomUUID } from 'node:crypto';
import { ConditionFailedError } from '../errors.js';
import type { Condition, Item, Key, Table } from '../../ports/table.js';

/** The two Table operations the gate uses; any Table satisfies it. */
export type GateTable = Pick<Table, 'get' | 'put'>;

/** Options of {@link HostGate}. */
export interface HostGateOptions {
  /** Requests in flight per host, across all workers. */
  maxConcurrent: number;
  /** Minimum spacing between request starts on one host; a larger robots crawl-delay wins. */
  minDelayMs: number;
  /** A slot not released within this long frees itself (crashed worker). Default 60 s. */
  leaseMs?: number;
  /** Re-check interval while the host is at capacity. Default 100 ms (plus jitter). */
  pollMs?: number;
  /** Give up waiting after this long. Default 5 min. */
  maxWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * A tenant that verified a host gets a gate of its own on it (its raised limits bind only its
   * runs), and its delay replaces robots.txt's crawl-delay (API.md, verified domains).
   */
  tenantScope?: string;
  ignoreCrawlDelay?: boolean;
}

/** Releases a slot acquired from {@link HostGate.acquire}. Safe to call more than once. */
export type ReleaseSlot = () => Promise<void>;

/**
 * Stored gate for one host. `leases` maps a lease id to its expiry (epoch ms), so a dead worker's
 * slot can be told apart and dropped; `active` mirrors its size for people reading the table.
 * `version` makes every write a compare-and-swap on the whole item (no transactions needed).
 */
interface GateItem extends Item {
  active: number;
  next_allowed_at: number;
  leases: Record<string, number>;
  version: number;
}

const gateKey = (host: string, tenantScope?: string): Key => ({ pk: `HOST#${host.toLowerCase().replace(/\.$/, '')}`, sk: tenantScope ? `GATE#TEN#${tenantScope}` : 'GATE' });

const versionIs = (version: number): Condition => ({
  expression: '#version = :version',
  names: { '#version': 'version' },
  values: { ':version': version },
});
const absent: Condition = { expression: 'attribute_not_exists(pk)' };

const liveLeases = (leases: Record<string, number> | undefined, now: number): Record<string, number> =>
  Object.fromEntries(Object.entries(leases ?? {}).filter(([, expiresAt]) => expiresAt > now));

/**
 * Per-host politeness shared by every worker through the table: at most `maxConcurrent` requests
 * in flight and request starts spaced by max(minDelayMs, crawl-delay). Each acquire/release is a
 * read followed by a conditional put on the single item `HOST#<host>/GATE`; losing the race just
 * means reading again. The item is global to the host, not per tenant, on purpose: the site sees
 * one crawler, whoever the tenant is.
 */
export class HostGate {
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly table: GateTable, private readonly opts: HostGateOptions) {
    if (opts.maxConcurrent < 1) throw new Error('maxConcurrent must be at least 1');
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.pollMs = opts.pollMs ?? 100;
    this.maxWaitMs = opts.maxWaitMs ?? 300_000;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /**
   * Wait for a slot on `host`, then take it. Resolves to the function that gives it back.
   * @throws Error when no slot came free within `maxWaitMs` (retryable).
   */
  async acquire(host: string, crawlDelaySeconds?: number): Promise<ReleaseSlot> {
    const key = gateKey(host, this.opts.tenantScope);
    const spacing = this.opts.ignoreCrawlDelay ? this.opts.minDelayMs : Math.max(this.opts.minDelayMs, (crawlDelaySeconds ?? 0) * 1000);
    const leaseId = randomUUID();
    const deadline = this.now() + this.maxWaitMs;
    for (;;) {
      const t = this.now();
      const item = await this.table.get<GateItem>(key, { consistent: true });
      const leases = liveLeases(item?.leases, t);
      const nextAt = item?.next_allowed_at ?? 0;
      const full = Object.keys(leases).length >= this.opts.maxConcurrent;
      if (!full && t >= nextAt) {
        leases[leaseId] = t + this.leaseMs;
        // expires_at: DynamoDB TTL drops gates of hosts nobody crawled for a day.
        const next: GateItem = { ...key, leases, active: Object.keys(leases).length, next_allowed_at: t + spacing, version: (item?.version ?? 0) + 1, expires_at: Math.floor(t / 1000) + 86_400 };
        try {
          await this.table.put(next, { condition: item ? versionIs(item.version) : absent });
          return this.releaser(key, leaseId);
        } catch (err) {
          if (!(err instanceof ConditionFailedError)) throw err;
          continue; // Another worker wrote first: re-read and decide again.
        }
      }
      // Sleep until the spacing allows a start, or poll (with jitter, so waiting workers do not
      // stampede) until a slot is released or its lease runs out.
      const soonestExpiry = full ? Math.min(...Object.values(leases)) - t : Infinity;
      const wait = !full ? nextAt - t : Math.min(soonestExpiry, this.pollMs + Math.floor(Math.random() * this.pollMs));
      if (t + wait > deadline) throw new Error(`Politeness gate for ${host} not available within ${this.maxWaitMs} ms`);
      await this.sleep(Math.max(1, wait));
    }
  }

  private releaser(key: Key, leaseId: string): ReleaseSlot {
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      for (let attempt = 0; attempt < 20; attempt++) {
        const item = await this.table.get<GateItem>(key, { consistent: true });
        if (!item?.leases?.[leaseId]) return; // Already expired and pruned by someone else.
        const leases = liveLeases(item.leases, this.now());
        delete leases[leaseId];
        try {
          await this.table.put({ ...item, leases, active: Object.keys(leases).length, version: item.version + 1 }, { condition: versionIs(item.version) });
          return;
        } catch (err) {
          if (!(err instanceof ConditionFailedError)) throw err;
        }
      }
      // Could not win the race 20 times in a row: the lease expiry will free the slot anyway.
    };
  }
}
