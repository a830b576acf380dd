import { api } from './pipeline/api.js';
import { contracts } from './contracts/jobs.js';
import { deleteJob } from '../core/jobs/jobs.js';

export const handler = api(contracts['jobs.delete'], async (req) => {
  req.setResource(req.params.job_id);
  await deleteJob(req.deps, req.tenant.tenant_id, req.params.job_id);
});
