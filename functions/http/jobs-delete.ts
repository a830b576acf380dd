import { api } from './pipeline/api.js';
import { jobIdParams } from './schemas/jobs.js';
import { deleteJob } from '../core/jobs/jobs.js';

export const handler = api('jobs.delete', { params: jobIdParams }, async (req) => {
  req.setResource(req.params.job_id);
  await deleteJob(req.deps, req.tenant.tenant_id, req.params.job_id);
});
