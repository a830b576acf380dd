import { defineWorker } from './worker-kit.js';
import { handleJobFire } from '../core/jobs/fire.js';
import { sweepRetention, tenantsWithRetention } from '../core/sync/retention.js';
import { log } from '../core/log.js';

export const { worker, handler } = defineWorker('jobs', {
  /** A schedule fired: start the job's run (at most once per job and fire time). */
  'job.fire': {
    timeoutMs: 30_000,
    async run(m, d) {
      const r = await handleJobFire(d, m);
      if (r.kind !== 'started') log.debug('job fire did not start a run', { tenant_id: m.tenant_id, job_id: m.job_id, outcome: r.kind, ...('reason' in r ? { reason: r.reason } : {}) });
    },
  },
  /**
   * Retention (Settings > Storage). Without tenant_id (the periodic trigger): one message per
   * tenant with a policy. With tenant_id: sweep that tenant, continuing in a new message when
   * there is more to delete than one message may do.
   */
  'storage.sweep': {
    timeoutMs: 50_000,
    async run(m, d) {
      if (!m.tenant_id) {
        for (const t of await tenantsWithRetention(d.table)) await d.queue.send('jobs', { kind: 'storage.sweep', tenant_id: t });
        return;
      }
      const r = await sweepRetention(d, m.tenant_id, d.clock.now());
      if (r.more) await d.queue.send('jobs', { kind: 'storage.sweep', tenant_id: m.tenant_id });
    },
  },
});
