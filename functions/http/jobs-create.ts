import { api } from './pipeline/api.js';
import { contracts } from './contracts/jobs.js';
import { createJob, publicJob } from '../core/jobs/jobs.js';

export const handler = api(contracts['jobs.create'], async (req) => {
  const job = await createJob(req.deps, req.tenant.tenant_id, req.body, req.now, { tenant: req.tenant, scopes: req.principal.scopes });
  req.setResource(job.job_id);
  return { status: 201, body: publicJob(job, req.now), headers: { location: `/v1/jobs/${job.job_id}` } };
});
