import { z } from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { runSchema } from '../schemas/public.js';
import { runCreateSchema } from '../../core/runs/runs.js';
import { RUN_STATUSES } from '../../core/runs/run-record.js';
import { scrapeRequestSchema, runbookTestSchema } from '../../core/runs/run-task.js';
import { runbookBodySchema, runbookRecordSchema } from '../../core/runbooks/runbooks.js';
import { captchaPolicySchema, CAPTCHA_KINDS } from '../../core/captcha/captcha.js';
import { targetPolicySchema } from '../../core/tenancy/tenants.js';

/** Contracts of the runs surface: scrapers, runs, synchronous scrape, runbooks, captcha, secrets, target policy. */

export const runIdParams = z.strictObject({ id: z.string().regex(/^run_[0-9a-z]{26}$/, 'expected a run_… id') });
export const runbookIdParams = z.strictObject({ id: z.string().regex(/^rbk_[0-9a-z]{26}$/, 'expected a rbk_… id') });
export const runsListQuery = pageQuery.extend({ status: z.enum(RUN_STATUSES).optional() });
/** `?wait=N` long-polls; answers after at most 25 s (API Gateway's limit), so clients simply poll again. */
export const runGetQuery = z.strictObject({ wait: z.coerce.number().int().min(0).max(120).optional() });
export const runResultsQuery = pageQuery.extend({ format: z.enum(['json', 'ndjson', 'csv']).default('json') });
export const encountersQuery = pageQuery.extend({ run_id: z.string().max(64).optional() });
export const secretParams = z.strictObject({ name: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'secret names are 1-64 letters, digits, _ . -') });
export const secretBody = z.strictObject({ value: z.string().min(1).max(8192) });

const scraperSchema = z.object({ scraper_id: z.string(), name: z.string(), description: z.string(), engine: z.enum(['http', 'browser', 'auto']), input_schema: z.record(z.string(), z.unknown()), builtin: z.boolean() });
const itemSchema = z.looseObject({ url: z.string(), fetched_at: z.string(), status_code: z.number().int(), data: z.record(z.string(), z.unknown()) });
const logEntrySchema = z.looseObject({ ts: z.string(), url: z.string(), status: z.number().int().nullable(), bytes: z.number(), timing_ms: z.number(), engine: z.string().nullable(), decision: z.enum(['fetched', 'robots_skipped', 'blocked', 'forbidden', 'error']) });
/** The page as scraped; which of the optional formats appear depends on `formats`. */
const scrapeResultSchema = z.looseObject({ url: z.string(), final_url: z.string(), status_code: z.number().int(), engine_used: z.string() });
const runbookTestResult = z.looseObject({ status: z.enum(['succeeded', 'failed', 'blocked', 'stopped']), items: z.array(itemSchema), log: z.array(z.record(z.string(), z.unknown())), pages_done: z.number().int(), error: z.object({ code: z.string(), message: z.string() }).nullable() });
const encounterSchema = z.object({ id: z.string(), run_id: z.string(), url: z.string(), kind: z.enum(CAPTCHA_KINDS), detected_at: z.string(), action: z.enum(['stopped_run', 'skipped_page']), reason: z.string() });
const text = { type: 'string' } as const;
const syncErrors = {
  422: 'robots.txt disallows the page, or it answered with a challenge (never solved)',
  502: 'The page could not be fetched',
  503: 'No browser is available for a browser page',
  504: 'The work did not finish in time; use POST /v1/runs for long work',
};
const runExample = { scraper_id: 'page-content', input: { url: 'https://example.com/' } };
const queuedRun = {
  id: 'run_01jd8x3k2m4n5p6q7r8s9t0v1w', scraper_id: 'page-content', input: { url: 'https://example.com/' }, status: 'queued',
  created_at: '2026-11-23T10:00:00.000Z', started_at: null, finished_at: null,
  progress: { pages_done: 0, pages_total: null, items: 0 }, stats: { requests: 0, bytes: 0, blocked_requests: 0, robots_skipped: 0 },
  engines_used: {}, stop_reason: null, error: null, webhook_url: null, browser_profile: null,
};
const doneRun = {
  ...queuedRun, status: 'succeeded', started_at: '2026-11-23T10:00:01.000Z', finished_at: '2026-11-23T10:00:03.000Z',
  progress: { pages_done: 1, pages_total: 1, items: 1 }, stats: { requests: 2, bytes: 5120, blocked_requests: 0, robots_skipped: 0 },
  engines_used: { http: 1 }, stop_reason: 'completed',
};
const itemsExample = {
  data: [{ url: 'https://example.com/', fetched_at: '2026-11-23T10:00:02.000Z', status_code: 200, data: { title: 'Example Domain', markdown: '# Example Domain' } }],
  next_cursor: null,
};

export const contracts = defineContracts({
  'scrapers.list': { summary: 'Available scrapers (built-ins and published runbooks) with their input JSON Schema', success: { 200: { description: 'Scrapers', schema: listOf(scraperSchema) } } },
  'runs.create': {
    summary: 'Start a run of a scraper with an input',
    body: runCreateSchema,
    requestExample: runExample,
    success: { 201: { description: 'The run, queued', schema: runSchema, headers: ['Location'], example: queuedRun } },
    errors: { 404: 'No such scraper or browser profile' },
  },
  'runs.list': { summary: 'Runs, newest first', query: runsListQuery, success: { 200: { description: 'Runs', schema: listOf(runSchema) } } },
  'runs.get': {
    summary: 'A run; ?wait=N long-polls up to N seconds (answers within 25 s at most) for a terminal state',
    params: runIdParams,
    query: runGetQuery,
    success: { 200: { description: 'The run', schema: runSchema, example: doneRun } },
    errors: { 404: 'No such run' },
  },
  'runs.cancel': {
    summary: 'Cancel a queued or running run (409 when finished)',
    description: 'A queued run is cancelled at once; a running run stops at its next page. Either way the answer is 202 with the run as it is now (poll it for `cancelled`).',
    params: runIdParams,
    success: { 202: { description: 'Cancellation accepted; the run as it is now', schema: runSchema } },
    errors: { 404: 'No such run', 409: 'The run already finished' },
  },
  'runs.results': {
    summary: 'Items in scrape order, cursor pages; ?format=ndjson|csv exports',
    params: runIdParams,
    query: runResultsQuery,
    success: {
      200: {
        description: 'A page of items (JSON), or every item as an attachment (NDJSON, CSV)',
        schema: listOf(itemSchema),
        example: itemsExample,
        media: { 'application/x-ndjson': { schema: text }, 'text/csv': { schema: text } },
        headers: ['Content-Disposition'],
      },
    },
    errors: { 404: 'No such run' },
  },
  'runs.log': {
    summary: 'The raw scrape log of the run: one entry per request with its decision',
    params: runIdParams,
    success: { 200: { description: 'Log entries', schema: listOf(logEntrySchema) } },
    errors: { 404: 'No such run' },
  },
  'scrape.create': {
    summary: 'Scrape one URL synchronously',
    body: scrapeRequestSchema,
    requestExample: { url: 'https://example.com/', formats: ['markdown', 'links'] },
    success: { 200: { description: 'The page in the formats asked for', schema: scrapeResultSchema } },
    errors: syncErrors,
  },
  'runbooks.list': { summary: 'Runbooks', query: pageQuery, success: { 200: { description: 'Runbooks', schema: listOf(runbookRecordSchema) } } },
  'runbooks.create': {
    summary: 'Create a declarative runbook',
    body: runbookBodySchema,
    requestExample: { name: 'Titles', steps: [{ action: 'goto', url: 'https://example.com/' }, { action: 'extract', fields: { title: { selector: 'h1' } } }] },
    success: { 201: { description: 'The runbook', schema: runbookRecordSchema } },
  },
  'runbooks.get': { summary: 'A runbook', params: runbookIdParams, success: { 200: { description: 'The runbook', schema: runbookRecordSchema } }, errors: { 404: 'No such runbook' } },
  'runbooks.put': { summary: 'Replace a runbook', params: runbookIdParams, body: runbookBodySchema, success: { 200: { description: 'The runbook', schema: runbookRecordSchema } }, errors: { 404: 'No such runbook' } },
  'runbooks.delete': { summary: 'Delete a runbook', params: runbookIdParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such runbook' } },
  'runbooks.test': {
    summary: 'Run a runbook once synchronously: result and step log',
    params: runbookIdParams,
    body: runbookTestSchema,
    bodyOptional: true,
    success: { 200: { description: 'Result and step log', schema: runbookTestResult } },
    errors: { 404: 'No such runbook', ...syncErrors },
  },
  'captcha.encounters': { summary: 'CAPTCHA and challenge pages runs met (never solved)', query: encountersQuery, success: { 200: { description: 'Encounters', schema: listOf(encounterSchema) } } },
  'captcha.policy.get': { summary: 'What a run does at a challenge: stop_run or skip_page', success: { 200: { description: 'The policy', schema: captchaPolicySchema } } },
  'captcha.policy.put': { summary: 'Set the challenge policy', body: captchaPolicySchema, requestExample: { on_challenge: 'skip_page' }, success: { 200: { description: 'The policy', schema: captchaPolicySchema } } },
  'secrets.list': { summary: 'Names of tenant secrets usable by runbook fill steps (values never returned)', success: { 200: { description: 'Secret names', schema: listOf(z.object({ name: z.string(), updated_at: z.string() })) } } },
  'secrets.put': { summary: 'Store a tenant secret (encrypted)', params: secretParams, body: secretBody, success: { 200: { description: 'Stored', schema: z.object({ name: z.string(), updated_at: z.string() }) } } },
  'secrets.delete': { summary: 'Delete a tenant secret', params: secretParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such secret' } },
  'settings.target-policy.get': { summary: "The tenant's target policy", success: { 200: { description: 'The policy', schema: targetPolicySchema } } },
  'settings.target-policy.put': {
    summary: 'Set the target policy: open (any public site) or allowlist',
    body: targetPolicySchema,
    requestExample: { mode: 'allowlist', domains: ['example.com'] },
    success: { 200: { description: 'The policy', schema: targetPolicySchema } },
  },
});
