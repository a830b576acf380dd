import { keys } from '../table-keys.js';
import { markForeground } from '../limits/foreground.js';
import { newId } from '../ids.js';
import { badRequest } from '../errors.js';
import { checkTargets, targetUrls } from './check-targets.js';
import { urlInputs } from '../scrapers/runbook-input-contract.js';
import { checkOutboundUrl } from '../events/egress.js';
import { assertQuota } from '../limits/usage.js';
import { findScraperSpec } from './scraper-catalog.js';
import { assertSecretsScope } from '../runbooks/runbooks.js';
import { resolveProfile } from '../profiles/browser-profiles.js';
import type { RunRecord } from './run-record.js';
import { CRAWL_LIMITS, DEFAULT_LIMITS, type RunCreate } from './run-create-schema.js';
import type { EgressCheck } from '../governance/egress-check.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';
import { assertExtractionReady } from '../extraction/readiness.js';
import type { JsonOptions } from '../extraction/json-options.js';

export { CRAWL_LIMITS, DEFAULT_LIMITS, runCreateSchema, type RunCreate } from './run-create-schema.js';
export { cancelRun, getRun, listRuns, waitForRun } from './run-reads.js';
export { checkTargets, targetUrls } from './check-targets.js';

/** A run's limits: the request's, over the defaults of its kind (one invocation, or a distributed crawl). */
function runLimits(scraperId: string, asked: RunCreate['limits']) {
  const crawl = scraperId === 'site-crawl';
  const defaults = crawl ? CRAWL_LIMITS : DEFAULT_LIMITS;
  if (!crawl && asked?.max_runtime_seconds && asked.max_runtime_seconds > DEFAULT_LIMITS.max_runtime_seconds)
    throw badRequest(`limits.max_runtime_seconds may be at most ${DEFAULT_LIMITS.max_runtime_seconds} for this scraper (one worker invocation); only site-crawl runs longer`, [{ path: 'body.limits.max_runtime_seconds', message: `at most ${DEFAULT_LIMITS.max_runtime_seconds}` }]);
  if (!crawl && asked?.max_bytes && asked.max_bytes > 5 * 1024 ** 3)
    throw badRequest('limits.max_bytes may be at most 5 GiB for this scraper', [{ path: 'body.limits.max_bytes', message: 'at most 5368709120' }]);
  return { ...defaults, ...asked };
}

/**
 * Validate and accept a run: the scraper exists, its input passes the scraper's own schema,
 * its targets are allowed, the tenant has page quota; then store it queued and enqueue it.
 */
export async function createRun(d: Deps, guard: EgressCheck, tenant: Tenant, body: RunCreate, now: Date, scopes: readonly string[]): Promise<RunRecord> {
  const scraper = await findScraperSpec(d.table, tenant.tenant_id, body.scraper_id).catch((e) => {
    if (e.code === 'not_found') throw badRequest(`Unknown scraper_id ${body.scraper_id}; GET /v1/scrapers lists them`, [{ path: 'body.scraper_id', message: 'unknown scraper' }]);
    throw e;
  });
  // A runbook that fills a tenant secret runs only for callers holding secrets:use.
  assertSecretsScope(scopes, scraper);
  const parsed = scraper.inputSchema.safeParse(body.input);
  if (!parsed.success)
    throw badRequest(`The input does not match the ${scraper.scraper_id} scraper's input_schema`, parsed.error.issues.map((i) => ({ path: ['body', 'input', ...i.path.map(String)].join('.'), message: i.message })));
  // A runbook's URL inputs (its input contract's format: uri) are checked like any scraper's url.
  const inputUrls = [...new Set([...targetUrls(parsed.data as Record<string, unknown>), ...urlInputs(scraper.input_schema, parsed.data as Record<string, unknown>)])];
  await checkTargets(guard, tenant, inputUrls);
  if (body.webhook_url) await checkOutboundUrl(guard, body.webhook_url, 'webhook_url');
  await assertQuota(d.table, tenant, 'pages', now);
  await assertExtractionReady(d, tenant, parsed.data as { formats?: string[]; json_options?: JsonOptions }, now);
  await resolveProfile(d.table, tenant.tenant_id, body.browser_profile);
  const run: RunRecord = {
    id: newId('run'),
    tenant_id: tenant.tenant_id,
    scraper_id: scraper.scraper_id,
    input: parsed.data as Record<string, unknown>,
    status: 'queued',
    crawl: scraper.scraper_id === 'site-crawl',
    created_at: now.toISOString(),
    started_at: null,
    finished_at: null,
    progress: { pages_done: 0, pages_total: null, items: 0 },
    stats: { requests: 0, bytes: 0, blocked_requests: 0, robots_skipped: 0 },
    error: null,
    stop_reason: null,
    webhook_url: body.webhook_url ?? null,
    cancel_requested: false,
    limits: runLimits(scraper.scraper_id, body.limits),
    attempt: 0,
    item_pages: 0,
    engines_used: {},
    browser_profile: body.browser_profile ?? null,
  };
  await d.table.put({ ...keys.record(tenant.tenant_id, 'RUN', run.id), ...run });
  // From here to its end (executeRun ends the mark) a short run goes before other tenants' crawls
  // on this process; a crawl is the background work itself.
  if (run.scraper_id !== 'site-crawl') markForeground(`run:${run.id}`, tenant.tenant_id);
  await d.queue.send('runs', { kind: 'run.start', tenant_id: tenant.tenant_id, run_id: run.id });
  return run;
}
