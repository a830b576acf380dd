import { api } from './pipeline/api.js';
import { jobsListQuery } from './schemas/jobs.js';
import { listJobs, publicJob } from '../core/jobs/jobs.js';

export const handler = api('jobs.list', { query: jobsListQuery }, async (req) => {
  const page = await listJobs(req.deps.table, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map((j) => publicJob(j, req.now)), next_cursor: page.next_cursor } };
});
