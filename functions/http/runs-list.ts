import { api } from './pipeline/api.js';
import { contracts } from './contracts/runs.js';
import { listRuns } from '../core/runs/run-reads.js';
import { publicRun } from '../core/runs/run-record.js';

export const handler = api(contracts['runs.list'], async (req) => {
  const page = await listRuns(req.deps, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map(publicRun), next_cursor: page.next_cursor } };
});
