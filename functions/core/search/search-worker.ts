import { AppError } from '../errors.js';
import { log } from '../log.js';
import { addUsage } from '../limits/usage.js';
import { answerFromCache, keepScrapeAnswer } from '../freshness/cached-scrape.js';
import { contentOptionsOf } from '../content/content-options.js';
import { searchProviders } from './registry.js';
import { PROVIDER_TIMEOUT_MS, providerBaseUrl } from './provider-base.js';
import { getSearchCredentials } from './search-credentials.js';
import { providerError } from './provider-errors.js';
import { runSearch, type ResultScrape, type SearchAnswer } from './run-search.js';
import type { SearchRequest } from './search-request.js';
import type { SearchProviderName } from './types.js';
import type { Engine } from '../engine/pipeline.js';
import type { EgressGuard } from '../governance/egress-guard.js';
import type { RobotsPolicy } from '../governance/robots.js';
import { requireTenant, type Tenant } from '../tenancy/tenants.js';
import { checkTargetPolicy } from '../governance/target-policy.js';
import type { Deps } from '../../runtime.js';
import type { AuditRecord } from '../audit/audit-record.js';
import type { ScrapeFormat } from '../engine/types.js';
import { assertQuota } from '../limits/usage.js';
import { chooseProvider, listSearchCredentials } from './search-credentials.js';
import { fanOut } from '../webhooks/deliveries.js';
import { getJob } from '../jobs/jobs.js';

/** Results of one search scraped at once; per-host politeness (HostGate) still applies to each. */
export const SEARCH_SCRAPE_CONCURRENCY = 10;

/** Who the search is for: its audit records' request id and surface. */
export interface SearchScope {
  requestId: string;
  surface: AuditRecord['surface'];
  /** Also write the one audit record of the search itself (searches not made through an API route: scheduled runs). */
  auditSearch?: boolean;
  /** Add the scraped pages to the page meter here (false in a run: the run bills its own pages). */
  billPages?: boolean;
  signal?: AbortSignal;
}

/**
 * A tenant's search run where the engine lives (the runs worker): the provider called through the
 * egress guard with the tenant's decrypted credentials, results governed, allowed ones scraped
 * with `engine` (target policy, egress, robots and politeness again at fetch time), usage added
 * (one search, one page per scraped result) and one audit record per fetched URL.
 */
export async function searchWith(d: Deps, tenant: Tenant, guard: EgressGuard, robots: RobotsPolicy, engine: Engine, req: SearchRequest & { provider: SearchProviderName }, scope: SearchScope): Promise<SearchAnswer> {
  const tenantId = tenant.tenant_id;
  const provider = searchProviders[req.provider];
  const credentials = await getSearchCredentials(d.table, d.secrets, tenantId, req.provider);
  if (!credentials) throw new AppError(422, 'search_not_configured', `The search provider ${req.provider} has no credentials; add them with PUT /dashboard/api/search-providers/${req.provider}`);
  const audit = (action: string, resource: string, outcome: AuditRecord['outcome'], status: number) =>
    d.audit.record({
      ts: d.clock.now().toISOString(), request_id: scope.requestId, tenant_id: tenantId, principal: { type: 'system', id: 'search' },
      surface: scope.surface, action, resource, outcome, status, ip: null, user_agent: null,
    }).catch((err) => log.error('audit write failed', { err, request_id: scope.requestId }));
  const scrape = req.scrape;
  const formats = scrape?.formats as ScrapeFormat[] | undefined;
  let answer: SearchAnswer;
  try {
    answer = await runSearch({
      provider,
      credentials,
      baseUrl: providerBaseUrl(d, req.provider, credentials),
      fetch: (url, init) => guard.fetchResponse(url, { ...init, timeoutMs: PROVIDER_TIMEOUT_MS, maxBytes: 4 * 1024 * 1024 }),
      checks: { policy: tenant.target_policy, egress: (u) => guard.checkUrl(u), robots: (u) => robots.check(u) },
      providerTimeoutMs: PROVIDER_TIMEOUT_MS,
      concurrency: Math.min(SEARCH_SCRAPE_CONCURRENCY, d.config.tenantCrawlPages),
      signal: scope.signal,
      scrape: scrape
        ? async (url) => {
          const request = { url, engine: scrape.engine, formats, timeout_ms: scrape.timeout_ms, ...contentOptionsOf(scrape), ...(scrape.max_age ? { max_age: scrape.max_age } : {}) };
          const cached = await answerFromCache(d, tenantId, request, d.clock.now(), {
            profile: undefined,
            // A kept answer is served only to what the tenant's policy and robots.txt admit now.
            admit: async (u) => {
              checkTargetPolicy((await requireTenant(d.table, tenantId, { consistent: true })).target_policy, new URL(u));
              return (await robots.check(u)).allowed;
            },
          });
          if (cached) return { scrape: cached, billed: false };
          const page = await engine.scrapePage(url, { engine: scrape.engine, formats, timeout_ms: scrape.timeout_ms, ...contentOptionsOf(scrape) });
          if (page.skipped === 'robots') return { scrape: { error: { code: 'robots_disallowed', message: `robots.txt disallows ${page.final_url}` } }, billed: false };
          // Blocked pages are not billed (DESIGN.md "Challenges"); nothing solves a challenge.
          if (page.blocked) return { scrape: { error: { code: 'challenge_detected', message: `${url} answered with a ${page.blocked.kind} challenge; Gleaner never solves challenges` } }, billed: false };
          const { blocked: _b, skipped: _s, auto_reason: _a, fetched_at, ...body } = page as typeof page & { auto_reason?: unknown };
          // Kept for later searches only when this one asked for freshness (max_age): keeping every
          // result's answer would cost each search a write per page.
          if (scrape.max_age) await keepScrapeAnswer(d, tenantId, request, body, fetched_at);
          return { scrape: body as ResultScrape, billed: true };
        }
        : undefined,
      onFetched: (url, s) => {
        const failed = 'error' in s;
        const status = failed ? 502 : Number((s as { status_code?: number }).status_code ?? 200);
        return audit('search.fetch', url, failed || status >= 400 ? 'error' : 'allowed', status);
      },
    }, req);
  } catch (e) {
    if (scope.auditSearch) await audit('search.run', req.query, 'error', e instanceof AppError ? e.status : 500);
    throw e instanceof AppError ? e : providerError(req.provider, { kind: 'unavailable' });
  }
  const now = d.clock.now();
  await Promise.all([addUsage(d.table, tenantId, 'searches', 1, now), scope.billPages === false ? undefined : addUsage(d.table, tenantId, 'pages', answer.usage.pages, now)]);
  if (scope.auditSearch) await audit('search.run', req.query, 'allowed', 200);
  return answer;
}

/**
 * The web-search scraper's search inside a run: provider chosen (422 search_not_configured), the
 * search quota checked, the search run with the run's engine (the run bills the pages), one
 * audit record for the search, and `search.completed` announced to subscribed webhooks and the
 * job's webhook_url.
 */
export function runSearchHook(d: Deps, tenant: Tenant, guard: EgressGuard, robots: RobotsPolicy, engine: Engine, run: { run_id: string; job_id: string | null }, signal?: AbortSignal) {
  return async (req: SearchRequest): Promise<SearchAnswer> => {
    const provider = chooseProvider(await listSearchCredentials(d.table, tenant.tenant_id), req.provider);
    await assertQuota(d.table, tenant, 'searches', d.clock.now());
    const answer = await searchWith(d, tenant, guard, robots, engine, { ...req, provider }, { requestId: run.run_id, surface: run.job_id ? 'scheduler' : 'api', auditSearch: true, billPages: false, signal });
    await announceSearchCompleted(d, tenant.tenant_id, run, answer).catch((err) => log.error('search.completed event failed', { err, run_id: run.run_id }));
    return answer;
  };
}

/** API.md event `search.completed`, for a search run (a scheduled search when the run is a job's). */
export async function announceSearchCompleted(d: Deps, tenantId: string, run: { run_id: string; job_id: string | null }, answer: SearchAnswer): Promise<void> {
  const job = run.job_id ? await getJob(d.table, tenantId, run.job_id).catch(() => undefined) : undefined;
  await fanOut(d, {
    tenantId,
    event: 'search.completed',
    eventKey: `search.completed:${run.run_id}`,
    payload: { event: 'search.completed', search_id: run.run_id, query: answer.query, provider: answer.provider, results: answer.data.length, scraped: answer.data.filter((r) => r.scrape && !('error' in r.scrape)).length, completed_at: d.clock.now().toISOString() },
    ownUrl: job?.webhook_url ?? null,
    ...(run.job_id ? { jobId: run.job_id } : {}),
    runId: run.run_id,
  });
}
