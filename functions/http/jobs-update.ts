import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/jobs/jobs.js'), import('../core/runs/check-run-input.js')]));

export const handler = api(lazyContract('jobs.update', () => import('./contracts/jobs.js').then((m) => m.contracts['jobs.update'])), async (req) => {
  const [{ publicJob, updateJob }, { checkRunInput }] = await core();
  req.setResource(req.params.job_id);
  const job = await updateJob(req.deps, req.tenant.tenant_id, req.params.job_id, req.body, req.now, { tenant: req.tenant, principal: req.principal, scopes: req.principal.scopes, checkRunInput });
  return { body: publicJob(job, req.now) };
});
