import { randomUUID } from 'node:crypto';
import { ConditionFailedError } from '../errors.js';
import type { Condition, Item, Key, Table } from '../../ports/table.js';

/** The Table operations a {@link SlotPool} uses. */
export type SlotTable = Pick<Table, 'get' | 'put' | 'delete'>;

/** The Table operations the gate uses; any Table satisfies it. */
export type GateTable = Pick<Table, 'get' | 'put' | 'delete' | 'update'>;

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
  /**
   * No wait may end after this instant (epoch ms), whatever `maxWaitMs` says: a synchronous
   * request's window is shared by every request it makes (a runbook test's navigations).
   */
  deadlineAt?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Random source for the poll jitter (tests pin it). */
  random?: () => number;
  /**
   * A tenant that verified a host gets a gate of its own on it (its raised limits bind only its
   * runs), and its delay replaces robots.txt's crawl-delay (API.md, verified domains).
   */
  tenantScope?: string;
  ignoreCrawlDelay?: boolean;
  /** Whose requests these are: while tenants wait for a host, its slots are shared fairly between them. */
  tenant?: string;
  /**
   * Hold up to `slots` slots of `host` from its first request until {@link HostGate.close}, and
   * hand them out in process (a crawl slice's pages on the crawl's host): two table writes per
   * slice instead of two per page. Only without spacing and when the host has at least twice as
   * many slots; otherwise, and on other hosts (a redirect's target), a slot per request.
   */
  hold?: { host: string; slots: number };
  /**
   * True while this gate's requests should hold back for interactive work of another tenant in
   * the same process (core/limits/foreground.ts): on a shared host they then neither take a free
   * slot nor the next start before that work, but for one request every {@link YIELD_EVERY_MS}.
   */
  yieldTo?: () => boolean;
}

/**
 * While a tenant's requests to a host give way (see `yieldTo`), one of them goes ahead every this
 * often, so a stream of another tenant's runs slows a crawl on a shared host but cannot stop it.
 * One at a time and steadily: when each request went ahead after giving way for a set time, a
 * crawl's waiting requests all went ahead together once it ran out, and another tenant's request
 * then waited behind several of them (two polite spacings and more, not one).
 */
const YIELD_EVERY_MS = 2_000;
/** Per tenant and host (in this process): when a request last went ahead while giving way. */
const yieldPasses = new Map<string, number>();

/**
 * Whether a request of `key` (tenant and host) that should give way may go ahead now: one every
 * {@link YIELD_EVERY_MS}, counted from when giving way began.
 */
function passWhileYielding(key: string, now: number): boolean {
  const last = yieldPasses.get(key);
  if (last === undefined || now - last > 2 * YIELD_EVERY_MS) {
    if (yieldPasses.size >= 10_000) yieldPasses.clear();
    yieldPasses.set(key, now); // giving way begins (again): the first may go a period from now
    return false;
  }
  if (now - last < YIELD_EVERY_MS) return false;
  yieldPasses.set(key, now);
  return true;
}

/**
 * The host's politeness would not let a request start before the caller's deadline: its slots
 * stay taken, or its next allowed start (crawl-delay, minimum spacing) lies beyond it. Retryable
 * for runs (the queue retries later); a synchronous request answers 429 `host_busy` with
 * `Retry-After` (core/runs/execute-task.ts).
 */
export class HostBusyError extends Error {
  constructor(
    readonly host: string,
    message: string,
    /** How long until the host's next start is expected to be free (at least 1 s). */
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'HostBusyError';
  }
}

/** Releases a slot acquired from {@link HostGate.acquire}. Safe to call more than once. */
export type ReleaseSlot = () => Promise<void>;

/** DynamoDB TTL (seconds) on gate records: hosts nobody crawled for a day leave nothing behind. */
const ttl = (nowMs: number) => Math.floor(nowMs / 1000) + 86_400;

const normHost = (host: string) => host.toLowerCase().replace(/\.$/, '');
const hostPk = (host: string) => `HOST#${normHost(host)}`;
const scopeOf = (tenantScope?: string) => (tenantScope ? `TEN#${tenantScope}` : 'ALL');
/** The spacing record: when the next request on the host may start. */
const spacingKey = (host: string, tenantScope?: string): Key => ({ pk: hostPk(host), sk: `NEXT#${scopeOf(tenantScope)}` });
/** The host's slot record: slots in use, who holds them, which tenants wait. */
const gateKey = (host: string, tenantScope?: string): Key => ({ pk: hostPk(host), sk: `GATE#${scopeOf(tenantScope)}` });

const startAllowed = (now: number): Condition => ({
  expression: 'attribute_not_exists(pk) OR next_allowed_at <= :now',
  values: { ':now': now },
});

/** How long a waiting tenant's mark lasts unless refreshed (it refreshes it every second while waiting). */
const WAIT_MARK_MS = 3_000;

/** Slots held by one lease: `h_<lease>` = `<slots>|<lease until>|<tenant>`. */
interface Lease {
  key: Key;
  id: string;
  n: number;
  tenant: string;
  value: string;
}

/** What a read of the slot record says. */
interface GateView {
  exists: boolean;
  used: number;
  holders: { id: string; n: number; until: number; tenant: string; value: string }[];
  held: Map<string, number>;
  waiting: { tenant: string; since: number; until: number; value: string }[];
}

function readView(item: Item | undefined): GateView {
  const v: GateView = { exists: !!item, used: Number(item?.used ?? 0), holders: [], held: new Map(), waiting: [] };
  for (const [k, raw] of Object.entries(item ?? {})) {
    if (k.startsWith('h_')) {
      const [n, until, ...t] = String(raw).split('|');
      v.holders.push({ id: k.slice(2), n: Number(n), until: Number(until), tenant: t.join('|'), value: String(raw) });
    } else if (k.startsWith('u_')) v.held.set(k.slice(2), Number(raw));
    else if (k.startsWith('w_')) {
      const [since, until] = String(raw).split('|');
      v.waiting.push({ tenant: k.slice(2), since: Number(since), until: Number(until), value: String(raw) });
    }
  }
  return v;
}

/**
 * Per-host politeness shared by every worker through the table: at most `maxConcurrent` requests
 * in flight and request starts spaced by max(minDelayMs, crawl-delay). The record is global to
 * the host, not per tenant, on purpose: the site sees one crawler, whoever the tenant is (a
 * verified host's owner gets a scope of its own, see `tenantScope`).
 *
 * One record per host (`GATE#<scope>`) holds the slots in use (`used`), each lease (`h_<id>`: its
 * slots, its end, its tenant), each tenant's slots (`u_<tenant>`) and the tenants waiting
 * (`w_<tenant>`: since when). Taking slots is one conditional update and giving them back one
 * more; a lease can take several slots at once (`hold`, a crawl slice's pages), and a crashed
 * worker's lease is removed by the next reader once it ended. Spacing is one more record
 * (`NEXT#<scope>`) moved forward with a conditional put, only when the spacing is above zero.
 *
 * Fair between tenants (issue 19, finding 7): while nobody waits, the first to ask gets the free
 * slots with a single write and no read. A tenant that finds the host full marks itself waiting
 * (which sets `contended_until`); from then on every taker reads the record first and takes only
 * (a) up to its fair share, the slots divided evenly among the tenants holding or waiting, and
 * (b) after every tenant below its share that has waited longer. A tenant's place in line is one
 * for all its requests and goes to the back at each of its grants, so tenants take turns: a tenant
 * polling every 100 ms with many requests cannot hold the host against another; once the other
 * waits, each slot given back goes to the longest-waiting tenant below its share. On AWS the same
 * record is shared by every Lambda, so the rule holds across the whole fleet.
 */
export class HostGate {
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly tenant: string;
  /** Slots held for the gate's lifetime (`hold`), by host. */
  private readonly blocks = new Map<string, Promise<Block>>();

  constructor(private readonly table: GateTable, private readonly opts: HostGateOptions) {
    if (opts.maxConcurrent < 1) throw new Error('maxConcurrent must be at least 1');
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.pollMs = opts.pollMs ?? 100;
    this.maxWaitMs = opts.maxWaitMs ?? 300_000;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = opts.random ?? Math.random;
    this.tenant = (opts.tenant ?? '').replace(/[^A-Za-z0-9_-]/g, '_') || '-';
  }

  /**
   * Wait for a slot on `host` and for the spacing to allow a start, then take both. Resolves to
   * the function that gives the slot back.
   * @throws Error when no slot came free within `maxWaitMs` (retryable).
   */
  async acquire(host: string, crawlDelaySeconds?: number): Promise<ReleaseSlot> {
    const spacing = this.opts.ignoreCrawlDelay ? this.opts.minDelayMs : Math.max(this.opts.minDelayMs, (crawlDelaySeconds ?? 0) * 1000);
    const deadline = Math.min(this.now() + this.maxWaitMs, this.opts.deadlineAt ?? Infinity);
    // Slots are held for the gate's lifetime only on a fast host (no spacing) with room for other
    // holders: on a polite host (2 slots, 250 ms apart) a held block would keep another tenant's
    // page waiting for a whole slice, so there each request takes its own slot.
    const hold = this.opts.hold;
    if (hold && spacing <= 0 && this.opts.maxConcurrent >= 2 * hold.slots && normHost(host) === normHost(hold.host)) {
      const block = await this.block(host, deadline);
      await block.take();
      if (spacing > 0) {
        try {
          await this.takeStart(host, spacing, deadline);
        } catch (err) {
          block.give();
          throw err;
        }
      }
      let done = false;
      return async () => {
        if (done) return;
        done = true;
        block.give();
      };
    }
    const passKey = `${this.tenant}|${normHost(host)}`;
    let goesAhead = false;
    const mustYield = () => {
      if (goesAhead || !this.opts.yieldTo?.()) return false;
      goesAhead = passWhileYielding(passKey, this.now());
      return !goesAhead;
    };
    for (;;) {
      await this.giveWay(mustYield);
      const lease = await this.take(host, 1, deadline, mustYield);
      if (spacing <= 0) return this.releaser(lease);
      const takenAt = this.now();
      let started: boolean;
      try {
        started = await this.takeStart(host, spacing, deadline, mustYield);
      } catch (err) {
        await this.releaser(lease)();
        throw err;
      }
      // Giving way must not keep the slot from the one we give way to.
      if (!started) {
        await this.release(lease);
        continue;
      }
      // Waiting for the spacing while holding the slot may outlast a third of its lease: extend
      // it, and if it was lost meanwhile (expired and removed), take a slot again (the start just
      // taken is simply spent, which is the polite side to err on).
      if (this.now() - takenAt < this.leaseMs / 3) return this.releaser(lease);
      const renewed = await this.renew(lease);
      if (renewed) return this.releaser(renewed);
    }
  }

  /** Hold back while `mustYield` says another tenant's interactive work runs in this process (`yieldTo`). */
  private async giveWay(mustYield: () => boolean): Promise<void> {
    while (mustYield()) await this.sleep(5);
  }

  /** Give back the slots held for the gate's lifetime (`hold`). Call once its requests are done. */
  async close(): Promise<void> {
    const blocks = [...this.blocks.values()];
    this.blocks.clear();
    await Promise.all(blocks.map(async (p) => (await p.catch(() => undefined))?.close()));
  }

  /** The held slots of `host`, leased on first use. */
  private block(host: string, deadline: number): Promise<Block> {
    const k = normHost(host);
    let b = this.blocks.get(k);
    if (!b) {
      b = this.take(host, Math.max(1, this.opts.hold!.slots), deadline).then((lease) => new Block(lease, this));
      this.blocks.set(k, b);
      b.catch(() => this.blocks.get(k) === b && this.blocks.delete(k));
    }
    return b;
  }

  /**
   * Take up to `want` slots (at least one) on `host`: the free slots when nobody waits, the fair
   * share otherwise. Waits (polling, marked as waiting) until some are free.
   */
  private async take(host: string, want: number, deadline: number, mustYield: () => boolean = () => false): Promise<Lease> {
    const key = gateKey(host, this.opts.tenantScope);
    const me = this.tenant;
    const max = this.opts.maxConcurrent;
    const id = randomUUID();
    let marked = 0;
    // Optimistic first: while the host is not contended, one conditional write and no read.
    let view: GateView | undefined;
    {
      const now = this.now();
      const n = Math.min(want, max);
      const lease = this.lease(key, id, n, now);
      try {
        await this.table.update(key, {
          set: { [`h_${id}`]: lease.value, expires_at: ttl(now) },
          add: { used: n, [`u_${me}`]: n },
          condition: {
            expression: '(attribute_not_exists(#used) OR #used <= :lim) AND (attribute_not_exists(#cu) OR #cu < :now)',
            names: { '#used': 'used', '#cu': 'contended_until' },
            values: { ':lim': max - n, ':now': now },
          },
        });
        return lease;
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
      }
    }
    for (;;) {
      const now = this.now();
      view = readView(await this.table.get(key, { consistent: true }));
      if (await this.removeExpired(key, view, now)) continue;
      // The tenant's place in line is shared by all its requests (in the record), and goes to the
      // back at each of its grants: tenants take turns, however many requests each has waiting.
      const mark = view.waiting.find((w) => w.tenant === me && w.until >= now);
      const since = mark?.since ?? now;
      const grant = this.fairGrant(view, want, now, since);
      if (grant > 0) {
        const lease = this.lease(key, id, grant, now);
        const share = this.share(view, now);
        try {
          await this.table.update(key, {
            set: { [`h_${id}`]: lease.value, expires_at: ttl(now), ...(mark ? { [`w_${me}`]: `${now}|${mark.until}` } : {}) },
            add: { used: grant, [`u_${me}`]: grant },
            condition: {
              expression: '(attribute_not_exists(#used) OR #used <= :lim) AND (attribute_not_exists(#um) OR #um <= :ulim)',
              names: { '#used': 'used', '#um': `u_${me}` },
              values: { ':lim': max - grant, ':ulim': Math.max(0, share - grant) },
            },
          });
          return lease;
        } catch (err) {
          if (!(err instanceof ConditionFailedError)) throw err;
          continue; // someone else changed it: read again
        }
      }
      // Wait, marked as waiting (refreshed every second), so others yield to us.
      if (now - marked >= 1000 || !mark) {
        marked = now;
        await this.table.update(key, { set: { [`w_${me}`]: `${since}|${now + WAIT_MARK_MS}`, contended_until: now + WAIT_MARK_MS, expires_at: ttl(now) } });
      }
      // Next in line (below its share while others hold or wait): look again sooner, so a slot
      // given back is taken within a few ms, not after a whole poll; the others poll at the usual pace.
      const next = (view.held.get(me) ?? 0) < this.share(view, now);
      const base = next ? Math.max(1, Math.floor(this.pollMs / 4)) : this.pollMs;
      const wait = base + Math.floor(this.random() * base);
      if (this.now() + wait > deadline) throw this.unavailable(host, Math.max(wait, this.pollMs));
      await this.sleep(wait);
      await this.giveWay(mustYield);
    }
  }

  /** Tenants holding or waiting, and so each one's share of the host's slots. */
  private share(view: GateView, now: number): number {
    const active = new Set<string>([this.tenant]);
    for (const [t, n] of view.held) if (n > 0) active.add(t);
    for (const w of view.waiting) if (w.until >= now) active.add(w.tenant);
    return Math.max(1, Math.floor(this.opts.maxConcurrent / active.size));
  }

  /** Slots this gate may take now (0: wait), given who holds and who waits; `since`: this tenant's place in line. */
  private fairGrant(view: GateView, want: number, now: number, since: number): number {
    const free = this.opts.maxConcurrent - view.used;
    if (free <= 0) return 0;
    const others = view.waiting.filter((w) => w.tenant !== this.tenant && w.until >= now);
    if (!others.length) return Math.min(want, free);
    const share = this.share(view, now);
    const mine = view.held.get(this.tenant) ?? 0;
    if (mine >= share) return 0;
    // Tenants below their share that have waited longer go first (a slot each, at least).
    const ahead = others.filter((w) => (w.since < since || (w.since === since && w.tenant < this.tenant)) && (view.held.get(w.tenant) ?? 0) < share).length;
    return Math.max(0, Math.min(want, share - mine, free - ahead));
  }

  /** Remove leases that ended (their worker died) and stale waiting marks; true when something changed. */
  private async removeExpired(key: Key, view: GateView, now: number): Promise<boolean> {
    let changed = false;
    for (const h of view.holders) {
      if (h.until >= now) continue;
      try {
        await this.table.update(key, {
          remove: [`h_${h.id}`],
          add: { used: -h.n, [`u_${h.tenant}`]: -h.n },
          condition: { expression: '#h = :v', names: { '#h': `h_${h.id}` }, values: { ':v': h.value } },
        });
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
      }
      changed = true;
    }
    for (const w of view.waiting) {
      if (w.until >= now - 60_000) continue;
      await this.table
        .update(key, { remove: [`w_${w.tenant}`], condition: { expression: '#w = :v', names: { '#w': `w_${w.tenant}` }, values: { ':v': w.value } } })
        .catch((err) => {
          if (!(err instanceof ConditionFailedError)) throw err;
        });
    }
    return changed;
  }

  private lease(key: Key, id: string, n: number, now: number): Lease {
    return { key, id, n, tenant: this.tenant, value: `${n}|${now + this.leaseMs}|${this.tenant}` };
  }

  /** Extend a lease; the renewed lease, or null when it was lost (ended and removed). */
  async renew(lease: Lease): Promise<Lease | null> {
    const next = { ...lease, value: `${lease.n}|${this.now() + this.leaseMs}|${lease.tenant}` };
    try {
      await this.table.update(lease.key, {
        set: { [`h_${lease.id}`]: next.value },
        condition: { expression: '#h = :v', names: { '#h': `h_${lease.id}` }, values: { ':v': lease.value } },
      });
      return next;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      return null;
    }
  }

  /** Give a lease's slots back; a lease no longer ours (ended and removed) is left alone. */
  async release(lease: Lease): Promise<void> {
    try {
      await this.table.update(lease.key, {
        remove: [`h_${lease.id}`],
        add: { used: -lease.n, [`u_${lease.tenant}`]: -lease.n },
        condition: { expression: '#h = :v', names: { '#h': `h_${lease.id}` }, values: { ':v': lease.value } },
      });
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
  }

  /** Renewal interval of held slots. */
  get renewEveryMs(): number {
    return Math.max(1000, Math.floor(this.leaseMs / 3));
  }

  /**
   * Move the host's next allowed start forward by `spacing`, waiting until the current one has
   * come; resolves true, or false when it should give way first (`mustYield`: its slot then goes back).
   */
  private async takeStart(host: string, spacing: number, deadline: number, mustYield: () => boolean = () => false): Promise<boolean> {
    const key = spacingKey(host, this.opts.tenantScope);
    for (;;) {
      if (mustYield()) return false;
      const t = this.now();
      try {
        // Optimistic: usually the previous start is long enough ago, and no read is needed.
        await this.table.put({ ...key, next_allowed_at: t + spacing, expires_at: ttl(t) }, { condition: startAllowed(t) });
        return true;
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
      }
      const cur = await this.table.get<Item & { next_allowed_at?: number }>(key, { consistent: true });
      const until = Number(cur?.next_allowed_at ?? 0);
      if (until > deadline) throw this.unavailable(host, until - this.now());
      // In steps while giving way is possible, so a slot is not held through a whole spacing for nothing.
      while (this.now() < until) {
        if (mustYield()) return false;
        await this.sleep(Math.max(1, Math.min(until - this.now(), this.opts.yieldTo ? 20 : Infinity)));
      }
    }
  }

  private unavailable(host: string, retryAfterMs: number): HostBusyError {
    const within = this.opts.deadlineAt !== undefined ? 'before the request\'s deadline' : `within ${this.maxWaitMs} ms`;
    return new HostBusyError(host, `Politeness gate for ${host} not available ${within}`, Math.max(1000, retryAfterMs));
  }

  private releaser(lease: Lease): ReleaseSlot {
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      await this.release(lease);
    };
  }
}

/** Slots held for a gate's lifetime, handed out in process; renewed while held. */
class Block {
  private free: number;
  private readonly queue: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(private lease: Lease, private readonly gate: HostGate) {
    this.free = lease.n;
    this.timer = setInterval(() => {
      gate.renew(this.lease).then((l) => {
        if (l) this.lease = l;
      }).catch(() => undefined);
    }, gate.renewEveryMs);
    this.timer.unref?.();
  }

  async take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((r) => this.queue.push(r));
  }

  give(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.free++;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.gate.release(this.lease);
  }
}

/** Slots tried per round before waiting: bounds the writes a waiting worker spends per poll. */
const PROBES_PER_ROUND = 4;
const freeOrExpired = (now: number): Condition => ({
  expression: 'attribute_not_exists(pk) OR lease_until < :now',
  values: { ':now': now },
});
const heldBy = (leaseId: string): Condition => ({ expression: '#holder = :me', names: { '#holder': 'holder' }, values: { ':me': leaseId } });

/**
 * `n` concurrency slots shared by every worker through the table, one record each
 * (`<pk>/<prefix>#<i>`): holding a slot is owning its record. Taking one is a conditional put
 * (free, or its lease ran out: a crashed holder's slot is taken over), giving it back a
 * conditional delete; no read, and no single record every worker fights over.
 */
export class SlotPool {
  constructor(
    private readonly table: SlotTable,
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
  static async extend(table: SlotTable, slot: Key, holder: string, now: number, leaseMs: number): Promise<boolean> {
    try {
      await table.put({ ...slot, holder, lease_until: now + leaseMs, expires_at: ttl(now) }, { condition: heldBy(holder) });
      return true;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      return false;
    }
  }

  /** Give a slot back; a slot no longer ours (expired, taken over) is left alone. */
  static async release(table: SlotTable, slot: Key, holder: string): Promise<void> {
    try {
      await table.delete(slot, { condition: heldBy(holder) });
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
  }
}
