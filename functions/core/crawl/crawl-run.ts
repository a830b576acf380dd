import { AppError } from '../errors.js';
import { log } from '../log.js';
import { keys } from '../table-keys.js';
import { createEngine } from '../engine/pipeline.js';
import { HostGate } from '../governance/politeness.js';
import { requireTenant } from '../tenancy/tenants.js';
import { addUsage, getUsage } from '../limits/usage.js';
import { getCaptchaPolicy, recordEncounter } from '../captcha/captcha.js';
import { resolveProfile } from '../profiles/browser-profiles.js';
import { siteCrawl, type SiteCrawlInput } from '../scrapers/site-crawl.js';
import { normalizeUrl } from '../scrapers/normalize-url.js';
import { getRun } from '../runs/run-reads.js';
import { RawLogWriter } from '../runs/raw-log.js';
import { TERMINAL } from '../runs/run-record.js';
import { finish, type RunWorkerDeps } from '../runs/execute-run.js';
import { hostLimitsFor } from '../domains/verified-domains.js';
import type { FrontierUrl } from './frontier.js';
import { processSlice } from './crawl-slice.js';
import { frontierOf, sender } from './crawl-start.js';
import { crawlItemKey, crawlProgress } from './crawl-results.js';

/** A slice of a distributed crawl on the runs queue (see queue-messages.ts `crawl.slice`). */
export interface CrawlSliceMessage {
  kind: 'crawl.slice';
  tenant_id: string;
  run_id: string;
  attempt: number;
  urls: FrontierUrl[];
}

/** Why a crawl stops early, checked before every page. */
type StopCause = 'cancelled' | 'max_runtime' | 'quota' | 'max_bytes' | 'challenge';

/**
 * Work one slice of a crawl run inside a runs worker: same engine and governance as any run
 * (target policy, egress guard, robots, politeness shared through the table, challenge policy),
 * with this tenant's raised limits on hosts it verified. Keeps the run's progress current and
 * finishes the run when the crawl is over or stopped.
 */
export async function executeCrawlSlice(w: RunWorkerDeps, m: CrawlSliceMessage, meta: { deadline: number; signal?: AbortSignal; holder: string }): Promise<void> {
  const d = w.deps;
  const run = await getRun(d, m.tenant_id, m.run_id);
  // A finished run, or a slice of an attempt that is no longer the run's: nothing to do.
  if (TERMINAL.includes(run.status) || run.attempt !== m.attempt) return;
  const input = siteCrawl.inputSchema.parse(run.input) as SiteCrawlInput;
  const start = normalizeUrl(input.start_url)!;
  const f = frontierOf(d, run);
  const counters = await f.counters(true);
  if (!counters) return; // never started (cannot happen: the start creates it before the first slice)

  const tenant = await requireTenant(d.table, run.tenant_id);
  const { on_challenge } = await getCaptchaPolicy(d.table, run.tenant_id);
  const profile = await resolveProfile(d.table, run.tenant_id, run.browser_profile ?? undefined);
  const host = new URL(start).host;
  const raised = await hostLimitsFor(d.table, run.tenant_id, host);
  const politeness = raised ? { maxConcurrent: raised.concurrency, minDelayMs: raised.delay_ms, ignoreCrawlDelay: true, tenantScope: run.tenant_id } : w.politeness;
  const rawLog = new RawLogWriter(d.table, d.blobs, run.tenant_id, run.id, run.attempt, `s${m.urls[0]?.ord ?? 0}-${meta.holder.slice(-6)}`);
  const engine = createEngine({
    guard: w.guard,
    robots: w.robots,
    gate: politeness ? new HostGate(d.table, politeness) : undefined,
    browser: () => w.startBrowser(w.guard, profile),
    policy: tenant.target_policy,
    challengePolicy: on_challenge,
    userAgent: d.config.userAgent,
    log: (e) => rawLog.add(e),
    onChallenge: (c) => {
      recordEncounter(d.table, run.tenant_id, {
        run_id: run.id, url: c.url, kind: c.kind as never, detected_at: d.clock.now().toISOString(), reason: c.reason,
        action: on_challenge === 'stop_run' ? 'stopped_run' : 'skipped_page',
      }).catch((err) => log.error('encounter record failed', { err }));
    },
  });

  const usage = await getUsage(d.table, run.tenant_id, d.clock.now());
  const quotaLeft = tenant.limits.monthly_pages == null ? Infinity : tenant.limits.monthly_pages - usage.pages;
  const startedAt = Date.parse(run.started_at ?? counters.started_at);
  let cause: StopCause | null = null;
  let cancelChecked = 0;
  let cancelRequested = false;
  const pollCancel = () => {
    if (Date.now() - cancelChecked < 1000) return;
    cancelChecked = Date.now();
    d.table.get(keys.record(run.tenant_id, 'RUN', run.id), { consistent: true }).then((r) => {
      if (r?.cancel_requested || (r && TERMINAL.includes(r.status as never))) cancelRequested = true;
    }).catch(() => undefined);
  };
  const shouldStop = () => {
    pollCancel();
    if (cause) return true;
    if (engine.stopReason()) cause = 'challenge';
    else if (cancelRequested || run.cancel_requested) cause = 'cancelled';
    else if (Date.now() - startedAt > run.limits.max_runtime_seconds * 1000) cause = 'max_runtime';
    else if (counters.done + counters.failed + engine.stats().requests >= quotaLeft) cause = 'quota';
    else if ((counters.bytes ?? 0) + engine.stats().bytes >= run.limits.max_bytes) cause = 'max_bytes';
    return cause !== null;
  };

  let outcome;
  try {
    outcome = await processSlice(
      {
        frontier: f,
        engine,
        input,
        send: sender(d, run),
        putBlob: async (ord, item) => {
          const key = crawlItemKey(run.tenant_id, `${run.id}/a${run.attempt}`, ord);
          await d.blobs.put('results', key, JSON.stringify(item), 'application/json');
          return key;
        },
        now: () => d.clock.now(),
        remainingMs: () => (meta.signal?.aborted ? 0 : meta.deadline - Date.now()),
        shouldStop,
        holder: meta.holder,
      },
      m.urls,
      start,
    );
  } catch (err) {
    await closeAll();
    if (err instanceof AppError && err.status < 500) {
      await finish(d, await getRun(d, run.tenant_id, run.id), 'failed', 'error', { code: err.code, message: err.message }, run.attempt);
      return;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') {
      await finish(d, await getRun(d, run.tenant_id, run.id), 'failed', 'error', { code: 'target_unresolvable', message: (err as Error).message }, run.attempt);
      return;
    }
    throw err; // the queue retries this slice (or dead-letters it when it is not retryable)
  }
  await closeAll();

  async function closeAll() {
    await engine.close().catch(() => undefined);
    await rawLog.flush().catch((err) => log.error('raw log flush failed', { err }));
  }

  // Counters, usage and the run's progress (one read of the shared counters per slice).
  const s = engine.stats();
  const after = await f.add({ requests: s.requests, bytes: s.bytes, blocked_requests: s.blocked_requests, robots_skipped: s.robots_skipped });
  await addUsage(d.table, run.tenant_id, 'pages', Math.max(0, outcome.fetched - s.robots_skipped - s.challenges), d.clock.now());
  const progress = crawlProgress(after, d.clock.now());
  await d.table.update(keys.record(run.tenant_id, 'RUN', run.id), {
    set: {
      progress,
      stats: { requests: after.requests ?? 0, bytes: after.bytes ?? 0, blocked_requests: after.blocked_requests ?? 0, robots_skipped: after.robots_skipped ?? 0 },
    },
    condition: { expression: 'attempt = :a', values: { ':a': run.attempt } },
  }).catch((e) => {
    if ((e as Error).name !== 'ConditionFailedError') throw e;
  });

  const latest = () => getRun(d, run.tenant_id, run.id);
  if (cause === 'challenge') {
    const stop = engine.stopReason();
    await finish(d, await latest(), 'blocked', 'challenge', { code: 'challenge', message: `Stopped at a ${stop?.kind ?? 'challenge'} on ${stop?.url ?? 'a page'}; challenges are never solved` }, run.attempt);
  } else if (cause === 'cancelled') await finish(d, await latest(), 'cancelled', 'cancelled', null, run.attempt);
  else if (cause === 'max_runtime')
    await finish(d, await latest(), 'timed_out', 'max_runtime', { code: 'timed_out', message: `The run reached its runtime limit of ${run.limits.max_runtime_seconds} s` }, run.attempt);
  else if (cause === 'quota' || cause === 'max_bytes') await finish(d, await latest(), 'succeeded', cause, null, run.attempt);
  else if (outcome.crawlFinished) {
    const startPage = await f.page(0);
    if (startPage?.state === 'failed') {
      await finish(d, await latest(), 'failed', 'error', { code: 'start_page_failed', message: startPage.error ?? 'The start page could not be fetched' }, run.attempt);
      return;
    }
    const reason = after.admitted >= after.max_pages ? 'max_pages' : 'completed';
    await finish(d, await latest(), 'succeeded', reason, null, run.attempt);
  }
}
