import { z } from 'zod';
import { pageQuery } from './common.js';
import { runCreateSchema } from '../../core/runs/runs.js';
import { RUN_STATUSES } from '../../core/runs/run-record.js';
import { scrapeRequestSchema, runbookTestSchema } from '../../core/runs/run-task.js';
import { runbookBodySchema } from '../../core/runbooks/runbooks.js';
import { captchaPolicySchema } from '../../core/captcha/captcha.js';
import { targetPolicySchema } from '../../core/tenancy/tenants.js';
import { secretDomainsSchema } from '../../core/runs/tenant-secrets.js';
import type { RouteDoc } from './registry.js';

export const runIdParams = z.strictObject({ id: z.string().regex(/^run_[0-9a-z]{26}$/, 'expected a run_… id') });
export const runbookIdParams = z.strictObject({ id: z.string().regex(/^rbk_[0-9a-z]{26}$/, 'expected a rbk_… id') });
export const runsListQuery = pageQuery.extend({ status: z.enum(RUN_STATUSES).optional() });
/** `?wait=N` long-polls; answers after at most 25 s (API Gateway's limit), so clients simply poll again. */
export const runGetQuery = z.strictObject({ wait: z.coerce.number().int().min(0).max(120).optional() });
export const runResultsQuery = pageQuery.extend({ format: z.enum(['json', 'ndjson', 'csv']).default('json') });
export const encountersQuery = pageQuery.extend({ run_id: z.string().max(64).optional() });
export const secretParams = z.strictObject({ name: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'secret names are 1-64 letters, digits, _ . -') });
export const secretBody = z.strictObject({
  value: z.string().min(1).max(8192),
  domains: secretDomainsSchema.describe('Hosts (and their subdomains) the secret may be filled on; fixed when saved'),
});

export const runsDocs: Record<string, RouteDoc> = {
  'scrapers.list': { summary: 'Available scrapers (built-ins and published runbooks) with their input JSON Schema' },
  'runs.create': { summary: 'Start a run of a scraper with an input', body: runCreateSchema, status: 201 },
  'runs.list': { summary: 'Runs, newest first', query: runsListQuery },
  'runs.get': { summary: 'A run; ?wait=N long-polls up to N seconds (answers within 25 s at most) for a terminal state', params: runIdParams, query: runGetQuery },
  'runs.cancel': { summary: 'Cancel a queued or running run (409 when finished)', params: runIdParams },
  'runs.results': { summary: 'Items in scrape order, cursor pages; ?format=ndjson|csv exports', params: runIdParams, query: runResultsQuery },
  'runs.log': { summary: 'The raw scrape log of the run: one entry per request with its decision', params: runIdParams },
  'scrape.create': { summary: 'Scrape one URL synchronously', body: scrapeRequestSchema },
  'runbooks.list': { summary: 'Runbooks', query: pageQuery },
  'runbooks.create': { summary: 'Create a declarative runbook', body: runbookBodySchema, status: 201 },
  'runbooks.get': { summary: 'A runbook', params: runbookIdParams },
  'runbooks.put': { summary: 'Replace a runbook', params: runbookIdParams, body: runbookBodySchema },
  'runbooks.delete': { summary: 'Delete a runbook', params: runbookIdParams, status: 204 },
  'runbooks.test': { summary: 'Run a runbook once synchronously: result and step log', params: runbookIdParams, body: runbookTestSchema },
  'captcha.encounters': { summary: 'CAPTCHA and challenge pages runs met (never solved)', query: encountersQuery },
  'captcha.policy.get': { summary: 'What a run does at a challenge: stop_run or skip_page' },
  'captcha.policy.put': { summary: 'Set the challenge policy', body: captchaPolicySchema },
  'secrets.list': { summary: 'Names and bound domains of tenant secrets usable by runbook fill steps (values never returned)' },
  'secrets.put': { summary: 'Store a tenant secret (encrypted), bound to the domains it may be filled on', params: secretParams, body: secretBody },
  'secrets.delete': { summary: 'Delete a tenant secret', params: secretParams, status: 204 },
  'settings.target-policy.get': { summary: "The tenant's target policy" },
  'settings.target-policy.put': { summary: 'Set the target policy: open (any public site) or allowlist', body: targetPolicySchema },
};
