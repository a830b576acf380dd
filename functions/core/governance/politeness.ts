import { randomUUID } from 'node:crypto';
import { ConditionFailedError } from '../errors.js';
import type { Condition, Item, Key, Table } from '../../ports/table.js';

/** The Table operations the gate uses; any Table satisfies it. */
export type GateTable = Pick<Table, 'get' | 'put' | 'delete'>;

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
  /** Random source for picking a slot to try first (tests pin it). */
  random?: () => number;
  /**
   * A tenant that verified a host gets a gate of its own on it (its raised limits bind only its
   * runs), and its delay replaces robots.txt's crawl-delay (API.md, verified domains).
   */
  tenantScope?: string;
  ignoreCrawlDelay?: boolean;
}

/** Releases a slot acquired from {@link HostGate.acquire}. Safe to call more than once. */
export type ReleaseSlot = () => Promise<void>;

/** Slots tried per round before waiting: bounds the writes a waiting worker spends per poll. */
const PROBES_PER_ROUND = 4;
/** DynamoDB TTL (seconds) on gate records: hosts nobody crawled for a day leave nothing behind. */
const ttl = (nowMs: number) => Math.floor(nowMs / 1000) + 86_400;

const hostPk = (host: string) => `HOST#${host.toLowerCase().replace(/\.$/, '')}`;
const scopeOf = (tenantScope?: string) => (tenantScope ? `TEN#${tenantScope}` : 'ALL');
/** The spacing record: when the next request on the host may start. */
const spacingKey = (host: string, tenantScope?: string): Key => ({ pk: hostPk(host), sk: `NEXT#${scopeOf(tenantScope)}` });

const freeOrExpired = (now: number): Condition => ({
  expression: 'attribute_not_exists(pk) OR lease_until < :now',
  values: { ':now': now },
});
const heldBy = (leaseId: string): Condition => ({ expression: '#holder = :me', names: { '#holder': 'holder' }, values: { ':me': leaseId } });
const startAllowed = (now: number): Condition => ({
  expression: 'attribute_not_exists(pk) OR next_allowed_at <= :now',
  values: { ':now': now },
});

/**
 * Per-host politeness shared by every worker through the table: at most `maxConcurrent` requests
 * in flight and request starts spaced by max(minDelayMs, crawl-delay). The item is global to the
 * host, not per tenant, on purpose: the site sees one crawler, whoever the tenant is (a verified
 * host's owner gets a scope of its own, see `tenantScope`).
 *
 * Concurrency is sharded into one record per slot (`SLOT#<scope>#<i>`), so taking a slot is one
 * conditional put (free, or its lease ran out) and giving it back one conditional delete, with no
 * read and no single hot record all workers fight over; a crashed worker's slot is taken over
 * once its lease expires. Spacing is one record (`NEXT#<scope>`) moved forward with a conditional
 * put, written only when the spacing is above zero. An uncontended page therefore costs two table
 * writes without spacing and three with it (issue 12: the single compare-and-swap record this
 * replaces cost 31 calls a page under contention).
 */
export class HostGate {
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly table: GateTable, private readonly opts: HostGateOptions) {
    if (opts.maxConcurrent < 1) throw new Error('maxConcurrent must be at least 1');
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.pollMs = opts.pollMs ?? 100;
    this.maxWaitMs = opts.maxWaitMs ?? 300_000;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = opts.random ?? Math.random;
  }

  /**
   * Wait for a slot on `host` and for the spacing to allow a start, then take both. Resolves to
   * the function that gives the slot back.
   * @throws Error when no slot came free within `maxWaitMs` (retryable).
   */
  async acquire(host: string, crawlDelaySeconds?: number): Promise<ReleaseSlot> {
    const spacing = this.opts.ignoreCrawlDelay ? this.opts.minDelayMs : Math.max(this.opts.minDelayMs, (crawlDelaySeconds ?? 0) * 1000);
    const leaseId = randomUUID();
    const deadline = this.now() + this.maxWaitMs;
    for (;;) {
      const slot = await this.takeSlot(host, leaseId, deadline);
      if (spacing <= 0) return this.releaser(slot, leaseId);
      const takenAt = this.now();
      try {
        await this.takeStart(host, spacing, deadline);
      } catch (err) {
        await this.releaser(slot, leaseId)();
        throw err;
      }
      // Waiting for the spacing while holding the slot may outlast a third of its lease: extend
      // it, and if another worker took it over meanwhile, find a slot again (the start just taken
      // is simply spent, which is the polite side to err on).
      if (this.now() - takenAt < this.leaseMs / 3 || (await this.extend(slot, leaseId))) return this.releaser(slot, leaseId);
    }
  }

  /** Take any free (or expired) slot; probes a few from a random start each round, then waits. */
  private async takeSlot(host: string, leaseId: string, deadline: number): Promise<Key> {
    const pool = new SlotPool(this.table, hostPk(host), `SLOT#${scopeOf(this.opts.tenantScope)}`, this.opts.maxConcurrent, { random: this.random });
    for (;;) {
      const key = await pool.tryTake(leaseId, this.now(), this.leaseMs);
      if (key) return key;
      // Every slot tried is held: poll with jitter, so waiting workers do not stampede.
      const wait = this.pollMs + Math.floor(this.random() * this.pollMs);
      if (this.now() + wait > deadline) throw this.unavailable(host);
      await this.sleep(wait);
    }
  }

  /** Move the host's next allowed start forward by `spacing`, waiting until the current one has come. */
  private async takeStart(host: string, spacing: number, deadline: number): Promise<void> {
    const key = spacingKey(host, this.opts.tenantScope);
    for (;;) {
      const t = this.now();
      try {
        // Optimistic: usually the previous start is long enough ago, and no read is needed.
        await this.table.put({ ...key, next_allowed_at: t + spacing, expires_at: ttl(t) }, { condition: startAllowed(t) });
        return;
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
      }
      const cur = await this.table.get<Item & { next_allowed_at?: number }>(key, { consistent: true });
      const wait = Math.max(1, Number(cur?.next_allowed_at ?? 0) - this.now());
      if (this.now() + wait > deadline) throw this.unavailable(host);
      await this.sleep(wait);
    }
  }

  private unavailable(host: string): Error {
    return new Error(`Politeness gate for ${host} not available within ${this.maxWaitMs} ms`);
  }

  /** Renew a slot's lease; false when it was lost (expired and taken over). */
  private extend(slot: Key, leaseId: string): Promise<boolean> {
    return SlotPool.extend(this.table, slot, leaseId, this.now(), this.leaseMs);
  }

  private releaser(slot: Key, leaseId: string): ReleaseSlot {
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      await SlotPool.release(this.table, slot, leaseId);
    };
  }
}

/**
 * `n` concurrency slots shared by every worker through the table, one record each
 * (`<pk>/<prefix>#<i>`): holding a slot is owning its record. Taking one is a conditional put
 * (free, or its lease ran out: a crashed holder's slot is taken over), giving it back a
 * conditional delete; no read, and no single record every worker fights over.
 */
export class SlotPool {
  constructor(
    private readonly table: GateTable,
    private readonly pk: string,
    private readonly prefix: string,
    private readonly n: number,
    private readonly opts: { random?: () => number } = {},
  ) {}

  /** One round: try a few slots from a random start; the slot's key, or null when all tried are held. */
  async tryTake(holder: string, now: number, leaseMs: number): Promise<Key | null> {
    const random = this.opts.random ?? Math.random;
    const first = Math.floor(random() * this.n);
    for (let p = 0; p < Math.min(this.n, PROBES_PER_ROUND); p++) {
      const key = { pk: this.pk, sk: `${this.prefix}#${(first + p) % this.n}` };
      try {
        await this.table.put({ ...key, holder, lease_until: now + leaseMs, expires_at: ttl(now) }, { condition: freeOrExpired(now) });
        return key;
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
      }
    }
    return null;
  }

  /** Renew a slot's lease; false when it was lost (expired and taken over). */
  static async extend(table: GateTable, slot: Key, holder: string, now: number, leaseMs: number): Promise<boolean> {
    try {
      await table.put({ ...slot, holder, lease_until: now + leaseMs, expires_at: ttl(now) }, { condition: heldBy(holder) });
      return true;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      return false;
    }
  }

  /** Give a slot back; a slot no longer ours (expired, taken over) is left alone. */
  static async release(table: GateTable, slot: Key, holder: string): Promise<void> {
    try {
      await table.delete(slot, { condition: heldBy(holder) });
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
  }
}
