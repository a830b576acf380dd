import { api } from './pipeline/api.js';
import { contracts } from './contracts/jobs.js';
import { runJobNow } from '../core/jobs/jobs.js';

export const handler = api(contracts['jobs.run'], async (req) => {
  req.setResource(req.params.job_id);
  const s = await runJobNow(req.deps, req.tenant.tenant_id, req.params.job_id, req.now);
  if (s.kind === 'run')
    return { status: 202, body: { run_id: s.run.id, job_id: req.params.job_id, status: 'queued' as const, created_at: s.run.created_at }, headers: { location: `/v1/runs/${s.run.id}` } };
  const q = s.query;
  return { status: 202, body: { query_id: q.query_id, job_id: req.params.job_id, status: q.status, created_at: q.created_at }, headers: { location: `/v1/queries/${q.query_id}` } };
});
