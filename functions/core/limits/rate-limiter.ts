import { keys } from '../table-keys.js';
import { ConditionFailedError } from '../errors.js';
import type { Table } from '../../ports/table.js';

/** How long a lease's tokens may be handed out after its reservation. */
const LEASE_MS = 1000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** When denied: whole seconds to wait (Retry-After, >= 1). */
  retryAfterSeconds: number;
}

/**
 * A token bucket kept in the table as GCRA (generic cell rate algorithm): one number, the
 * theoretical arrival time `tat` (µs). Each allowed request advances it by the emission
 * interval T = window / limit; a request is allowed while tat - now <= window - T. Every step
 * is one conditional single-item update, so concurrent callers on any number of processes
 * never exceed the limit, and the usual case costs one write.
 */
export class RateLimiter {
  /** Last tat seen per bucket: picks which of the two conditional writes to try first. */
  private readonly lastTat = new Map<string, number>();
  /**
   * The last lease per bucket: tokens this process reserved in the table and has not handed out
   * yet, and what sizes the next one (how many it was granted, when).
   */
  private readonly leases = new Map<string, { tokens: number; expiresAt: number; remaining: number; granted: number; reservedAt: number }>();
  /**
   * A denial, remembered until the bucket can allow again: the table's tat only moves forward (a
   * write either adds to it or replaces one already in the past), so every request before
   * `until` would be denied by the table too, and is denied here without a table call.
   */
  private readonly denied = new Map<string, { until: number; tat: number; windowSeconds: number }>();
  /** The reservation in flight per bucket (see take). */
  private readonly reserving = new Map<string, Promise<RateDecision>>();
  constructor(private readonly table: Table) {}

  /**
   * Large buckets reserve a few tokens per write (a lease, at most 1/20 of the limit, kept for
   * at most one second) so the hot path rarely writes; small buckets reserve one at a time
   * and stay exact. Reserved tokens are counted in the table, so the sum over all processes
   * never exceeds the limit. A lease is sized to the calls of the last one (see leaseSize): a
   * token a lease leaves unused when it ends is spent all the same.
   */
  async take(tenantId: string, bucket: string, limit: number, windowSeconds: number, now: Date): Promise<RateDecision> {
    const leaseKey = `${tenantId}|${bucket}|${limit}|${windowSeconds}`;
    for (;;) {
      const lease = this.leases.get(leaseKey);
      if (lease && lease.tokens > 0 && lease.expiresAt > now.getTime()) {
        lease.tokens--;
        return { allowed: true, limit, remaining: lease.remaining + lease.tokens, resetSeconds: windowSeconds, retryAfterSeconds: 0 };
      }
      const no = this.denied.get(leaseKey);
      if (no && now.getTime() < no.until) return this.denial(no.tat, limit, windowSeconds, now);
      if (no) this.denied.delete(leaseKey);
      // One reservation per bucket at a time in this process: concurrent callers each reserving a
      // lease of their own took up to 20 leases at once, kept one, and the tokens of the others
      // were lost until the window passed (a burst of 32 parallel calls under a 1000/60 limit got
      // 429s). Callers that find a reservation in flight wait for it and take from its lease.
      const pending = this.reserving.get(leaseKey);
      if (!pending) break;
      const d = await pending;
      if (!d.allowed) return d;
    }
    const reservation = this.reserveLease(leaseKey, tenantId, bucket, limit, windowSeconds, now);
    this.reserving.set(leaseKey, reservation);
    try {
      return await reservation;
    } finally {
      this.reserving.delete(leaseKey);
    }
  }

  /**
   * The denial this process already knows for the bucket (remembered as in `take`, no lease
   * tokens left), without a table call or a wait; undefined when only `take` can tell. Lets a
   * safe read that `take` would deny be refused before its own table read starts.
   */
  knownDenial(tenantId: string, bucket: string, limit: number, windowSeconds: number, now: Date): RateDecision | undefined {
    const leaseKey = `${tenantId}|${bucket}|${limit}|${windowSeconds}`;
    const lease = this.leases.get(leaseKey);
    if (lease && lease.tokens > 0 && lease.expiresAt > now.getTime()) return undefined;
    const no = this.denied.get(leaseKey);
    return no && now.getTime() < no.until ? this.denial(no.tat, limit, windowSeconds, now) : undefined;
  }

  /**
   * Whether this process is reserving from the bucket right now (a `take` is at the table): a
   * `take` called meanwhile waits for that answer, and is denied with it when it is a denial.
   */
  reservationPending(tenantId: string, bucket: string, limit: number, windowSeconds: number): boolean {
    return this.reserving.has(`${tenantId}|${bucket}|${limit}|${windowSeconds}`);
  }

  /** Reserve a lease (or one token) in the table; the caller gets the first token of it. */
  private async reserveLease(leaseKey: string, tenantId: string, bucket: string, limit: number, windowSeconds: number, now: Date): Promise<RateDecision> {
    // Never ask for more than the last tat seen leaves: the table's tat only moves forward, so
    // that is an upper bound, and asking for more fails twice and reads before asking for one.
    const size = Math.min(this.leaseSize(leaseKey, limit, now), this.atMostAvailable(tenantId, bucket, limit, windowSeconds, now));
    let d = await this.reserve(tenantId, bucket, limit, windowSeconds, now, size);
    if (!d.allowed && size > 1) d = await this.reserve(tenantId, bucket, limit, windowSeconds, now, 1);
    if (d.allowed) this.leases.set(leaseKey, { tokens: d.granted - 1, expiresAt: now.getTime() + LEASE_MS, remaining: d.remaining, granted: d.granted, reservedAt: now.getTime() });
    else this.leases.delete(leaseKey);
    // Denied, or granted the bucket's last token: either way the table denies every call until
    // d.allowedAtMs (its tat only moves forward), so this process does too, without asking it.
    // Granted lease tokens are handed out first (take checks the lease before the denial).
    if (d.allowedAtMs > now.getTime()) {
      if (this.denied.size > 10_000) this.denied.clear();
      this.denied.set(leaseKey, { until: d.allowedAtMs, tat: d.tat, windowSeconds });
    }
    return { allowed: d.allowed, limit: d.limit, remaining: d.remaining + Math.max(0, d.granted - 1), resetSeconds: d.resetSeconds, retryAfterSeconds: d.retryAfterSeconds };
  }

  /**
   * How many tokens to reserve: as many as this process handed out of the bucket's last lease,
   * per lease lifetime, between that lease's reservation and now (at least 1, at most 1/20 of the
   * limit and 100). Under load a lease is used up long before it ends and the next is the
   * largest; a client calling a few times a second gets leases of about its calls a second, and
   * one calling once a second or less gets one token at a time. A fixed lease of 1/20 of the
   * limit spent, for a client polling every 250 ms under 600 a minute, 30 tokens a second of the
   * 10 the bucket refills, and its next burst was refused.
   */
  private leaseSize(leaseKey: string, limit: number, now: Date): number {
    const cap = Math.max(1, Math.min(100, Math.floor(limit / 20)));
    const last = this.leases.get(leaseKey);
    if (!last) return 1;
    const used = last.granted - last.tokens;
    const elapsedMs = Math.max(1, now.getTime() - last.reservedAt);
    return Math.max(1, Math.min(cap, Math.floor((used * LEASE_MS) / elapsedMs)));
  }

  /**
   * Tokens the bucket can hold at most at `now`, from the last tat this process saw (a lower
   * bound of the table's): at least 1, so a bucket never seen, or one this process saw empty,
   * is still asked.
   */
  private atMostAvailable(tenantId: string, bucket: string, limit: number, windowSeconds: number, now: Date): number {
    const key = keys.rateBucket(tenantId, bucket);
    const known = this.lastTat.get(`${key.pk}|${key.sk}`);
    const nowUs = now.getTime() * 1000;
    if (known === undefined || known < nowUs) return limit;
    const T = Math.ceil((windowSeconds * 1_000_000) / limit);
    return Math.max(1, Math.floor((nowUs + windowSeconds * 1_000_000 - T - known) / T) + 1);
  }

  /** The decision for a bucket known (from `tat`, µs) to be empty at `now`. */
  private denial(tat: number, limit: number, windowSeconds: number, now: Date): RateDecision {
    const nowUs = now.getTime() * 1000;
    const windowUs = windowSeconds * 1_000_000;
    const T = Math.ceil(windowUs / limit);
    const ahead = Math.max(0, tat - nowUs);
    return { allowed: false, limit, remaining: Math.max(0, Math.floor((windowUs - ahead) / T)), resetSeconds: Math.ceil(ahead / 1_000_000), retryAfterSeconds: Math.max(1, Math.ceil((tat - (nowUs + windowUs - T)) / 1_000_000)) };
  }

  private async reserve(tenantId: string, bucket: string, limit: number, windowSeconds: number, now: Date, count: number): Promise<RateDecision & { granted: number; tat: number; allowedAtMs: number }> {
    const key = keys.rateBucket(tenantId, bucket);
    const cacheKey = `${key.pk}|${key.sk}`;
    const nowUs = now.getTime() * 1000;
    const windowUs = windowSeconds * 1_000_000;
    const T = Math.ceil(windowUs / limit);
    const maxTat = nowUs + windowUs - T; // one token is allowed if current tat <= maxTat
    const decide = (tat: number, allowed: boolean): RateDecision & { granted: number; tat: number; allowedAtMs: number } => {
      const ahead = Math.max(0, tat - nowUs); // µs of budget consumed
      return {
        allowed,
        limit,
        remaining: Math.max(0, Math.floor((windowUs - ahead) / T)),
        resetSeconds: Math.ceil(ahead / 1_000_000),
        retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((tat - maxTat) / 1_000_000)),
        granted: allowed ? count : 0,
        tat,
        // One token is allowed again once tat <= now + window - T.
        allowedAtMs: Math.ceil((tat - windowUs + T) / 1000),
      };
    };
    const fresh = async () => {
      const r = await this.table.update(key, {
        set: { tat: nowUs + count * T },
        condition: { expression: 'attribute_not_exists(tat) OR tat < :now', values: { ':now': nowUs } },
      });
      return Number(r.tat);
    };
    const advance = async () => {
      const r = await this.table.update(key, {
        add: { tat: count * T },
        condition: { expression: 'tat BETWEEN :now AND :max', values: { ':now': nowUs, ':max': maxTat - (count - 1) * T } },
      });
      return Number(r.tat);
    };
    const known = this.lastTat.get(cacheKey);
    const order = known === undefined || known < nowUs ? [fresh, advance] : [advance, fresh];
    for (let round = 0; round < 3; round++) {
      for (const attempt of order) {
        try {
          const tat = await attempt();
          this.lastTat.set(cacheKey, tat);
          return decide(tat, true);
        } catch (e) {
          if (!(e instanceof ConditionFailedError)) throw e;
        }
      }
      // Neither held: either the bucket is empty (tat > maxTat) or another caller moved it between our writes.
      const cur = await this.table.get(key, { consistent: true });
      const tat = Number(cur?.tat ?? 0);
      this.lastTat.set(cacheKey, tat);
      if (tat > maxTat - (count - 1) * T) return decide(tat, false);
    }
    // Heavy contention: deny rather than over-admit (not remembered: the table's tat is not known).
    return { ...decide(maxTat + T, false), allowedAtMs: 0 };
  }
}
