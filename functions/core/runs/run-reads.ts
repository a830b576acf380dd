import { keys } from '../table-keys.js';
import { conflict, notFound } from '../errors.js';
import { runRecordSchema, TERMINAL, type RunRecord, type RunStatus } from './run-record.js';
import type { Deps } from '../../runtime.js';
import { listFiltered } from '../filtered-list.js';
import { announceRunEnded } from './run-ended.js';

// Reading, listing and cancelling runs, apart from creating them (runs.ts, which needs every
// scraper spec, the egress guard and the governance checks): the functions that only read runs
// bundle none of that, which kept cheerio, re2js and the scraper schemas out of their init.

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

export function listRuns(d: Deps, tenantId: string, q: { limit: number; cursor?: string; status?: RunStatus; job_id?: string }) {
  return listFiltered(d.table, { pk: keys.tenantPk(tenantId), skBeginsWith: 'RUN#', descending: true }, q, (it) => {
    const r = runRecordSchema.parse(it);
    return (!q.status || r.status === q.status) && (!q.job_id || r.job_id === q.job_id) ? r : undefined;
  });
}

/** Cancel: a queued run ends at once; a running one stops before its next page. 409 when finished. */
export async function cancelRun(d: Deps, tenantId: string, runId: string, now: Date): Promise<RunRecord> {
  const key = keys.record(tenantId, 'RUN', runId);
  const run = await getRun(d, tenantId, runId);
  if (TERMINAL.includes(run.status)) throw conflict(`The run already finished with status ${run.status}`);
  try {
    const r = runRecordSchema.parse(await d.table.update(key, {
      set: run.status === 'queued'
        ? { status: 'cancelled', cancel_requested: true, finished_at: now.toISOString(), stop_reason: 'cancelled' }
        : { cancel_requested: true },
      condition: { expression: '#s = :s', names: { '#s': 'status' }, values: { ':s': run.status } },
    }));
    // Ended here, never by a worker (which skips a finished run): announce it as a worker would.
    if (r.status === 'cancelled') await announceRunEnded(d, r);
    return r;
  } catch (e) {
    if ((e as Error).name === 'ConditionFailedError') return cancelRun(d, tenantId, runId, now);
    throw e;
  }
}
