import { api } from './pipeline/api.js';
import { contracts } from './contracts/runs.js';
import { getRun } from '../core/runs/run-reads.js';
import { readRunLog } from '../core/runs/raw-log.js';

export const handler = api(contracts['runs.log'], async (req) => {
  req.setResource(req.params.id);
  const run = await getRun(req.deps, req.tenant.tenant_id, req.params.id);
  return { body: { data: await readRunLog(req.deps.table, req.deps.blobs, run.tenant_id, run.id, run.attempt), next_cursor: null } };
});
