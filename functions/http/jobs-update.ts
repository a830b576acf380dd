import { api } from './pipeline/api.js';
import { contracts } from './contracts/jobs.js';
import { publicJob, updateJob } from '../core/jobs/jobs.js';

export const handler = api(contracts['jobs.update'], async (req) => {
  req.setResource(req.params.job_id);
  const job = await updateJob(req.deps, req.tenant.tenant_id, req.params.job_id, req.body, req.now, { tenant: req.tenant, scopes: req.principal.scopes });
  return { body: publicJob(job, req.now) };
});
