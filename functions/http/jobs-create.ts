import { api } from './pipeline/api.js';
import { createJob, jobCreateSchema, publicJob } from '../core/jobs/jobs.js';

export const handler = api('jobs.create', { body: jobCreateSchema }, async (req) => {
  const job = await createJob(req.deps, req.tenant.tenant_id, req.body, req.now);
  req.setResource(job.job_id);
  return { status: 201, body: publicJob(job, req.now), headers: { location: `/v1/jobs/${job.job_id}` } };
});
