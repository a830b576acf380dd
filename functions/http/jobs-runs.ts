import { api } from './pipeline/api.js';
import { contracts } from './contracts/jobs.js';
import { listJobRuns } from '../core/jobs/jobs.js';
import { publicQuery } from '../core/queries/queries.js';

export const handler = api(contracts['jobs.runs'], async (req) => {
  req.setResource(req.params.job_id);
  const page = await listJobRuns(req.deps.table, req.tenant.tenant_id, req.params.job_id, req.query);
  return { body: { data: page.data.map(publicQuery), next_cursor: page.next_cursor } };
});
