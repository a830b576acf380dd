import { api } from './pipeline/api.js';
import { contracts } from './contracts/runs.js';
import { apiGuard } from './egress.js';
import { createRun } from '../core/runs/runs.js';
import { publicRun } from '../core/runs/run-record.js';

export const handler = api(contracts['runs.create'], async (req) => {
  const run = await createRun(req.deps, apiGuard(req.deps.config), req.tenant, req.body, req.now, req.principal.scopes);
  req.setResource(run.id);
  return { status: 201, body: publicRun(run), headers: { location: `/v1/runs/${run.id}` } };
});
