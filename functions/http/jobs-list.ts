import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/jobs/jobs.js'));

export const handler = api(lazyContract('jobs.list', () => import('./contracts/jobs.js').then((m) => m.contracts['jobs.list'])), async (req) => {
  const { listJobs, publicJob } = await core();
  const page = await listJobs(req.deps.table, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map((j) => publicJob(j, req.now)), next_cursor: page.next_cursor } };
});
