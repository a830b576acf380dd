import { log } from '../log.js';
import type { Deps } from '../../runtime.js';
import type { RunRecord } from './run-record.js';

/**
 * Announce that a run reached its terminal status: the deliveries worker sends run.completed
 * (and, for a run job's run, records the job's last run and sends job.completed). Sent once per
 * run by whichever transition ended it: the attempt that finished it, or a cancel that ended it
 * while still queued. A failed send is logged, never thrown: the run's own record is already final.
 */
export async function announceRunEnded(d: Deps, run: RunRecord): Promise<void> {
  await d.queue.send('deliveries', {
    kind: 'run.completed', tenant_id: run.tenant_id, run_id: run.id, status: run.status, completed_at: run.finished_at ?? d.clock.now().toISOString(),
    webhook_url: run.webhook_url, ...(run.job_id ? { job_id: run.job_id } : {}),
  }).catch((err) => log.error('run.completed event failed', { err, run_id: run.id }));
}
