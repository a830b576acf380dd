import { defineWorker } from './worker-kit.js';
import { getQuery } from '../core/queries/queries.js';
import { getJob } from '../core/jobs/jobs.js';
import { fanOut } from '../core/webhooks/deliveries.js';
import { attemptDelivery } from '../core/webhooks/attempt-delivery.js';
import { jobCompletedPayload, jobRunCompletedPayload, runCompletedPayload } from '../core/webhooks/events.js';
import { recordRunEnded } from '../core/jobs/jobs.js';
import { getRun } from '../core/runs/run-reads.js';
import { TERMINAL } from '../core/runs/run-record.js';
import type { Deps } from '../runtime.js';
import { syncResult } from '../core/sync/bucket-sync.js';
import { getStorageSettings } from '../core/sync/settings.js';
import { deliverPageChanged } from '../core/changes/page-changed.js';

export const { worker, handler } = defineWorker('deliveries', {
  /**
   * A job run finished: deliver job.completed to the job's webhook_url and to every subscribed
   * endpoint, and queue the copy to the tenant's bucket when sync is on.
   */
  'job.completed': {
    timeoutMs: 30_000,
    async run(m, d) {
      const q = await getQuery(d.table, m.tenant_id, m.query_id);
      if (q.status !== 'completed' && q.status !== 'failed') throw new Error(`Query ${q.query_id} is ${q.status}, not finished yet`);
      const job = await getJob(d.table, m.tenant_id, m.job_id).catch(() => undefined); // deleted: registered endpoints only
      await fanOut(d, {
        tenantId: m.tenant_id,
        event: 'job.completed',
        eventKey: `job.completed:${q.query_id}`,
        payload: jobCompletedPayload(q, d.config, d.clock.now()),
        ownUrl: job?.webhook_url ?? null,
        jobId: m.job_id,
      });
      if (q.status === 'completed' && (await getStorageSettings(d.table, m.tenant_id)).sync)
        await d.queue.send('deliveries', { kind: 'sync.put', tenant_id: m.tenant_id, query_id: q.query_id });
    },
  },
  /** A run finished (sent by the runs worker): deliver run.completed, and a run job's job.completed. */
  'run.completed': {
    timeoutMs: 30_000,
    async run(m, d) {
      await fanOut(d, {
        tenantId: m.tenant_id,
        event: 'run.completed',
        eventKey: `run.completed:${m.run_id}`,
        payload: runCompletedPayload(m, d.config),
        ownUrl: m.webhook_url ?? null,
        runId: m.run_id,
      });
      if (m.job_id) await jobRunCompleted(d, m.tenant_id, m.job_id, m.run_id);
    },
  },
  /** A page changed or was removed (change tracking): deliver page.changed. */
  'page.changed': {
    timeoutMs: 30_000,
    async run(m, d) {
      await deliverPageChanged(d, m.tenant_id, m.change_id, m.include_new ?? false);
    },
  },
  /** One signed POST of one delivery; schedules its own retry. */
  'delivery.attempt': {
    timeoutMs: 30_000,
    async run(m, d) {
      await attemptDelivery(d, m);
    },
  },
  /** Copy a job result to the tenant's S3-compatible bucket. */
  'sync.put': {
    timeoutMs: 50_000,
    async run(m, d) {
      await syncResult(d, m.tenant_id, m.query_id);
    },
  },
});

/**
 * A run job's run finished: the job's last_run takes its status, and job.completed (with the
 * run's change counts) goes to the job's webhook_url (signed with the tenant's job-webhook
 * secret) and to every endpoint subscribed to job.completed. Idempotent (event key per run), so
 * a redelivered message changes nothing.
 */
async function jobRunCompleted(d: Deps, tenantId: string, jobId: string, runId: string) {
  const run = await getRun(d, tenantId, runId);
  if (!TERMINAL.includes(run.status)) throw new Error(`Run ${run.id} is ${run.status}, not finished yet`);
  await recordRunEnded(d.table, run);
  const job = await getJob(d.table, tenantId, jobId).catch(() => undefined); // deleted: registered endpoints only
  await fanOut(d, {
    tenantId,
    event: 'job.completed',
    eventKey: `job.completed:${run.id}`,
    payload: jobRunCompletedPayload(run, d.config, d.clock.now()),
    ownUrl: job?.webhook_url ?? null,
    jobId,
  });
}
