import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('./egress.js'), import('../core/runs/runs.js'), import('../core/runs/run-record.js')]));

export const handler = api(lazyContract('runs.create', () => import('./contracts/runs.js').then((m) => m.contracts['runs.create'])), async (req) => {
  const [{ apiGuard }, { createRun }, { publicRun }] = await core();
  const run = await createRun(req.deps, apiGuard(req.deps.config), req.tenant, req.body, req.now, req.principal.scopes);
  req.setResource(run.id);
  return { status: 201, body: publicRun(run), headers: { location: `/v1/runs/${run.id}` } };
});
