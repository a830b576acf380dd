import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/jobs/jobs.js'));

export const handler = api(lazyContract('jobs.delete', () => import('./contracts/jobs.js').then((m) => m.contracts['jobs.delete'])), async (req) => {
  const { deleteJob } = await core();
  req.setResource(req.params.job_id);
  await deleteJob(req.deps, req.tenant.tenant_id, req.params.job_id);
});
