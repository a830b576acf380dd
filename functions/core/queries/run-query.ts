import { getQuery, transitionQuery, type QueryRecord } from './queries.js';
import { resolveTimeWindow, type TimeWindowInput } from './time-window.js';
import { summarize } from './summary.js';
import { runSources } from '../sources/run-sources.js';
import { connectors } from '../sources/registry.js';
import { getSourceCredentials } from '../sources/credentials.js';
import { tableLedger } from '../sources/source-ledger.js';
import { putResultFile, resultKeyFor } from '../storage/result-files.js';
import { addUsage } from '../limits/usage.js';
import type { Planner } from './planner.js';
import type { FetchFn } from '../sources/types.js';
import type { Deps } from '../../runtime.js';
import type { SourceName } from '../../config.js';

export interface RunQueryDeps {
  deps: Deps;
  planner: Planner;
  fetch: FetchFn;
  /** Called after the query reaches a terminal state (job.completed events, bucket sync). */
  onFinished?: (q: QueryRecord) => Promise<void>;
  sourceTimeoutMs?: number;
}

/**
 * Run one query end to end: plan, ask every source concurrently, merge, summarise, store the
 * result file, mark completed (or failed when no source answered). Safe to run again for the
 * same message: a finished query is left alone, and the result file is overwritten in place.
 */
export async function runQuery(r: RunQueryDeps, tenantId: string, queryId: string, signal?: AbortSignal): Promise<QueryRecord> {
  const { table, blobs, secrets, config, clock } = r.deps;
  const existing = await getQuery(table, tenantId, queryId);
  if (existing.status === 'completed' || existing.status === 'failed') return existing;
  const started = (await transitionQuery(table, tenantId, queryId, { status: 'running', started_at: existing.started_at ?? clock.now().toISOString() }, ['queued', 'running'])) ?? existing;

  const now = clock.now();
  const window = resolveTimeWindow(started.time_window as TimeWindowInput | undefined, started.job_run_at ? new Date(started.job_run_at) : new Date(started.created_at));
  const plan = await r.planner.plan({ prompt: started.prompt, now, window: started.time_window ? window : undefined });
  const outcome = await runSources({
    sources: started.sources as SourceName[],
    plan,
    limit: started.limit,
    credentialsFor: (s) => getSourceCredentials(table, secrets, tenantId, s),
    baseUrlFor: (s) => config.sourceBaseUrls[s] ?? connectors[s].defaultBaseUrl,
    fetch: r.fetch,
    timeoutMs: r.sourceTimeoutMs,
    signal,
    tenantId,
    ledger: tableLedger(table, tenantId),
    graphApiVersion: config.graphApiVersion,
  });
  const answered = Object.values(outcome.by_source).some((s) => s.status === 'ok');
  const finishedAt = clock.now().toISOString();
  let final: QueryRecord | undefined;
  if (!answered) {
    const reasons = Object.entries(outcome.by_source).map(([s, v]) => `${s}: ${v.error ?? v.status}`).join('; ');
    final = await transitionQuery(table, tenantId, queryId, { status: 'failed', completed_at: finishedAt, error: `No source answered. ${reasons}` }, ['running']);
  } else {
    const results = {
      plan,
      items: outcome.items,
      by_source: outcome.by_source,
      summary: summarize(outcome.items, outcome.by_source),
    };
    const key = resultKeyFor(queryId, started.job_run_at ? new Date(started.job_run_at) : null);
    await putResultFile(table, blobs, tenantId, { key, query_id: queryId, job_id: started.job_id, created_at: finishedAt }, results);
    await addUsage(table, tenantId, 'results', outcome.items.length, clock.now());
    final = await transitionQuery(table, tenantId, queryId, { status: 'completed', completed_at: finishedAt, result_key: key }, ['running']);
  }
  final ??= await getQuery(table, tenantId, queryId);
  if (r.onFinished) await r.onFinished(final);
  return final;
}

/** Dead-lettered: the worker could not finish it; record why so the caller sees `failed`. */
export async function failQuery(deps: Deps, tenantId: string, queryId: string, reason: string): Promise<void> {
  const q = await transitionQuery(deps.table, tenantId, queryId, { status: 'failed', completed_at: deps.clock.now().toISOString(), error: `The query could not be run: ${reason}` }, ['queued', 'running']);
  void q;
}
