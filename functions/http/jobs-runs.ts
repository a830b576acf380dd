import { api } from './pipeline/api.js';
import { contracts } from './contracts/jobs.js';
import { listJobRuns } from '../core/jobs/jobs.js';
import { publicQuery } from '../core/queries/queries.js';
import { publicRun } from '../core/runs/run-record.js';

export const handler = api(contracts['jobs.runs'], async (req) => {
  req.setResource(req.params.job_id);
  const r = await listJobRuns(req.deps, req.tenant.tenant_id, req.params.job_id, req.query);
  if (r.kind === 'run') return { body: { data: r.page.data.map(publicRun), next_cursor: r.page.next_cursor } };
  return { body: { data: r.page.data.map(publicQuery), next_cursor: r.page.next_cursor } };
});
