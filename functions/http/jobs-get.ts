import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/jobs/jobs.js'));

export const handler = api(lazyContract('jobs.get', () => import('./contracts/jobs.js').then((m) => m.contracts['jobs.get'])), async (req) => {
  const { getJob, publicJob } = await core();
  req.setResource(req.params.job_id);
  return { body: publicJob(await getJob(req.deps.table, req.tenant.tenant_id, req.params.job_id), req.now) };
});
