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
import { requireTenant } from '../tenancy/tenants.js';
import { checkTargetPolicy } from '../governance/target-policy.js';

/** robots.txt's verdict on a URL for Gleaner's user agent (RobotsPolicy.check, cached per origin). */
export type RobotsCheck = (url: string) => Promise<{ allowed: boolean }>;

/**
 * A synchronous scrape of one URL (`POST /v1/scrape`, MCP tool `scrape`): target checks, page
 * quota, model readiness (format `json`) and browser profile up front, then the task runs in the runs worker (where the engine and
 * Chromium live) and this waits for its result, at most 27 s.
 *
 * With `max_age`, an earlier answer may serve it instead, only after the tenant's target policy
 * (read now, not the authentication's cached copy) and robots.txt (`robots`; without it nothing is
 * served from the cache) admit the URL as they would a fetch.
 *
 * @returns the page as scraped (the formats asked for)
 * @throws AppError as the API answers it (403 target_forbidden, 402 quota, 422 robots/challenge/document, 504 …)
 */
export async function scrapeSync(d: Deps, guard: EgressCheck, tenant: Tenant, body: ScrapeRequest, now: Date, surface?: TaskRecord['surface'], scopes?: readonly string[], robots?: RobotsCheck): Promise<unknown> {
  // A write action that types a tenant secret needs secrets:use, as a runbook's fill does.
  assertSecretsScope(scopes ?? [], { secrets: actionSecrets(body.actions) });
  await checkTargets(guard, tenant, [body.url]);
  // The profile's settings are part of the cache key (an edited profile renders differently).
  const profile = await resolveProfile(d.table, tenant.tenant_id, body.browser_profile);
  const cached = await answerFromCache(d, tenant.tenant_id, body, now, {
    profile,
    admit: async (url) => {
      if (!robots) return false;
      // The policy as it is now: the authenticated tenant may be a cached copy up to 2 s old.
      checkTargetPolicy((await requireTenant(d.table, tenant.tenant_id, { consistent: true })).target_policy, new URL(url));
      return (await robots(url)).allowed;
    },
  });
  if (cached) return cached;
  await assertQuota(d.table, tenant, 'pages', now);
  await assertExtractionReady(d, tenant, body, now);
  const task = await startTask(d, tenant.tenant_id, 'scrape', body, now, surface);
  return awaitTask(d, tenant.tenant_id, task.task_id, Math.min(body.timeout_ms + 10_000, 27_000));
}
