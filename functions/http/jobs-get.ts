import { api } from './pipeline/api.js';
import { contracts } from './contracts/jobs.js';
import { getJob, publicJob } from '../core/jobs/jobs.js';

export const handler = api(contracts['jobs.get'], async (req) => {
  req.setResource(req.params.job_id);
  return { body: publicJob(await getJob(req.deps.table, req.tenant.tenant_id, req.params.job_id), req.now) };
});
