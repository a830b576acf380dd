import { normalizeUrl } from '../scrapers/normalize-url.js';
import { isAllowlisted, checkTargetPolicy, type TargetPolicy } from '../governance/target-policy.js';
import { AppError } from '../errors.js';
import type { ProviderResult } from './types.js';

/** The governance a result passes before anything fetches it (injected: pure here, tested as data). */
export interface ResultChecks {
  policy: TargetPolicy;
  /** The egress guard's check (scheme, credentials, resolved addresses); throws to refuse. */
  egress: (url: URL) => Promise<unknown>;
  /** robots.txt for our user agent; absent when nothing will be fetched (no `scrape`). */
  robots?: (url: string) => Promise<{ allowed: boolean; reason: string }>;
}

export interface GovernedResult extends ProviderResult {
  rank: number;
  policy: { decision: 'allowed' | 'denied'; reason: string };
}

/**
 * Provider results in the provider's order, cut to what the tenant may see and fetch:
 * duplicates by normalised URL dropped (the first, best-ranked, kept), results outside
 * `include_domains` or inside `exclude_domains` dropped (providers without domain filters are
 * filtered here), then each remaining result decided by the tenant's target policy, the egress
 * guard and (when it will be fetched) robots.txt, concurrently. Ranks are 1.. in that order.
 * A check that throws something unexpected denies the result; it never fails the search.
 */
export async function governResults(results: ProviderResult[], checks: ResultChecks, filters: ResultFilters): Promise<GovernedResult[]> {
  return Promise.all(selectResults(results, filters).map(async (r) => ({ ...r, policy: await decideResult(r.url, checks) })));
}

export interface ResultFilters {
  include_domains?: string[];
  exclude_domains?: string[];
  limit: number;
}

/** The first step of {@link governResults}, synchronous: de-duplicated, filtered, cut and ranked. */
export function selectResults(results: ProviderResult[], filters: ResultFilters): (ProviderResult & { rank: number })[] {
  const seen = new Set<string>();
  const kept: (ProviderResult & { key: string })[] = [];
  for (const r of results) {
    const key = normalizeUrl(r.url);
    if (!key || seen.has(key)) continue;
    if (filters.include_domains?.length && !isAllowlisted({ mode: 'allowlist', domains: filters.include_domains }, key)) continue;
    if (filters.exclude_domains?.length && isAllowlisted({ mode: 'allowlist', domains: filters.exclude_domains }, key)) continue;
    seen.add(key);
    kept.push({ ...r, key });
    if (kept.length >= filters.limit) break;
  }
  return kept.map(({ key: _k, ...r }, i) => ({ ...r, rank: i + 1 }));
}

/** The decision on one result: target policy, then the egress guard, then (when given) robots.txt. */
export async function decideResult(url: string, checks: ResultChecks): Promise<GovernedResult['policy']> {
  const parsed = new URL(url);
  try {
    checkTargetPolicy(checks.policy, parsed);
  } catch (e) {
    return { decision: 'denied', reason: e instanceof AppError ? `target_not_authorized: ${e.message}` : 'target_not_authorized' };
  }
  try {
    await checks.egress(parsed);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof AppError) return { decision: 'denied', reason: `${e.code}: ${e.message}` };
    return { decision: 'denied', reason: code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? `target_unresolvable: ${parsed.hostname} could not be resolved` : 'target_forbidden: the egress guard refused the host' };
  }
  if (checks.robots) {
    try {
      const r = await checks.robots(url);
      if (!r.allowed) return { decision: 'denied', reason: `robots_disallowed: ${r.reason}` };
    } catch {
      return { decision: 'denied', reason: 'robots_disallowed: robots.txt could not be read' };
    }
  }
  return { decision: 'allowed', reason: checks.robots ? 'target policy, egress guard and robots.txt allow it' : 'target policy and egress guard allow it' };
}
