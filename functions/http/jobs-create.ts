import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/jobs/jobs.js'), import('../core/runs/check-run-input.js')]));

export const handler = api(lazyContract('jobs.create', () => import('./contracts/jobs.js').then((m) => m.contracts['jobs.create'])), async (req) => {
  const [{ createJob, publicJob }, { checkRunInput }] = await core();
  const job = await createJob(req.deps, req.tenant.tenant_id, req.body, req.now, { tenant: req.tenant, principal: req.principal, scopes: req.principal.scopes, checkRunInput });
  req.setResource(job.job_id);
  return { status: 201, body: publicJob(job, req.now), headers: { location: `/v1/jobs/${job.job_id}` } };
});
