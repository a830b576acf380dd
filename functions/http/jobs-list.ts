import { api } from './pipeline/api.js';
import { contracts } from './contracts/jobs.js';
import { listJobs, publicJob } from '../core/jobs/jobs.js';

export const handler = api(contracts['jobs.list'], async (req) => {
  const page = await listJobs(req.deps.table, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map((j) => publicJob(j, req.now)), next_cursor: page.next_cursor } };
});
