import { checkTargets } from './check-targets.js';
import { assertQuota } from '../limits/usage.js';
import { startTask, awaitTask, type TaskRecord } from './scrape-task.js';
import { resolveProfile } from '../profiles/browser-profiles.js';
import { assertExtractionReady } from '../extraction/readiness.js';
import type { ScrapeRequest } from './run-task.js';
import type { EgressCheck } from '../governance/egress-check.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';
import { assertSecretsScope } from '../runbooks/runbooks.js';
import { actionSecrets } from '../scrapers/page-actions-schema.js';
import { answerFromCache } from '../freshness/cached-scrape.js';

/**
 * A synchronous scrape of one URL (`POST /v1/scrape`, MCP tool `scrape`): target checks, page
 * quota, model readiness (format `json`) and browser profile up front, then the task runs in the runs worker (where the engine and
 * Chromium live) and this waits for its result, at most 27 s.
 *
 * @returns the page as scraped (the formats asked for)
 * @throws AppError as the API answers it (403 target_forbidden, 402 quota, 422 robots/challenge/document, 504 …)
 */
export async function scrapeSync(d: Deps, guard: EgressCheck, tenant: Tenant, body: ScrapeRequest, now: Date, surface?: TaskRecord['surface'], scopes?: readonly string[]): Promise<unknown> {
  // A write action that types a tenant secret needs secrets:use, as a runbook's fill does.
  assertSecretsScope(scopes ?? [], { secrets: actionSecrets(body.actions) });
  await checkTargets(guard, tenant, [body.url]);
  const cached = await answerFromCache(d, tenant.tenant_id, body, now);
  if (cached) return cached;
  await assertQuota(d.table, tenant, 'pages', now);
  await assertExtractionReady(d, tenant, body, now);
  await resolveProfile(d.table, tenant.tenant_id, body.browser_profile);
  const task = await startTask(d, tenant.tenant_id, 'scrape', body, now, surface);
  return awaitTask(d, tenant.tenant_id, task.task_id, Math.min(body.timeout_ms + 10_000, 27_000));
}
