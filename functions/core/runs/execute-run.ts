import { keys } from '../table-keys.js';
import { AppError, NonRetryableError, isRetryable } from '../errors.js';
import { log } from '../log.js';
import { createEngine, type Engine } from '../engine/pipeline.js';
import { HostGate } from '../governance/politeness.js';
import { requireTenant } from '../tenancy/tenants.js';
import { addUsage, getUsage } from '../limits/usage.js';
import { encounterRecorder, getCaptchaPolicy } from '../captcha/captcha.js';
import { findScraper } from './find-scraper.js';
import { getRun } from './run-reads.js';
import { announceRunEnded } from './run-ended.js';
import { ItemWriter } from './run-items.js';
import { RawLogWriter } from './raw-log.js';
import { runRecordSchema, TERMINAL, type RunRecord, type RunStatus } from './run-record.js';
import { resolveTenantSecret } from './tenant-secrets.js';
import { shutdownSignal } from './shutdown.js';
import { startCrawl } from '../crawl/crawl-start.js';
import { SecretRedactor } from '../scrapers/secret-redactor.js';
import type { EgressGuard } from '../governance/egress-guard.js';
import type { RobotsPolicy } from '../governance/robots.js';
import type { BrowserSession } from '../engine/fetch-browser.js';
import type { RenderProfile } from '../../ports/browser.js';
import { resolveProfile } from '../profiles/browser-profiles.js';
import type { ScraperOutcome } from '../scrapers/types.js';
import type { Deps } from '../../runtime.js';
import { createJsonExtractor } from '../extraction/model-extractor.js';
import { markForeground } from '../limits/foreground.js';
import { ChangeTracker } from '../changes/change-tracker.js';
import { wantsChanges, type ChangeOptions } from '../changes/change-options.js';
import { tenantAnswerCache } from '../freshness/page-cache.js';
import { runSearchHook } from '../search/search-worker.js';
import { checkTargetPolicy } from '../governance/target-policy.js';

export interface RunWorkerDeps {
  deps: Deps;
  guard: EgressGuard;
  /** Starts the run's one browser (behind its egress proxy), rendering with the profile if given. */
  startBrowser: (guard: EgressGuard, profile?: RenderProfile, signal?: AbortSignal) => Promise<BrowserSession>;
  /** robots.txt rules, cached per origin for the worker's lifetime (at most 24 h), shared by its runs. */
  robots: RobotsPolicy;
  /** Per-host politeness shared by all workers through the table. */
  politeness?: { maxConcurrent: number; minDelayMs: number };
}

const PROGRESS_EVERY_MS = 500;
const CANCEL_POLL_MS = 1000;
/** After the run's signal is aborted, how long the scraper gets to return before it is abandoned. */
export const STOP_GRACE_MS = 5_000;

/** Why a run's signal was aborted. */
type AbortCause = 'cancelled' | 'max_runtime' | 'shutdown';

/** The service is shutting down: the run stays `running` and its message is retried by the next process. */
class ShuttingDown extends Error {
  constructor() {
    super('The service shut down during the run; it is re-run on the next start');
    this.name = 'ShuttingDown';
  }
}

/**
 * Run one scrape run: claim it (a new attempt), build its engine, run the scraper with limits
 * and cancellation, store items in pages, keep progress and stats current, and finish with a
 * status and a reason. A retry (new attempt) starts over and rewrites only its own item pages.
 */
export async function executeRun(w: RunWorkerDeps, tenantId: string, runId: string, signal?: AbortSignal): Promise<RunRecord> {
  // Other tenants' crawls on this process yield to it while it runs (core/limits/foreground.ts).
  const end = markForeground(`run:${runId}`, tenantId);
  try {
    return await runToEnd(w, tenantId, runId, signal);
  } finally {
    end();
  }
}

async function runToEnd(w: RunWorkerDeps, tenantId: string, runId: string, signal?: AbortSignal): Promise<RunRecord> {
  const d = w.deps;
  const key = keys.record(tenantId, 'RUN', runId);
  let run = await getRun(d, tenantId, runId);
  if (TERMINAL.includes(run.status)) return run;
  const now = () => d.clock.now();
  if (run.cancel_requested) return finish(d, run, 'cancelled', 'cancelled', null);

  const attempt = run.attempt + 1;
  try {
    run = runRecordSchema.parse(await d.table.update(key, {
      set: {
        status: 'running', started_at: run.started_at ?? now().toISOString(), attempt, item_pages: 0, crawl: run.scraper_id === 'site-crawl',
        progress: { pages_done: 0, pages_total: null, items: 0 }, stats: { requests: 0, bytes: 0, blocked_requests: 0, robots_skipped: 0 }, engines_used: {},
      },
      condition: { expression: 'attempt = :a AND #s IN (:q, :r)', names: { '#s': 'status' }, values: { ':a': run.attempt, ':q': 'queued', ':r': 'running' } },
    }));
  } catch (e) {
    if ((e as Error).name === 'ConditionFailedError') return getRun(d, tenantId, runId); // another attempt owns it
    throw e;
  }

  // site-crawl runs as a distributed crawl: the start queues the first slice and returns; the
  // runs workers share the rest through the queue and the table (core/crawl).
  if (run.scraper_id === 'site-crawl') {
    try {
      await startCrawl(d, run);
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return finish(d, run, 'failed', 'error', { code: e.code, message: e.message }, attempt);
      throw e;
    }
    return getRun(d, tenantId, runId);
  }

  const tenant = await requireTenant(d.table, tenantId);
  const { on_challenge } = await getCaptchaPolicy(d.table, tenantId);
  // Secret values a runbook fills are masked wherever the run writes: items, step errors, raw log.
  // Every write of the run goes through `mask`: raw log entries (url, final_url, reason), items
  // (and so exports), and the error the run record and its webhook carry (see `end`).
  const redactor = new SecretRedactor();
  const mask = <T>(v: T): T => redactor.deep(v);
  const scraper = await findScraper(d.table, tenantId, run.scraper_id, tenant.target_policy, (name) => resolveTenantSecret(d, tenantId, name), redactor);
  const profile = await resolveProfile(d.table, tenantId, run.browser_profile ?? undefined);
  const rawLog = new RawLogWriter(d.table, d.blobs, tenantId, runId, attempt, undefined, mask);
  const engines: Record<string, number> = {};
  const runStop = new AbortController();
  // Change tracking (formats includes "changes"): the scraper compares each page it reads.
  const input = run.input as { formats?: string[]; change_options?: ChangeOptions };
  const changes = wantsChanges(input) ? new ChangeTracker(d, { tenantId, options: input.change_options, runId, jobId: run.job_id ?? null, ...(run.scraper_id === 'web-search' ? { announceNew: true } : {}) }) : undefined;
  const engine: Engine = createEngine({
    owner: tenantId,
    guard: w.guard,
    robots: w.robots,
    gate: w.politeness ? new HostGate(d.table, { ...w.politeness, tenant: tenantId }) : undefined,
    browser: (signal) => w.startBrowser(w.guard, profile, signal),
    policy: tenant.target_policy,
    challengePolicy: on_challenge,
    userAgent: d.config.userAgent,
    log: (e) => {
      rawLog.add(e);
      if (e.engine && e.decision === 'fetched') engines[e.engine] = (engines[e.engine] ?? 0) + 1;
    },
    onChallenge: encounterRecorder(d.table, tenantId, runId, on_challenge, now),
    extractJson: createJsonExtractor(d, { tenant, requestId: runId, surface: 'api', signal: runStop.signal }),
    // page-content's write actions that name a secret (the run's creator held secrets:use).
    resolveSecret: (name) => resolveTenantSecret(d, tenantId, name),
    // The run's one redactor: a secret a write action typed is masked in the raw log, items,
    // the model's input and answer, change snapshots and the run's error (issue 37 finding 3).
    redactor,
  });

  // The run's own signal, aborted by whichever comes first: its max_runtime, a cancel request
  // (polled every second, not only between pages), the worker's deadline, or shutdown. On abort
  // the browser is closed at once, so a runbook stuck in a long wait ends within seconds.
  let abortCause: AbortCause | null = null;
  const abort = (cause: AbortCause) => {
    if (runStop.signal.aborted) return;
    abortCause = cause;
    runStop.abort(new Error(cause));
    void engine.close().catch(() => undefined);
  };
  const startedAt = Date.now();
  const runtimeTimer = setTimeout(() => abort('max_runtime'), Math.max(0, run.limits.max_runtime_seconds * 1000));
  const cancelTimer = setInterval(() => {
    d.table.get(key, { consistent: true }).then((r) => {
      if (r?.cancel_requested) abort('cancelled');
    }).catch(() => undefined);
  }, CANCEL_POLL_MS);
  const onWorkerAbort = () => abort('max_runtime');
  const down = shutdownSignal();
  const onShutdown = () => abort('shutdown');
  signal?.addEventListener('abort', onWorkerAbort, { once: true });
  down.addEventListener('abort', onShutdown, { once: true });
  if (signal?.aborted) onWorkerAbort();
  if (down.aborted) onShutdown();

  // Limits and cancellation, checked by the scraper between pages.
  const usage = await getUsage(d.table, tenantId, now());
  const quotaLeft = tenant.limits.monthly_pages == null ? Infinity : tenant.limits.monthly_pages - usage.pages;
  let progress = { pages_done: 0, pages_total: null as number | null };
  // Pages started, counted when the scraper asks for them (scrapers fetch concurrently, so
  // progress alone would let a few more through); robots skips give their slot back.
  let started = 0;
  const limited: Engine = Object.create(engine);
  limited.scrapePage = async (url, opts) => {
    started++;
    const page = await engine.scrapePage(url, opts);
    if (page.skipped) started--;
    return page;
  };
  let stopReason: string | null = null;
  let cancelled = false;
  let lastCancelPoll = 0;
  const pollCancel = () => {
    if (Date.now() - lastCancelPoll < CANCEL_POLL_MS) return;
    lastCancelPoll = Date.now();
    d.table.get(key, { consistent: true }).then((r) => {
      if (r?.cancel_requested) cancelled = true;
    }).catch(() => undefined);
  };
  const shouldStop = () => {
    pollCancel();
    if (abortCause === 'cancelled') stopReason = 'cancelled';
    else if (abortCause) stopReason = 'max_runtime';
    else if (signal?.aborted) stopReason = 'max_runtime';
    else if (cancelled) stopReason = 'cancelled';
    else if (Date.now() - startedAt > run.limits.max_runtime_seconds * 1000) stopReason = 'max_runtime';
    else if (Math.max(started, progress.pages_done) >= run.limits.max_pages) stopReason = 'max_pages';
    else if (engine.stats().bytes >= run.limits.max_bytes) stopReason = 'max_bytes';
    else if (Math.max(started, progress.pages_done) >= quotaLeft) stopReason = 'quota';
    return stopReason !== null;
  };

  let lastPersist = 0;
  const persist = async (force = false) => {
    if (!force && Date.now() - lastPersist < PROGRESS_EVERY_MS) return;
    lastPersist = Date.now();
    const s = engine.stats();
    await d.table.update(key, {
      set: { progress: { ...progress, items: items.total }, stats: { requests: s.requests, bytes: s.bytes, blocked_requests: s.blocked_requests, robots_skipped: s.robots_skipped, ...(changes ? { changes: changes.counts } : {}) }, engines_used: engines },
      condition: { expression: 'attempt = :a', values: { ':a': attempt } },
    }).catch((e) => {
      if ((e as Error).name !== 'ConditionFailedError') throw e;
    });
  };
  const items = new ItemWriter(d.blobs, tenantId, runId, attempt, async (pages, total) => {
    await d.table.update(key, { set: { item_pages: pages, progress: { ...progress, items: total } }, condition: { expression: 'attempt = :a', values: { ':a': attempt } } });
  }, mask);

  let outcome: ScraperOutcome | undefined;
  let failure: unknown;
  // Once the run is over (or abandoned), a scraper still unwinding may not add items.
  let over = false;
  try {
    const running = scraper.run(run.input, {
      engine: limited,
      emit: async (item) => {
        if (!over) await items.add(item);
      },
      shouldStop,
      signal: runStop.signal,
      ...(changes ? { changes } : {}),
      // A stored answer is served only to what the tenant's policy and robots.txt admit now.
      answers: tenantAnswerCache(d, tenantId, {
        profile,
        admit: async (url) => {
          checkTargetPolicy((await requireTenant(d.table, tenantId, { consistent: true })).target_policy, new URL(url));
          return (await w.robots.check(url)).allowed;
        },
      }),
      ...(run.scraper_id === 'web-search' ? { search: runSearchHook(d, tenant, w.guard, w.robots, limited, { run_id: runId, job_id: run.job_id ?? null }, runStop.signal) } : {}),
      progress: (p) => {
        progress = p;
        void persist().catch((err) => log.warn('progress update failed', { err }));
      },
    });
    running.catch(() => undefined);
    // A scraper that does not return within the grace after an abort is abandoned: the run ends anyway.
    const abandoned = new Promise<undefined>((resolve) => {
      const onStop = () => setTimeout(() => resolve(undefined), STOP_GRACE_MS).unref();
      if (runStop.signal.aborted) onStop();
      else runStop.signal.addEventListener('abort', onStop, { once: true });
    });
    outcome = await Promise.race([running, abandoned]);
  } catch (e) {
    failure = e;
  } finally {
    over = true;
    clearTimeout(runtimeTimer);
    clearInterval(cancelTimer);
    signal?.removeEventListener('abort', onWorkerAbort);
    down.removeEventListener('abort', onShutdown);
    await engine.close().catch(() => undefined);
    await items.flush();
    await rawLog.flush().catch((err) => log.error('raw log flush failed', { err }));
  }
  // Shutdown: leave the run running; the message stays in the queue and the next process re-runs it.
  if (abortCause === 'shutdown') throw new ShuttingDown();
  const stats = engine.stats();
  await persist(true);
  const billable = Math.max(0, (outcome?.pages_done ?? progress.pages_done) - stats.challenges);
  await addUsage(d.table, tenantId, 'pages', billable, now());

  // The run record's error (and the run.completed webhook, built from the record) is masked too.
  const end = async (status: RunStatus, reason: string, error: { code: string; message: string } | null, at: number) => finish(d, await getRun(d, tenantId, runId), status, reason, mask(error), at);
  // Cancel and time limits win over whatever the interrupted scraper threw (a closed tab, a stopped step).
  if (abortCause === 'cancelled') return end('cancelled', 'cancelled', null, attempt);
  if (abortCause === 'max_runtime')
    return end('timed_out', 'max_runtime', { code: 'timed_out', message: `The run reached its runtime limit of ${run.limits.max_runtime_seconds} s` }, attempt);
  if (failure) {
    const code = (failure as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA')
      return end('failed', 'error', { code: 'target_unresolvable', message: (failure as Error).message }, attempt);
    if (isRetryable(failure) && !(failure instanceof AppError)) throw failure; // the queue retries (a new attempt)
    const err = failure instanceof AppError ? { code: failure.code, message: failure.message } : { code: (failure as NonRetryableError).code ?? 'failed', message: (failure as Error).message };
    return end('failed', 'error', err, attempt);
  }
  const stop = engine.stopReason();
  if (outcome?.stopped === 'challenge' || stop)
    return end('blocked', 'challenge', { code: 'challenge', message: `Stopped at a ${stop?.kind ?? 'challenge'} on ${stop?.url ?? 'a page'}; challenges are never solved` }, attempt);
  // A limit only counts as the reason when the scraper actually stopped for it.
  if (outcome?.stopped !== 'stopped') stopReason = null;
  if (stopReason === 'cancelled') return end('cancelled', 'cancelled', null, attempt);
  if (stopReason === 'max_runtime')
    return end('timed_out', 'max_runtime', { code: 'timed_out', message: `The run reached its runtime limit of ${run.limits.max_runtime_seconds} s` }, attempt);
  return end('succeeded', stopReason ?? 'completed', null, attempt);
}

/** Terminal transition (only by the attempt that owns the run), then the run.completed event. */
export async function finish(d: Deps, run: RunRecord, status: RunStatus, stopReason: string, error: { code: string; message: string } | null, attempt = run.attempt): Promise<RunRecord> {
  let updated: RunRecord;
  try {
    updated = runRecordSchema.parse(await d.table.update(keys.record(run.tenant_id, 'RUN', run.id), {
      set: { status, stop_reason: stopReason, error, finished_at: d.clock.now().toISOString() },
      condition: { expression: 'attempt = :a AND NOT #s IN (:s1, :s2, :s3, :s4, :s5)', names: { '#s': 'status' }, values: { ':a': attempt, ':s1': 'succeeded', ':s2': 'failed', ':s3': 'timed_out', ':s4': 'cancelled', ':s5': 'blocked' } },
    }));
  } catch (e) {
    if ((e as Error).name === 'ConditionFailedError') return getRun(d, run.tenant_id, run.id);
    throw e;
  }
  await announceRunEnded(d, updated);
  return updated;
}

/** Dead-lettered: the run could not be finished by any attempt. */
export async function failRun(d: Deps, tenantId: string, runId: string, reason: string): Promise<void> {
  const run = await getRun(d, tenantId, runId).catch(() => undefined);
  if (!run || TERMINAL.includes(run.status)) return;
  await finish(d, run, 'failed', 'error', { code: 'worker_failed', message: `The run failed after retries: ${reason}` });
}
