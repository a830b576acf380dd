import { api } from './pipeline/api.js';
import { contracts } from './contracts/runs.js';
import { cancelRun } from '../core/runs/run-reads.js';
import { publicRun } from '../core/runs/run-record.js';

export const handler = api(contracts['runs.cancel'], async (req) => {
  req.setResource(req.params.id);
  return { status: 202, body: publicRun(await cancelRun(req.deps, req.tenant.tenant_id, req.params.id, req.now)) };
});
