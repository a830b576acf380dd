import type { Deps } from '../../runtime.js';
import type { QueryRecord } from '../queries/queries.js';

/**
 * A query reached completed or failed. A job's run emits job.completed (SPEC.md 6) and, when
 * the tenant configured bucket sync, copies the result to the tenant's bucket; both happen in
 * the deliveries worker so a slow receiver never holds up the query worker. Ad-hoc queries
 * emit nothing.
 */
export async function queryFinished(d: Deps, q: QueryRecord): Promise<void> {
  if (!q.job_id) return;
  await d.queue.send('deliveries', { kind: 'job.completed', tenant_id: q.tenant_id, query_id: q.query_id, job_id: q.job_id });
}
