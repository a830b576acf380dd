import { api } from './pipeline/api.js';
import { apiGuard } from './egress.js';
import { createRun, runCreateSchema } from '../core/runs/runs.js';
import { publicRun } from '../core/runs/run-record.js';

export const handler = api('runs.create', { body: runCreateSchema }, async (req) => {
  const run = await createRun(req.deps, apiGuard(req.deps.config), req.tenant, req.body, req.now, req.principal.scopes);
  req.setResource(run.id);
  return { status: 201, body: publicRun(run), headers: { location: `/v1/runs/${run.id}` } };
});
