import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AppError, badRequest, forbidden } from '../errors.js';
import { serviceInfo } from '../service-info.js';
import { listScrapers } from '../runs/scraper-catalog.js';
import { createRun, getRun, waitForRun, runCreateSchema } from '../runs/runs.js';
import { publicRun } from '../runs/run-record.js';
import { readRunItems } from '../runs/run-items.js';
import { querySubmitSchema, submitQuery, getQuery, publicQuery } from '../queries/queries.js';
import { listResultFiles, readResultFile } from '../storage/result-files.js';
import { SERVICE_VERSION } from '../service-info.js';
import { siteMapInputShape } from '../scrapers/site-map-spec.js';
import { scrapeRequestSchema } from '../runs/run-task.js';
import { scrapeSync, type RobotsCheck } from '../runs/sync-scrape.js';
import type { EgressCheck } from '../governance/egress-check.js';
import { extractUrls, extractUrlsSchema } from '../extraction/extract-urls.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';
import { createJob, jobCreateSchema, jobCreateShape, publicJob } from '../jobs/jobs.js';
import { changeFiltersShape, listChanges } from '../changes/change-history.js';
import { checkRunInput } from '../runs/check-run-input.js';
import { searchRequestSchema } from '../search/search-request.js';
import { searchSync } from '../search/sync-search.js';

export interface McpCaller {
  deps: Deps;
  tenant: Tenant;
  scopes: string[];
  /** The key calling (a job it creates records it as its owner). */
  principal: { type: 'key' | 'user'; id: string };
  origin: string;
  guard: EgressCheck;
  /** robots.txt checks (a cached scrape answer is served only where robots.txt allows the URL now). */
  robots?: RobotsCheck;
  /** Tools called in this request (for the audit record). */
  called: string[];
}

const text = (v: unknown) => ({ content: [{ type: 'text' as const, text: typeof v === 'string' ? v : JSON.stringify(v, null, 2) }] });
const errorResult = (e: unknown) => {
  const err = e instanceof AppError ? { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } : { code: 'internal_error', message: 'An unexpected error occurred' };
  return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(err) }] };
};

/** A scrape as a tool result: the markdown as text, everything else as structured content. */
const scrapeResult = (v: unknown) => {
  const { markdown, ...rest } = (v ?? {}) as Record<string, unknown>;
  return {
    content: [{ type: 'text' as const, text: typeof markdown === 'string' ? markdown : JSON.stringify(rest, null, 2) }],
    structuredContent: rest,
  };
};

let ajv: AjvJsonSchemaValidator | undefined;
/**
 * The SDK's server builds an Ajv instance (compiling its meta-schemas and formats) in every
 * constructor, for one use: validating elicitation answers, which these stateless tools never
 * request. Building it on first use instead spares each request (and every cold start) that work.
 */
const lazyJsonSchemaValidator: jsonSchemaValidator = {
  getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema),
};

/**
 * The agent surface: the same core calls as the REST API, each scope-checked for the caller's
 * key; errors come back as tool errors with the API's {code, message}.
 */
export function buildMcpServer(c: McpCaller): McpServer {
  const server = new McpServer({ name: 'gleaner', version: SERVICE_VERSION }, { jsonSchemaValidator: lazyJsonSchemaValidator });
  const tool = <S extends z.ZodRawShape>(
    name: string,
    scope: string | null,
    description: string,
    shape: S,
    fn: (args: z.infer<z.ZodObject<S>>) => Promise<unknown>,
    present: (v: unknown) => unknown = text,
  ) => {
    // Strict: an unknown argument is an error the agent sees, not silently dropped.
    server.registerTool(name, { description, inputSchema: z.strictObject(shape) }, (async (args: z.infer<z.ZodObject<S>>) => {
      c.called.push(name);
      try {
        if (scope && !c.scopes.includes('*') && !c.scopes.includes(scope)) throw forbidden(scope);
        return present(await fn(args));
      } catch (e) {
        return errorResult(e);
      }
    }) as never);
  };
  const now = () => c.deps.clock.now();
  const t = c.tenant.tenant_id;

  tool('get_started', null, 'Start here: what Gleaner is, the usage rules, and how to use the other tools.', {}, async () => {
    const info = serviceInfo(c.origin, c.deps.config.env);
    return [
      `${info.service} ${info.version}: ${info.what}.`,
      `Rules: ${info.rules}`,
      'One page now: scrape {url, formats?, only_main_content?} returns its markdown (and metadata, links… as structured content).',
      'Search the web, governed: search {query, limit?, scrape?: {formats}} returns ranked results, each with its policy decision (denied ones are never fetched) and, with scrape, its page.',
      'Runs (scrape web pages): list_scrapers -> start_run {scraper_id, input} -> get_run {run_id, wait_seconds} until status is succeeded -> get_run_results {run_id}.',
      'Queries (social sources through official APIs): submit_query {prompt, sources, limit} -> get_query {query_id} until completed or failed. Results are also stored: list_storage, get_storage_file {key}.',
      `Your key's scopes: ${c.scopes.join(', ')}. REST reference: ${info.docs}.`,
    ].join('\n\n');
  });
  // The REST route's body, scope and core call (POST /v1/scrape): fields added to the request
  // schema reach agents too. The object schema is parsed again for its object-level rules.
  tool(
    'scrape',
    'scrape:write',
    'Scrape one URL now (HTML or PDF): markdown of the main content (as text) plus, as structured content, url, final_url, status_code, engine_used, content_type and the other formats asked for (html, text, links, metadata, screenshot, extracted; product, product_list, article, job_posting: typed data without a schema, each field with its source). Options: formats, engine, only_main_content, include_tags, exclude_tags, extract, wait_for, timeout_ms, typed_options.',
    scrapeRequestSchema.shape,
    async (a) => scrapeSync(c.deps, c.guard, c.tenant, scrapeRequestSchema.parse(a), now(), 'mcp', c.scopes, c.robots),
    scrapeResult,
  );
  // POST /v1/search's body, scope and core call: governed results, each with its policy decision.
  tool(
    'search',
    'search:run',
    "Search the web through your configured provider (brave, tavily, exa or a self-hosted searxng), governed: each result says whether your target policy, robots.txt and the egress guard allow it (denied results are never fetched). Options: limit, provider, country, language, time_range, include_domains, exclude_domains, scrape {formats, engine, only_main_content, …} to read the allowed results' pages.",
    searchRequestSchema.shape,
    async (a) => searchSync(c.deps, c.guard, c.tenant, searchRequestSchema.parse(a), now(), 'mcp'),
  );
  tool('list_scrapers', 'scrapers:read', 'List scrapers with their input JSON Schema.', {}, async () => listScrapers(c.deps.table, t));
  tool('start_run', 'runs:write', 'Start a run of a scraper with an input object.', { scraper_id: z.string(), input: z.record(z.string(), z.unknown()) }, async (a) =>
    publicRun(await createRun(c.deps, c.guard, c.tenant, runCreateSchema.parse(a), now(), c.scopes)));
  tool('get_run', 'runs:read', 'Get a run; wait_seconds (0-25) long-polls until it finishes.', { run_id: z.string(), wait_seconds: z.number().int().min(0).max(25).optional() }, async (a) =>
    publicRun(a.wait_seconds ? await waitForRun(c.deps, t, a.run_id, a.wait_seconds) : await getRun(c.deps, t, a.run_id)));
  tool('get_run_results', 'runs:read', 'Items of a run in scrape order (cursor pages).', { run_id: z.string(), limit: z.number().int().min(1).max(200).optional(), cursor: z.string().optional() }, async (a) =>
    readRunItems(c.deps, await getRun(c.deps, t, a.run_id), a.limit ?? 50, a.cursor));
  tool('submit_query', 'queries:write', 'Ask a natural-language question against social sources (x, reddit, linkedin, youtube, tiktok, instagram, facebook).', querySubmitSchema.shape, async (a) => {
    const q = await submitQuery(c.deps.table, c.deps.queue, t, querySubmitSchema.parse(a), now());
    return { query_id: q.query_id, status: q.status, created_at: q.created_at };
  });
  tool('get_query', 'queries:read', 'Poll a query; results when completed, error when failed.', { query_id: z.string() }, async (a) => {
    const q = await getQuery(c.deps.table, t, a.query_id);
    const out: Record<string, unknown> = publicQuery(q);
    if (q.status === 'completed' && q.result_key) out.results = JSON.parse(Buffer.from((await readResultFile(c.deps.table, c.deps.blobs, t, q.result_key)).body).toString('utf8'));
    return out;
  });
  tool('list_storage', 'storage:read', 'List stored JSON result files, newest first.', { job_id: z.string().optional(), limit: z.number().int().min(1).max(200).optional(), cursor: z.string().optional() }, async (a) =>
    listResultFiles(c.deps.table, t, { limit: a.limit ?? 50, cursor: a.cursor, job_id: a.job_id }));
  tool('list_changes', 'runs:read', 'Change history of tracked pages (format "changes"): new, changed and removed pages, newest first, with changed fields; filters url, tag, job_id, status, since.', { ...changeFiltersShape, limit: z.number().int().min(1).max(200).optional(), cursor: z.string().optional() }, async (a) =>
    listChanges(c.deps.table, t, { ...a, limit: a.limit ?? 50 }));
  tool('get_storage_file', 'storage:read', 'The raw JSON of a stored result (a file key or a query_id).', { key: z.string() }, async (a) =>
    JSON.parse(Buffer.from((await readResultFile(c.deps.table, c.deps.blobs, t, a.key)).body).toString('utf8')));
  tool('map_site', 'runs:write', "List a site's URLs fast (sitemaps and the start page's links), ordered by relevance to search when given; waits up to 20 s and returns the URLs, else the run to poll.", siteMapInputShape, async (a) => mapSite(c, a));
  tool('extract', 'scrape:write', 'Extract structured data with a model: one JSON object per URL (1-20), valid against your JSON Schema ("type": "object" at the top), with an optional prompt. Returns [{url, json}] or [{url, json_error}] per page.', extractUrlsSchema.shape, async (a) =>
    extractUrls(c.deps, c.guard, c.tenant, extractUrlsSchema.parse(a), now()));
  tool(
    'create_job',
    'jobs:write',
    'Schedule a recurring job on a 5-field cron read in timezone (IANA name, default UTC). Either a run job: scraper_id + input (any scraper from list_scrapers, or a published runbook; each run is an ordinary run with job_id) or a query job: prompt + sources (+ time_window, limit). Optional webhook_url receives job.completed.',
    jobCreateShape,
    async (a) => {
      const body = jobCreateSchema.safeParse(a);
      if (!body.success) throw badRequest('Invalid job', body.error.issues.map((i) => ({ path: ['body', ...i.path.map(String)].join('.'), message: i.message })));
      return publicJob(await createJob(c.deps, t, body.data, now(), { tenant: c.tenant, principal: c.principal, scopes: c.scopes, checkRunInput }), now());
    },
  );
  return server;
}

/** How long `map_site` waits for its run: the MCP function has 29 s (API Gateway's limit). */
const MAP_WAIT_SECONDS = 20;
/** URLs `map_site` returns inline; the rest are read with get_run_results from `next_cursor`. */
const MAP_INLINE_URLS = 5000;

/**
 * `map_site`: a `site-map` run (same validation, governance, quota and audit as start_run),
 * waited for up to {@link MAP_WAIT_SECONDS}; then its URLs (up to {@link MAP_INLINE_URLS}, with a
 * cursor for the rest), or the run's id and status when it is not finished yet.
 */
async function mapSite(c: McpCaller, input: Record<string, unknown>) {
  const t = c.tenant.tenant_id;
  const run = await createRun(c.deps, c.guard, c.tenant, { scraper_id: 'site-map', input }, c.deps.clock.now(), c.scopes);
  const done = await waitForRun(c.deps, t, run.id, MAP_WAIT_SECONDS);
  if (done.status !== 'succeeded') {
    return {
      run_id: done.id,
      status: done.status,
      ...(done.error ? { error: done.error } : {}),
      ...(done.status === 'queued' || done.status === 'running' ? { message: 'Still running: call get_run {run_id, wait_seconds: 25} until it succeeds, then get_run_results {run_id}.' } : {}),
    };
  }
  const urls: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await readRunItems(c.deps, done, 200, cursor);
    urls.push(...page.data.map((i) => i.url));
    cursor = page.next_cursor ?? undefined;
  } while (cursor && urls.length < MAP_INLINE_URLS);
  return { run_id: done.id, status: done.status, total: done.progress.items, urls, next_cursor: cursor ?? null };
}
