import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/runs/run-reads.js'), import('../core/runs/run-record.js')]));

export const handler = api(lazyContract('runs.cancel', () => import('./contracts/runs.js').then((m) => m.contracts['runs.cancel'])), async (req) => {
  const [{ cancelRun }, { publicRun }] = await core();
  req.setResource(req.params.id);
  return { status: 202, body: publicRun(await cancelRun(req.deps, req.tenant.tenant_id, req.params.id, req.now)) };
});
