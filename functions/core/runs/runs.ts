import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import { AppError, badRequest, conflict, notFound, targetForbidden } from '../errors.js';
import { checkOutboundUrl } from '../events/egress.js';
import { checkTargetPolicy } from '../governance/target-policy.js';
import { assertQuota } from '../limits/usage.js';
import { findScraperSpec } from './scraper-catalog.js';
import { assertSecretsScope } from '../runbooks/runbooks.js';
import { resolveProfile } from '../profiles/browser-profiles.js';
import { runRecordSchema, TERMINAL, type RunRecord, type RunStatus } from './run-record.js';
import type { EgressCheck } from '../governance/egress-check.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { QueryPage } from '../../ports/table.js';
import type { Deps } from '../../runtime.js';

export const DEFAULT_LIMITS = { max_pages: 1000, max_bytes: 200 * 1024 * 1024, max_runtime_seconds: 840 };
/**
 * A site crawl is distributed over many worker invocations (core/crawl), so it is not bound by
 * one invocation's time: its defaults follow its input, and it may run up to a day.
 */
export const CRAWL_LIMITS = { max_pages: 100_000, max_bytes: 20 * 1024 ** 3, max_runtime_seconds: 86_400 };

export const runCreateSchema = z.strictObject({
  scraper_id: z.string().min(1).max(100),
  input: z.record(z.string(), z.unknown()),
  webhook_url: z.url({ protocol: /^https?$/ }).max(2048).optional(),
  browser_profile: z.string().regex(/^prf_[0-9a-z]{26}$/, 'expected a prf_… id').optional(),
  limits: z
    .strictObject({
      max_pages: z.number().int().min(1).max(100_000).optional(),
      max_bytes: z.number().int().min(1024).max(CRAWL_LIMITS.max_bytes).optional(),
      max_runtime_seconds: z.number().int().min(5).max(CRAWL_LIMITS.max_runtime_seconds).optional(),
    })
    .optional(),
});
export type RunCreate = z.infer<typeof runCreateSchema>;

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

/** Every URL a scraper input names (url, start_url, urls[]): checked before the run is accepted. */
export function targetUrls(input: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'string' && /(^|_)url$/.test(k)) out.push(v);
    if (Array.isArray(v) && /(^|_)urls$/.test(k)) out.push(...v.filter((x): x is string => typeof x === 'string'));
  }
  return out;
}

/** Target policy (400 target_not_authorized) and egress (400 target_forbidden) before anything runs. */
export async function checkTargets(guard: EgressCheck, tenant: Tenant, urls: string[]): Promise<void> {
  for (const u of urls) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw badRequest(`${u} is not a valid URL`);
    }
    if (!/^https?:$/.test(parsed.protocol)) throw targetForbidden(`Only http and https targets are allowed (got ${parsed.protocol})`);
    checkTargetPolicy(tenant.target_policy, parsed);
    try {
      await guard.checkUrl(parsed);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA')
        throw new AppError(400, 'target_unresolvable', `The host ${parsed.hostname} could not be resolved (${code})`);
      throw e;
    }
  }
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
  await checkTargets(guard, tenant, targetUrls(parsed.data as Record<string, unknown>));
  if (body.webhook_url) await checkOutboundUrl(guard, body.webhook_url, 'webhook_url');
  await assertQuota(d.table, tenant, 'pages', now);
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
  await d.queue.send('runs', { kind: 'run.start', tenant_id: tenant.tenant_id, run_id: run.id });
  return run;
}

export async function getRun(d: Deps, tenantId: string, runId: string): Promise<RunRecord> {
  const i = await d.table.get(keys.record(tenantId, 'RUN', runId), { consistent: true });
  if (!i) throw notFound('Run');
  return runRecordSchema.parse(i);
}

/** Long-poll: return when the run is terminal or `waitSeconds` have passed. */
export async function waitForRun(d: Deps, tenantId: string, runId: string, waitSeconds: number): Promise<RunRecord> {
  const deadline = Date.now() + waitSeconds * 1000;
  let run = await getRun(d, tenantId, runId);
  while (!TERMINAL.includes(run.status) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, deadline - Date.now()))));
    run = await getRun(d, tenantId, runId);
  }
  return run;
}

export async function listRuns(d: Deps, tenantId: string, q: { limit: number; cursor?: string; status?: RunStatus }) {
  const data: RunRecord[] = [];
  let cursor: string | null | undefined = q.cursor;
  for (let i = 0; i < 50 && data.length < q.limit; i++) {
    const page: QueryPage = await d.table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: 'RUN#', descending: true, limit: q.limit - data.length, cursor: cursor ?? undefined });
    for (const it of page.items) {
      const r = runRecordSchema.parse(it);
      if (!q.status || r.status === q.status) data.push(r);
    }
    cursor = page.cursor;
    if (!cursor) break;
  }
  return { data, next_cursor: cursor ?? null };
}

/** Cancel: a queued run ends at once; a running one stops before its next page. 409 when finished. */
export async function cancelRun(d: Deps, tenantId: string, runId: string, now: Date): Promise<RunRecord> {
  const key = keys.record(tenantId, 'RUN', runId);
  const run = await getRun(d, tenantId, runId);
  if (TERMINAL.includes(run.status)) throw conflict(`The run already finished with status ${run.status}`);
  try {
    const r = await d.table.update(key, {
      set: run.status === 'queued'
        ? { status: 'cancelled', cancel_requested: true, finished_at: now.toISOString(), stop_reason: 'cancelled' }
        : { cancel_requested: true },
      condition: { expression: '#s = :s', names: { '#s': 'status' }, values: { ':s': run.status } },
    });
    return runRecordSchema.parse(r);
  } catch (e) {
    if ((e as Error).name === 'ConditionFailedError') return cancelRun(d, tenantId, runId, now);
    throw e;
  }
}
