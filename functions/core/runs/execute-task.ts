import * as z from 'zod';
import { AppError } from '../errors.js';
import { createEngine } from '../engine/pipeline.js';
import { requireTenant } from '../tenancy/tenants.js';
import { getCaptchaPolicy, recordEncounter } from '../captcha/captcha.js';
import { addUsage } from '../limits/usage.js';
import { executeRunbook } from '../scrapers/runbook.js';
import { getRunbook, runbookBodySchema } from '../runbooks/runbooks.js';
import { getTask, completeTask, failTask, type TaskKind } from './scrape-task.js';
import { resolveProfile } from '../profiles/browser-profiles.js';
import { resolveTenantSecret } from './tenant-secrets.js';
import { shutdownSignal } from './shutdown.js';
import { SecretRedactor } from '../scrapers/secret-redactor.js';
import { scrapeRequestSchema } from './run-task.js';
import { contentOptionsOf } from '../content/content-options.js';
import type { RunWorkerDeps } from './execute-run.js';
import { createJsonExtractor } from '../extraction/model-extractor.js';
import { markForeground } from '../limits/foreground.js';
import { ChangeTracker } from '../changes/change-tracker.js';
import { unavailablePage } from '../changes/unavailable-page.js';
import { wantsChanges, withIgnoredTags } from '../changes/change-options.js';
import { structuredOf } from '../changes/structured-data.js';
import type { ScrapeFormat } from '../engine/types.js';
import { previewPage } from '../studio/page-preview.js';
import { previewRequestSchema } from '../studio/preview-request.js';
import { keepScrapeAnswer } from '../freshness/cached-scrape.js';
import { searchWith } from '../search/search-worker.js';
import { searchTaskSchema, SEARCH_TASK_BUDGET_MS } from '../search/search-task.js';
import { runGate } from '../governance/host-gates.js';
import { HostBusyError } from '../governance/politeness.js';
import { hostLimitsFor } from '../domains/verified-domains.js';

/** What a task is called in the messages its caller reads. */
const TASK_WORDS: Record<TaskKind, string> = { scrape: 'scrape', 'runbook.test': 'runbook test', 'studio.preview': 'page preview', search: 'search' };

/** How long a runbook test may take on the worker: the API stops waiting at 27 s. */
export const RUNBOOK_TEST_BUDGET_MS = 25_000;

/**
 * The longest a synchronous task waits for its turn on a host (per-host concurrency, spacing,
 * robots.txt Crawl-delay), counted from the request: a scrape waits within its `timeout_ms`
 * and at most this long, so that the page still has time to load inside the API's 27 s window.
 * A request the host's politeness would not let start by then answers 429 `host_busy` with
 * `Retry-After` (README, "Politeness").
 */
export const SYNC_GATE_WAIT_MS = 15_000;

/** The host whose verified-domain limits apply to a task: the one its request names (`url`). */
function taskHost(request: unknown): string | null {
  const url = (request as { url?: unknown } | null)?.url;
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/**
 * Worker side of a synchronous scrape or runbook test: same engine, same governance as runs.
 * A task ends within its budget (the scrape's timeout_ms plus a little; {@link RUNBOOK_TEST_BUDGET_MS}
 * for a runbook test), when `signal` (the worker's deadline) aborts, or at shutdown; then its
 * browser is closed at once and the task fails with 504 `timed_out`.
 */
export async function executeTask(w: RunWorkerDeps, tenantId: string, taskId: string, signal?: AbortSignal): Promise<void> {
  // Other tenants' crawls on this process yield to it while it runs (core/limits/foreground.ts).
  const end = markForeground(`task:${taskId}`, tenantId);
  try {
    await runTask(w, tenantId, taskId, signal);
  } finally {
    end();
  }
}

async function runTask(w: RunWorkerDeps, tenantId: string, taskId: string, signal?: AbortSignal): Promise<void> {
  const d = w.deps;
  const task = await getTask(d, tenantId, taskId);
  if (task.status !== 'pending') return;
  const budgetMs = task.kind === 'scrape' ? Number((task.request as { timeout_ms?: number }).timeout_ms ?? 30_000) + 5_000 : task.kind === 'search' ? SEARCH_TASK_BUDGET_MS : RUNBOOK_TEST_BUDGET_MS;
  const stop = AbortSignal.any([AbortSignal.timeout(budgetMs), shutdownSignal(), ...(signal ? [signal] : [])]);
  const tenant = await requireTenant(d.table, tenantId);
  const { on_challenge } = await getCaptchaPolicy(d.table, tenantId);
  const profile = task.kind === 'scrape' ? await resolveProfile(d.table, tenantId, (task.request as { browser_profile?: string }).browser_profile) : undefined;
  // Issue 37 finding 5: the same per-host gate as runs (shared through the table, with the
  // tenant's raised limits on a host it verified), waited for within the task's own window.
  const host = taskHost(task.request);
  const raised = host ? await hostLimitsFor(d.table, tenantId, host) : null;
  const waitMs = Math.min(SYNC_GATE_WAIT_MS, task.kind === 'scrape' ? Number((task.request as { timeout_ms?: number }).timeout_ms ?? 30_000) : SYNC_GATE_WAIT_MS);
  // Counted from the request (the caller's clock started then), not from when a worker took the
  // task: a task that waited in the queue has that much less to wait for the host.
  const createdAt = Date.parse(task.created_at);
  const deadlineAt = Math.min(Date.now(), Number.isFinite(createdAt) ? createdAt : Date.now()) + waitMs;
  const hostGate = runGate(d.table, w.politeness, raised && host ? { host, tenantId, concurrency: raised.concurrency, delayMs: raised.delay_ms } : null, { tenant: tenantId, maxWaitMs: waitMs, deadlineAt });
  // The refusal is remembered: a runbook step or the preview reports it as its own failure, and
  // the task then answers it as what it is (429 host_busy with Retry-After).
  let busy: HostBusyError | null = null;
  const gate = hostGate && {
    acquire: (h: string, delay?: number) =>
      hostGate.acquire(h, delay).catch((err: unknown) => {
        if (err instanceof HostBusyError) busy = err;
        throw err;
      }),
  };
  const refuseBusy = async (): Promise<boolean> => {
    const b = busy as HostBusyError | null;
    if (!b || stop.aborted) return false;
    const retryAfter = Math.ceil(b.retryAfterMs / 1000);
    const what = TASK_WORDS[task.kind];
    await failTask(d, tenantId, taskId, { code: 'host_busy', message: `${b.host} allows no request before this ${what}'s deadline (its per-host politeness: concurrency, spacing and robots.txt Crawl-delay); retry after ${retryAfter} s`, status: 429, retry_after: retryAfter });
    return true;
  };
  const redactor = new SecretRedactor();
  const engine = createEngine({
    owner: tenantId,
    gate,
    guard: w.guard, robots: w.robots, browser: (signal) => w.startBrowser(w.guard, profile, signal), policy: tenant.target_policy,
    challengePolicy: task.kind === 'scrape' || task.kind === 'search' ? 'skip_page' : on_challenge, userAgent: d.config.userAgent,
    onChallenge: (c) => void recordEncounter(d.table, tenantId, { run_id: taskId, url: c.url, kind: c.kind as never, detected_at: d.clock.now().toISOString(), reason: c.reason, action: 'skipped_page' }).catch(() => undefined),
    extractJson: createJsonExtractor(d, { tenant, requestId: taskId, surface: task.surface ?? 'api', signal: stop }),
    resolveSecret: (n) => resolveTenantSecret(d, tenantId, n),
    // One redactor for the task (issue 37 finding 3): a secret a scrape's write action or a
    // runbook test typed is masked in the answer, the model's input, change snapshots and the error.
    redactor,
  });
  const onStop = () => void engine.close().catch(() => undefined);
  stop.addEventListener('abort', onStop, { once: true });
  try {
    if (stop.aborted) throw new Error('stopped before it started');
    if (task.kind === 'scrape') {
      const req = scrapeRequestSchema.parse(task.request);
      // Change tracking compares the main-content markdown: fetched whenever `changes` is asked for.
      const tracker = wantsChanges(req) ? new ChangeTracker(d, { tenantId, options: req.change_options, runId: null, jobId: null }) : undefined;
      const formats = req.formats && tracker ? [...new Set<ScrapeFormat>([...req.formats.filter((f) => f !== 'changes'), 'markdown'])] : req.formats;
      let page;
      try {
        page = await engine.scrapePage(req.url, { engine: req.engine, formats, extract: req.extract?.fields, wait_for: req.wait_for, timeout_ms: req.timeout_ms, json: req.json_options, ...(req.typed_options ? { typed: req.typed_options } : {}), ...(req.actions?.length ? { actions: req.actions } : {}), ...withIgnoredTags(contentOptionsOf(req), req.change_options) });
      } catch (err) {
        if (!tracker || stop.aborted || (err instanceof AppError && err.status < 500)) throw err;
        // Could not be read (time-out, connection): `unavailable`, the baseline stays.
        const change = await tracker.track({ ...unavailablePage(req.url, d.clock.now().toISOString()), engine: req.engine });
        await completeTask(d, tenantId, taskId, { url: req.url, final_url: req.url, status_code: 0, engine_used: req.engine === 'browser' ? 'browser' : 'http', change, error: { code: 'scrape_failed', message: (err as Error).message } });
        return;
      }
      if (tracker && (page.skipped || page.blocked)) {
        // A challenge or a robots skip is `unavailable` (never a change); the baseline stays.
        const change = await tracker.track({ ...unavailablePage(req.url, page.fetched_at, page.status_code), engine: req.engine });
        await completeTask(d, tenantId, taskId, { url: page.url, final_url: page.final_url, status_code: page.status_code, engine_used: page.engine_used ?? (req.engine === 'browser' ? 'browser' : 'http'), change, ...(page.blocked ? { challenge: page.blocked } : { robots: 'disallowed' }) });
        return;
      }
      // final_url: the hop a redirect reached, when that hop was the one disallowed.
      if (page.skipped === 'robots') throw new AppError(422, 'robots_disallowed', `robots.txt of ${new URL(page.final_url).host} disallows ${page.final_url}${page.final_url === req.url ? '' : ` (redirected from ${req.url})`} for Gleaner's user agent`);
      if (page.blocked) throw new AppError(422, 'challenge_detected', `${req.url} answered with a ${page.blocked.kind} challenge (${page.blocked.reason}); Gleaner never solves challenges`);
      await addUsage(d.table, tenantId, 'pages', 1, d.clock.now());
      const { blocked: _b, skipped: _s, auto_reason: _a, fetched_at: _f, ...body } = page;
      // Kept before the answer is handed over, so a repeat right after it can be served (max_age).
      await keepScrapeAnswer(d, tenantId, task.request as never, body, page.fetched_at, profile);
      if (tracker) {
        const change = await tracker.track({ url: req.url, engine: req.engine, fetched_at: page.fetched_at, status_code: page.status_code, markdown: page.markdown ?? '', structured: structuredOf(page) });
        if (req.formats && !req.formats.includes('markdown')) delete body.markdown;
        await completeTask(d, tenantId, taskId, { ...body, change });
        return;
      }
      await completeTask(d, tenantId, taskId, body);
    } else if (task.kind === 'search') {
      // A governed search (core/search): provider, governance per result, concurrent scrapes.
      const res = await searchWith(d, tenant, w.guard, w.robots, engine, searchTaskSchema.parse(task.request), { requestId: taskId, surface: task.surface ?? 'api', signal: stop });
      if (stop.aborted) throw new Error('stopped');
      await completeTask(d, tenantId, taskId, res);
    } else if (task.kind === 'studio.preview') {
      // Studio's page preview: the runbook path (same governance), then a screenshot and boxes.
      const res = await previewPage(engine, tenant.target_policy, previewRequestSchema.parse(task.request), stop);
      if (stop.aborted) throw new Error('stopped');
      await addUsage(d.table, tenantId, 'pages', res.pages_done, d.clock.now()); // what it fetched (issue 37 finding 9)
      if ('failed' in res) {
        if (await refuseBusy()) return;
        const e = res.error ?? { code: 'preview_failed', message: `The page could not be shown (${res.status})` };
        // The same codes as a scrape: 400 for a forbidden or unauthorized target, 422 for robots,
        // a challenge or a step that failed on the page.
        const status = /^target_/.test(e.code) || e.code === 'invalid_request' ? 400 : 422;
        await failTask(d, tenantId, taskId, { code: e.code === 'challenge' ? 'challenge_detected' : e.code, message: e.message, status });
      } else await completeTask(d, tenantId, taskId, res);
    } else {
      const req = task.request as { runbook_id?: string; runbook?: unknown; input: Record<string, unknown> };
      const rb = req.runbook_id ? await getRunbook(d.table, tenantId, req.runbook_id) : runbookBodySchema.parse(req.runbook);
      const res = await executeRunbook(rb.steps, { engine, policy: tenant.target_policy, input: req.input, resolveSecret: (n) => resolveTenantSecret(d, tenantId, n), signal: stop, redactor });
      if (stop.aborted) throw new Error('stopped');
      if (res.status === 'failed' && res.pages_done === 0 && (await refuseBusy())) return;
      await addUsage(d.table, tenantId, 'pages', res.pages_done, d.clock.now());
      await completeTask(d, tenantId, taskId, redactor.deep({ ...res, stats: engine.stats() }));
    }
  } catch (e) {
    if (await refuseBusy()) return;
    if (stop.aborted) await failTask(d, tenantId, taskId, { code: 'timed_out', message: `The ${TASK_WORDS[task.kind]} did not finish within ${Math.round(budgetMs / 1000)} s; its browser was closed`, status: 504 });
    else if (e instanceof AppError) {
      // Field details (action_failed: `actions.<index>` and the reason) travel with the error.
      const details = Array.isArray(e.details) ? redactor.deep(e.details) : undefined;
      const retryAfter = e.headers?.['retry-after'];
      await failTask(d, tenantId, taskId, { code: e.code, message: redactor.text(e.message), status: e.status, ...(details ? { details } : {}), ...(retryAfter ? { retry_after: retryAfter } : {}) });
    }
    else if (e instanceof z.ZodError) await failTask(d, tenantId, taskId, { code: 'invalid_request', message: e.message, status: 400 });
    else await failTask(d, tenantId, taskId, { code: 'scrape_failed', message: redactor.text((e as Error).message ?? 'The scrape failed'), status: 502 });
  } finally {
    stop.removeEventListener('abort', onStop);
    await engine.close().catch(() => undefined);
    await hostGate?.close().catch(() => undefined);
  }
}
