import type { Table } from '../../ports/table.js';
import { getCaptchaPolicy } from '../captcha/captcha.js';
import { hostLimitsFor, type DomainLimits } from '../domains/verified-domains.js';
import { getUsage } from '../limits/usage.js';
import { resolveProfile, type BrowserProfile } from '../profiles/browser-profiles.js';
import { requireTenant, type Tenant } from '../tenancy/tenants.js';
import type { ChallengePolicy } from '../engine/pipeline.js';

/** What every slice of a crawl reads before its first page. */
export interface SliceContext {
  tenant: Tenant;
  onChallenge: ChallengePolicy;
  profile: BrowserProfile | undefined;
  /** This tenant's raised limits on the crawl's host, when it verified the host. */
  raised: DomainLimits | null;
  /** Pages used this month when the context was read. */
  pagesUsed: number;
}

/**
 * How long a process keeps a crawl's context. Slices of one crawl reach a worker many times a
 * second and a warm Lambda container serves many of them, so the five reads above are made once
 * per crawl per few seconds instead of once per slice (issue 12: they were a fifth of a page's
 * table calls). A changed policy, profile, limit or suspension reaches a running crawl within this
 * long; the monthly page quota may be overshot by the pages of that window.
 */
export const CONTEXT_TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;
const cache = new Map<string, { at: number; ctx: Promise<SliceContext> }>();

/** The context of a crawl run's slices, read at most once per {@link CONTEXT_TTL_MS} per process. */
export function sliceContext(table: Table, run: { tenant_id: string; id: string; attempt: number; browser_profile?: string | null }, host: string, now: Date, nowMs = Date.now()): Promise<SliceContext> {
  const key = `${run.tenant_id}/${run.id}/${run.attempt}/${host}`;
  const hit = cache.get(key);
  if (hit && nowMs - hit.at < CONTEXT_TTL_MS) return hit.ctx;
  if (cache.size >= MAX_ENTRIES) for (const [k, v] of cache) if (nowMs - v.at >= CONTEXT_TTL_MS) cache.delete(k);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  const ctx = load(table, run, host, now);
  cache.set(key, { at: nowMs, ctx });
  // A failed read is not kept: the next slice reads again.
  ctx.catch(() => cache.get(key)?.ctx === ctx && cache.delete(key));
  return ctx;
}

async function load(table: Table, run: { tenant_id: string; browser_profile?: string | null }, host: string, now: Date): Promise<SliceContext> {
  const [tenant, policy, profile, raised, usage] = await Promise.all([
    requireTenant(table, run.tenant_id),
    getCaptchaPolicy(table, run.tenant_id),
    resolveProfile(table, run.tenant_id, run.browser_profile ?? undefined),
    hostLimitsFor(table, run.tenant_id, host),
    getUsage(table, run.tenant_id, now),
  ]);
  return { tenant, onChallenge: policy.on_challenge, profile, raised, pagesUsed: usage.pages };
}
