import { api } from './pipeline/api.js';
import { contracts } from './contracts/runs.js';
import { getRun, waitForRun } from '../core/runs/run-reads.js';
import { publicRun } from '../core/runs/run-record.js';

const MAX_WAIT_SECONDS = 25;

export const handler = api(contracts['runs.get'], async (req) => {
  req.setResource(req.params.id);
  const t = req.tenant.tenant_id;
  const run = req.query.wait ? await waitForRun(req.deps, t, req.params.id, Math.min(req.query.wait, MAX_WAIT_SECONDS)) : await getRun(req.deps, t, req.params.id);
  return { body: publicRun(run) };
});
