import { randomBytes } from 'node:crypto';
import { AppError } from '../errors.js';
import { log } from '../log.js';
import { keys } from '../table-keys.js';
import { createEngine } from '../engine/pipeline.js';
import { createJsonExtractor } from '../extraction/model-extractor.js';
import { runGate } from '../governance/host-gates.js';
import { addUsage } from '../limits/usage.js';
import { encounterRecorder } from '../captcha/captcha.js';
import { siteCrawl, type SiteCrawlInput } from '../scrapers/site-crawl.js';
import { normalizeUrl } from '../scrapers/normalize-url.js';
import { getRun } from '../runs/run-reads.js';
import { RawLogWriter } from '../runs/raw-log.js';
import { TERMINAL, type RunRecord } from '../runs/run-record.js';
import { finish, type RunWorkerDeps } from '../runs/execute-run.js';
import type * as z from 'zod';
import type { crawlSliceMessage } from '../queue-messages.js';
import { processSlice } from './crawl-slice.js';
import { frontierOf, sender } from './crawl-start.js';
import { crawlBatchKey, crawlItemKey, crawlProgress } from './crawl-results.js';
import { sliceContext } from './slice-context.js';
import type { CrawlFrontier, FrontierCounters } from './frontier.js';
import { TenantShare } from './tenant-share.js';
import { othersInForeground, yieldToForeground } from '../limits/foreground.js';
import { ChangeTracker } from '../changes/change-tracker.js';
import { crawlScope, changeStats, countersOf } from '../changes/crawl-changes.js';
import { wantsChanges } from '../changes/change-options.js';

/** A slice of a distributed crawl on the runs queue (see queue-messages.ts `crawl.slice`). */
export type CrawlSliceMessage = z.infer<typeof crawlSliceMessage>;

/**
 * The run's progress is rewritten at most this often per run by one process (slices of a crawl
 * finish several times a second), and always by the slice that ends the crawl.
 */
const PROGRESS_EVERY_MS = 1_000;
const progressWritten = new Map<string, number>();
function progressDue(runKey: string, final: boolean): boolean {
  const now = Date.now();
  if (!final && now - (progressWritten.get(runKey) ?? 0) < PROGRESS_EVERY_MS) return false;
  if (progressWritten.size > 1_000) progressWritten.clear();
  progressWritten.set(runKey, now);
  return true;
}

/**
 * The crawl's counters as a slice on this process last left them, for at most
 * {@link COUNTERS_TTL_MS}: a slice starting right after another one on the same process needs them
 * only for its stop checks (quota, bytes, the start time), which tolerate a second's lag, so the
 * read is saved. Read from the table when none is that recent.
 */
const COUNTERS_TTL_MS = 1_000;
const counterCache = new Map<string, { at: number; counters: FrontierCounters }>();
async function recentCounters(f: CrawlFrontier): Promise<FrontierCounters | undefined> {
  const hit = counterCache.get(f.runId);
  if (hit && Date.now() - hit.at < COUNTERS_TTL_MS) return hit.counters;
  if (counterCache.size > 1_000) counterCache.clear();
  const c = await f.counters(true);
  if (c) counterCache.set(f.runId, { at: Date.now(), counters: c });
  return c;
}

/**
 * The run as this process read it within {@link COUNTERS_TTL_MS}: slices of one crawl reach a
 * worker several times a second, and a cancel or a finish reaches them within the same second
 * (each slice also polls the run for a cancel every second while it works).
 */
const runCache = new Map<string, { at: number; run: Promise<RunRecord> }>();
function recentRun(d: RunWorkerDeps['deps'], tenantId: string, runId: string): Promise<RunRecord> {
  const k = `${tenantId}/${runId}`;
  const hit = runCache.get(k);
  if (hit && Date.now() - hit.at < COUNTERS_TTL_MS) return hit.run;
  if (runCache.size > 1_000) runCache.clear();
  const run = getRun(d, tenantId, runId);
  runCache.set(k, { at: Date.now(), run });
  run.catch(() => runCache.get(k)?.run === run && runCache.delete(k));
  return run;
}

/** Why a crawl stops early, checked before every page. */
type StopCause = 'cancelled' | 'max_runtime' | 'quota' | 'max_bytes' | 'challenge';

/**
 * Work one slice of a crawl run inside a runs worker: same engine and governance as any run
 * (target policy, egress guard, robots, politeness shared through the table, challenge policy),
 * with this tenant's raised limits on hosts it verified. Keeps the run's progress current and
 * finishes the run when the crawl is over or stopped.
 */
export async function executeCrawlSlice(w: RunWorkerDeps, m: CrawlSliceMessage, meta: SliceMeta): Promise<void> {
  const d = w.deps;
  const run = await recentRun(d, m.tenant_id, m.run_id);
  // A finished run, or a slice of an attempt that is no longer the run's: nothing to do.
  if (TERMINAL.includes(run.status) || run.attempt !== m.attempt) return;
  const input = siteCrawl.inputSchema.parse(run.input) as SiteCrawlInput;
  // The tenant's share of the workers: at its cap, the slice goes back to the queue for a moment
  // (sent again before this message is acknowledged, so a crash in between loses nothing).
  // The slot is leased briefly and renewed while the slice runs, so a worker that dies frees
  // its tenant's slot within a lease, not after a whole invocation's timeout.
  const share = new TenantShare(d.table, run.tenant_id, d.config.tenantCrawlPages, input.concurrency);
  const held = share.unpark(Date.now(), SHARE_LEASE_MS / 2);
  const holder = held?.holder ?? meta.holder;
  let leaseUntil = held?.leaseUntil ?? Date.now() + SHARE_LEASE_MS;
  const slot = held?.slot ?? (await share.take(meta.holder, Date.now(), SHARE_LEASE_MS));
  if (!slot) {
    await sender(d, run, input.concurrency)({ slice_id: m.slice_id, urls: m.urls }, { delaySeconds: 2 + Math.floor(Math.random() * 3) });
    return;
  }
  const renew = setInterval(() => {
    const until = Date.now() + SHARE_LEASE_MS;
    share.renew(slot, holder, Date.now(), SHARE_LEASE_MS).then((ok) => {
      if (ok) leaseUntil = until;
    }).catch(() => undefined);
  }, SHARE_LEASE_MS / 3);
  // The share counts pages in flight: its slot goes once the slice has none left (its tail only
  // writes), kept for this tenant's next slice on this process for a moment (TenantShare.park),
  // or given back when the slice failed.
  let given: Promise<void> | undefined;
  const giveBack = (parkable: boolean) =>
    (given ??= (async () => {
      clearInterval(renew);
      if (parkable && leaseUntil - Date.now() > SHARE_LEASE_MS / 2) share.park(slot, holder, leaseUntil);
      else await share.release(slot, holder).catch((err) => log.warn('tenant share slot not released (its lease frees it)', { err }));
    })());
  const pagesDone = () => {
    void giveBack(true);
    meta.released?.();
  };
  try {
    await workSlice(w, m, { ...meta, released: pagesDone }, run, input);
  } catch (err) {
    await giveBack(false);
    throw err;
  }
  await giveBack(true);
}

/** Lease of a tenant-share slot; renewed every third of it while the slice runs. */
const SHARE_LEASE_MS = 30_000;

/** `released`: called once the slice has no page in flight and will start none (see QueueReceiver.released). */
type SliceMeta = { deadline: number; signal?: AbortSignal; holder: string; receiveCount?: number; released?: () => void };

async function workSlice(w: RunWorkerDeps, m: CrawlSliceMessage, meta: SliceMeta, run: RunRecord, input: SiteCrawlInput): Promise<void> {
  const d = w.deps;
  const start = normalizeUrl(input.start_url)!;
  const f = frontierOf(d, run);
  const counters = await recentCounters(f);
  if (!counters) return; // never started (cannot happen: the start creates it before the first slice)
  // A spent budget is never given back: this slice's links then need no claim at all.
  f.noteCounters(counters);

  const host = new URL(start).host;
  const { tenant, onChallenge: on_challenge, profile, raised, pagesUsed } = await sliceContext(d.table, run, host, d.clock.now());
  const rawLog = new RawLogWriter(d.table, d.blobs, run.tenant_id, run.id, run.attempt, `s${m.urls[0]?.ord ?? 0}-${meta.holder.slice(-6)}`);
  // The slice holds up to `concurrency` slots of the crawl's host for its pages (two table writes
  // a slice, not two a page), shared fairly with other tenants waiting for the host.
  // Raised limits bind the verified host only (governance/host-gates.ts).
  const gate = runGate(d.table, w.politeness, raised ? { host, tenantId: run.tenant_id, concurrency: raised.concurrency, delayMs: raised.delay_ms } : null, { tenant: run.tenant_id, hold: { host, slots: input.concurrency }, yieldTo: () => othersInForeground(run.tenant_id) });
  const engine = createEngine({
    guard: w.guard,
    robots: w.robots,
    gate,
    owner: tenant.tenant_id,
    browser: (signal) => w.startBrowser(w.guard, profile, signal),
    policy: tenant.target_policy,
    challengePolicy: on_challenge,
    userAgent: d.config.userAgent,
    log: (e) => rawLog.add(e),
    onChallenge: encounterRecorder(d.table, run.tenant_id, run.id, on_challenge, () => d.clock.now()),
    extractJson: createJsonExtractor(d, { tenant, requestId: run.id, surface: 'api', signal: meta.signal }),
  });

  // Change tracking: pages compared per batch; the crawl's scope marks the pages it reaches.
  const changes = wantsChanges(input)
    ? new ChangeTracker(d, { tenantId: run.tenant_id, options: input.change_options, runId: run.id, jobId: run.job_id ?? null, crawl: { scope: crawlScope(start, input), runId: run.id } })
    : undefined;
  const quotaLeft = tenant.limits.monthly_pages == null ? Infinity : tenant.limits.monthly_pages - pagesUsed;
  const startedAt = Date.parse(run.started_at ?? counters.started_at);
  let cause: StopCause | null = null;
  let cancelChecked = Date.now(); // the run was just read
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

  /** The run's progress and request stats from the crawl's counters (at most every PROGRESS_EVERY_MS per process, always at the end). */
  async function writeProgress(c: FrontierCounters, final: boolean) {
    if (!progressDue(`${run.tenant_id}/${run.id}`, final)) return;
    await d.table.update(keys.record(run.tenant_id, 'RUN', run.id), {
      set: {
        progress: crawlProgress(c, d.clock.now()),
        stats: { requests: c.requests ?? 0, bytes: c.bytes ?? 0, blocked_requests: c.blocked_requests ?? 0, robots_skipped: c.robots_skipped ?? 0, ...(changes ? { changes: changeStats(c) } : {}) },
      },
      condition: { expression: 'attempt = :a', values: { ':a': run.attempt } },
    }).catch((e) => {
      if ((e as Error).name !== 'ConditionFailedError') throw e;
    });
  }

  // Independent of each other: at once. Run as soon as the slice has no page in flight (its
  // pages are done), before the queue is told: the next slice then finds the host's slots free
  // (a tail holding them could leave the slices after a crash without any until their leases end).
  let closing: Promise<unknown> | undefined;
  const closeAll = () =>
    (closing ??= Promise.all([
      engine.close().catch(() => undefined),
      gate?.close().catch((err) => log.warn('host gate slots not given back (their lease frees them)', { err })),
      rawLog.flush().catch((err) => log.error('raw log flush failed', { err })),
    ]));

  let outcome;
  try {
    outcome = await processSlice(
      {
        frontier: f,
        engine,
        input,
        send: sender(d, run, input.concurrency),
        putBlob: async (ord, item) => {
          const key = crawlItemKey(run.tenant_id, `${run.id}/a${run.attempt}`, ord);
          await d.blobs.put('results', key, JSON.stringify(item), 'application/json');
          return key;
        },
        putItems: async (first, items) => {
          const key = crawlBatchKey(run.tenant_id, `${run.id}/a${run.attempt}`, first, randomBytes(4).toString('hex'));
          await d.blobs.put('results', key, JSON.stringify(items), 'application/json');
          return key;
        },
        now: () => d.clock.now(),
        remainingMs: () => (meta.signal?.aborted ? 0 : meta.deadline - Date.now()),
        shouldStop,
        beforePage: () => yieldToForeground(run.tenant_id),
        // A long slice's stored pages count in the run's progress within about a second.
        onProgress: async (c) => {
          counterCache.set(f.runId, { at: Date.now(), counters: c });
          await writeProgress(c, false);
        },
        holder: meta.holder,
        pagesDone: () => void closeAll().then(() => meta.released?.()),
        ...(changes ? { changes } : {}),
        stats: () => {
          const s = engine.stats();
          return { requests: s.requests, bytes: s.bytes, blocked_requests: s.blocked_requests, robots_skipped: s.robots_skipped, ...(changes ? countersOf(changes.counts) : {}) };
        },
      },
      { slice_id: m.slice_id, urls: m.urls, redelivered: (meta.receiveCount ?? 1) > 1 },
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

  // Usage and the run's progress, from the counters as the finished slice left them.
  const s = engine.stats();
  const used = Math.max(0, outcome.fetched - s.robots_skipped - s.challenges);
  if (used) await addUsage(d.table, run.tenant_id, 'pages', used, d.clock.now());
  const after = outcome.counters;
  if (!after) return; // not worked here (finished before, or another worker holds it)
  // A complete crawl (every page it found visited) reports the scope's pages it no longer reaches as removed, once each.
  if (changes && outcome.crawlFinished && cause === null && after.admitted < after.max_pages && (await f.page(0))?.state !== 'failed') {
    const at = d.clock.now();
    const n = await changes.reportUnreached((removed, items) =>
      f.appendItems(removed.map((r) => ({ url: r.url, item: { url: r.url, fetched_at: at.toISOString(), status_code: 0, data: { change: r.view } } })), at, items, { changes_removed: removed.length }),
    );
    Object.assign(after, { done: after.done + n, changes_removed: Number((after as unknown as Record<string, number>).changes_removed ?? 0) + n });
  }
  counterCache.set(f.runId, { at: Date.now(), counters: after });
  await writeProgress(after, outcome.crawlFinished || cause !== null);

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
