/**
 * The one retry policy of the source connectors. A connector never decides "retry or not" by
 * itself: it turns a platform's answer into a {@link Verdict} (what went wrong, whether it is
 * temporary, how long the platform asks us to wait, which quota ran out and when it resets), and
 * {@link decide} turns the verdict into "wait N ms and try again" or "stop now with this message".
 *
 * Rules (issue 13):
 * - rate limits (temporary): wait for what the platform's headers say (Retry-After, x-rate-limit-reset,
 *   x-ratelimit-reset, Graph usage headers), else a capped exponential backoff with jitter; a wait longer
 *   than {@link RetryLimits.maxWaitMs} or than what is left of the query's retry budget is not waited for;
 * - platform down (5xx, Graph `is_transient`): capped exponential backoff with jitter, never the rate-limit
 *   reset time (a reset header on a 5xx says nothing about when the platform is back);
 * - quota exhausted: stop at once, the message names the quota and when it resets;
 * - credentials, permission, invalid query: stop at once, the message says which.
 *
 * The total time a query spends waiting is bounded by a {@link RetryBudget} shared by every call of
 * one source in one query, so a bad day costs a bounded time, not a timeout.
 */

/** What kind of failure a platform answer is; shown in the query's per-source error. */
export type SourceErrorKind = 'credentials' | 'permission' | 'quota' | 'rate' | 'invalid_query' | 'platform_down' | 'other';

/** A platform answer, classified. */
export interface Verdict {
  kind: SourceErrorKind;
  /** True when trying again later may succeed (rate limits, 5xx, transient errors). */
  temporary: boolean;
  /** The platform's own words (error message). */
  detail?: string;
  /** Seconds the platform asks us to wait (from its headers), when it says. */
  waitSeconds?: number;
  /** For `quota`: which quota ran out and when it resets. */
  quota?: { name: string; resetsAt?: Date };
  /** What the tenant can do about it (appended to the message). */
  hint?: string;
}

/** Limits of the policy; defaults suit a query with a 60 s per-source budget. */
export interface RetryLimits {
  /** Total attempts of one request, the first included. */
  maxAttempts: number;
  /** Longest single wait honoured, in ms. */
  maxWaitMs: number;
  /** First backoff step, in ms (doubled each attempt, capped at `maxBackoffMs`). */
  baseBackoffMs: number;
  /** Cap of one backoff step, in ms. */
  maxBackoffMs: number;
}

export const DEFAULT_RETRY_LIMITS: RetryLimits = { maxAttempts: 4, maxWaitMs: 30_000, baseBackoffMs: 1_000, maxBackoffMs: 8_000 };

/** Default total wait of one source in one query (all its requests together). */
export const DEFAULT_RETRY_BUDGET_MS = 45_000;

/**
 * Time a source may still spend waiting before retries in this query. Shared by all calls of the
 * source (runSources creates one per source per query), so retries cannot add up past it.
 */
export class RetryBudget {
  constructor(private remaining: number = DEFAULT_RETRY_BUDGET_MS) {}
  /** Milliseconds left. */
  get remainingMs(): number {
    return this.remaining;
  }
  /** Takes `ms` from the budget when it is there; false (and nothing taken) otherwise. */
  take(ms: number): boolean {
    if (ms > this.remaining) return false;
    this.remaining -= ms;
    return true;
  }
}

/** The decision for one failed attempt. */
export type Decision = { retry: true; waitMs: number } | { retry: false; reason: 'final' | 'too_long' | 'budget' | 'attempts' };

/**
 * Capped exponential backoff with "equal jitter": half of the step is fixed, half random, so
 * concurrent clients spread out but each still waits at least half the step.
 */
export function backoffMs(attempt: number, limits: RetryLimits = DEFAULT_RETRY_LIMITS, random: () => number = Math.random): number {
  const step = Math.min(limits.maxBackoffMs, limits.baseBackoffMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (step / 2) * Math.min(1, Math.max(0, random())));
}

/**
 * Retry or stop, for attempt number `attempt` (1-based) that failed with `v`.
 * Takes the wait from `budget` when it decides to retry.
 */
export function decide(
  v: Verdict,
  attempt: number,
  budget: RetryBudget,
  limits: RetryLimits = DEFAULT_RETRY_LIMITS,
  random: () => number = Math.random,
): Decision {
  if (!v.temporary || v.kind === 'quota') return { retry: false, reason: 'final' };
  if (attempt >= limits.maxAttempts) return { retry: false, reason: 'attempts' };
  let waitMs: number;
  if (v.kind === 'platform_down') {
    // A 5xx: back off; a rate-limit reset header says nothing about when the platform is back.
    waitMs = backoffMs(attempt, limits, random);
  } else if (v.waitSeconds !== undefined) {
    waitMs = Math.ceil(v.waitSeconds * 1000);
    if (waitMs > limits.maxWaitMs) return { retry: false, reason: 'too_long' };
  } else {
    waitMs = backoffMs(attempt, limits, random);
  }
  if (!budget.take(waitMs)) return { retry: false, reason: 'budget' };
  return { retry: true, waitMs };
}

/** "in 3 h 5 min" / "in 40 s" from now to `t`. */
export function describeWait(t: Date, now: number): string {
  const s = Math.max(0, Math.round((t.getTime() - now) / 1000));
  if (s < 90) return `in ${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `in ${m} min`;
  const h = Math.floor(m / 60);
  if (h >= 48) return `in ${Math.round(m / 1440)} days`;
  return `in ${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/** Human label of a kind, as it starts the per-source error message. */
export const KIND_LABEL: Record<SourceErrorKind, string> = {
  credentials: 'rejected the credentials',
  permission: 'refused access (permission)',
  quota: 'quota exhausted',
  rate: 'rate limited',
  invalid_query: 'rejected the query (invalid query)',
  platform_down: 'is unavailable (platform down)',
  other: 'API error',
};

/**
 * The per-source error message for a verdict: `<source> <kind label> (<status>): <detail>; <hint>`,
 * plus, for quotas, which quota and when it resets, and for rate limits when to retry.
 */
export function verdictMessage(source: string, status: number | string, v: Verdict, now: number, what = ''): string {
  // Credentials are the source's, not one call's: "x rejected the credentials", whatever the call.
  const w = v.kind === 'credentials' ? '' : what;
  const head =
    v.kind === 'quota' && v.quota ? `${source}${w} quota exhausted: ${v.quota.name} (${status})` : `${source}${w} ${KIND_LABEL[v.kind]} (${status})`;
  let msg = `${head}${v.detail ? `: ${v.detail}` : ''}`;
  if (v.kind === 'quota' && v.quota) {
    if (v.quota.resetsAt) msg += `; it resets at ${v.quota.resetsAt.toISOString()} (${describeWait(v.quota.resetsAt, now)})`;
    else if (!v.hint) msg += '; the platform did not say when it resets';
  }
  if (v.kind === 'rate' && v.waitSeconds !== undefined) msg += `; retry after ${Math.ceil(v.waitSeconds)} s`;
  if (v.kind === 'credentials') msg += `; update them with PUT /dashboard/api/sources/${source}`;
  if (v.hint) msg += `; ${v.hint}`;
  return msg;
}
