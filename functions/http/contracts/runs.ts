import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { runSchema } from '../schemas/run.js';
import { runCreateSchema } from '../../core/runs/run-create-schema.js';
import { RUN_STATUSES } from '../../core/runs/run-record.js';

/** Contracts of scrapers.list, runs.create, runs.list, runs.get, runs.cancel, runs.results, runs.log. */

export const runIdParams = z.strictObject({ id: z.string().regex(/^run_[0-9a-z]{26}$/, 'expected a run_… id') });
export const runsListQuery = pageQuery.extend({ status: z.enum(RUN_STATUSES).optional(), job_id: z.string().regex(/^job_[0-9a-z]{26}$/, 'expected a job_… id').optional() });
/** `?wait=N` long-polls; answers after at most 25 s (API Gateway's limit), so clients simply poll again. */
export const runGetQuery = z.strictObject({ wait: z.coerce.number().int().min(0).max(120).optional() });
export const runResultsQuery = pageQuery.extend({
  format: z.enum(['json', 'ndjson', 'csv']).default('json'),
  /** CSV only: the columns to export, comma-separated, in order (url, fetched_at, status_code or a data field). */
  columns: z.string().max(4000).regex(/^[^,]+(,[^,]+)*$/, 'expected column names separated by commas').optional(),
});
const scraperSchema = z.object({ scraper_id: z.string(), name: z.string(), description: z.string(), engine: z.enum(['http', 'browser', 'auto']), input_schema: z.record(z.string(), z.unknown()), builtin: z.boolean() });
const itemSchema = z.looseObject({ url: z.string(), fetched_at: z.string(), status_code: z.number().int(), data: z.record(z.string(), z.unknown()) });
const logEntrySchema = z.looseObject({ ts: z.string(), url: z.string(), status: z.number().int().nullable(), bytes: z.number(), timing_ms: z.number(), engine: z.string().nullable(), decision: z.enum(['fetched', 'robots_skipped', 'blocked', 'forbidden', 'error']) });
const text = { type: 'string' } as const;
const runExample = { scraper_id: 'page-content', input: { url: 'https://example.com/' } };
const queuedRun = {
  id: 'run_01jd8x3k2m4n5p6q7r8s9t0v1w', scraper_id: 'page-content', input: { url: 'https://example.com/' }, status: 'queued',
  created_at: '2026-11-23T10:00:00.000Z', started_at: null, finished_at: null,
  progress: { pages_done: 0, pages_total: null, items: 0 }, stats: { requests: 0, bytes: 0, blocked_requests: 0, robots_skipped: 0 },
  engines_used: {}, stop_reason: null, error: null, webhook_url: null, browser_profile: null, job_id: null,
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
    description:
      'With `format=json` (default) a page of items and `next_cursor`. With `format=ndjson` or `format=csv` every item of the run, as an attachment, ' +
      'streamed: items are read one stored page at a time and written as they are read (no size limit; a 100,000-item crawl exports in one response). ' +
      'NDJSON is one item per line. CSV has a header row first: `url,fetched_at,status_code`, then one column per `data` field of the first page of ' +
      'items (in the order first seen; the built-in scrapers give every item the same fields); a field that first appears later is not in the CSV ' +
      '(NDJSON carries every field). `columns=url,title,…` (CSV only) exports exactly those columns in that order (any data field, or url, fetched_at, status_code). Cells starting with `=`, `+`, `-` or `@` get a leading `\'`. Errors before the first byte (401, 403, 404, 400) ' +
      'are JSON `{code, message}` with their status; a failure after it breaks the transfer off.',
    params: runIdParams,
    query: runResultsQuery,
    success: {
      200: {
        description: 'A page of items (JSON), or every item as a streamed attachment (NDJSON, CSV; chunked, no Content-Length)',
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
});
