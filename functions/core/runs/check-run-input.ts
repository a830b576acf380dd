import { badRequest } from '../errors.js';
import { checkTargets, targetUrls } from './check-targets.js';
import { urlInputs } from '../scrapers/runbook-input-contract.js';
import { findScraperSpec } from './scraper-catalog.js';
import { assertSecretsScope } from '../runbooks/runbooks.js';
import { actionSecrets, type PageAction } from '../scrapers/page-actions-schema.js';
import { assertExtractionReady } from '../extraction/readiness.js';
import { selectorTooComplex } from '../limits/selector-limits.js';
import type { JsonOptions } from '../extraction/json-options.js';
import type { EgressCheck } from '../governance/egress-check.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';

/**
 * Everything POST /v1/runs checks about a scraper and its input before a run is accepted: the
 * scraper exists (built-in or the tenant's published runbook), a runbook that fills a secret is
 * started only by a caller with `secrets:use`, the input passes the scraper's own schema (400
 * naming each field, `body.input.url`), its targets are allowed (target policy, egress), and a
 * `json` format has a model to run on. Run jobs apply the same checks when they are created or
 * edited, so a scheduled run does not fail on an input that could have been refused up front.
 * @returns the scraper's id and the input as its schema parsed it (defaults filled in).
 */
export async function checkRunInput(
  d: Deps, guard: EgressCheck, tenant: Tenant, scraperId: string, input: unknown, scopes: readonly string[], now: Date,
): Promise<{ scraper_id: string; input: Record<string, unknown> }> {
  const scraper = await findScraperSpec(d.table, tenant.tenant_id, scraperId).catch((e) => {
    if (e.code === 'not_found') throw badRequest(`Unknown scraper_id ${scraperId}; GET /v1/scrapers lists them`, [{ path: 'body.scraper_id', message: 'unknown scraper' }]);
    throw e;
  });
  assertSecretsScope(scopes, scraper);
  const parsed = scraper.inputSchema.safeParse(input);
  if (!parsed.success)
    throw selectorTooComplex(parsed.error.issues, 'body.input') ?? badRequest(`The input does not match the ${scraper.scraper_id} scraper's input_schema`, parsed.error.issues.map((i) => ({ path: ['body', 'input', ...i.path.map(String)].join('.'), message: i.message })));
  const data = parsed.data as Record<string, unknown>;
  // page-content's write actions may type a tenant secret: secrets:use as for a runbook.
  assertSecretsScope(scopes, { secrets: actionSecrets((data as { actions?: PageAction[] }).actions) });
  // A runbook's URL inputs (its input contract's format: uri) are checked like any scraper's url.
  await checkTargets(guard, tenant, [...new Set([...targetUrls(data), ...urlInputs(scraper.input_schema, data)])]);
  await assertExtractionReady(d, tenant, data as { formats?: string[]; json_options?: JsonOptions }, now);
  return { scraper_id: scraper.scraper_id, input: data };
}
