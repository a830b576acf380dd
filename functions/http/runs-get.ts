import { api, lazyContract, loadOnce } from './pipeline/api.js';

const MAX_WAIT_SECONDS = 25;

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/runs/run-reads.js'), import('../core/runs/run-record.js')]));

export const handler = api(lazyContract('runs.get', () => import('./contracts/runs.js').then((m) => m.contracts['runs.get'])), async (req) => {
  const [{ getRun, waitForRun }, { publicRun }] = await core();
  req.setResource(req.params.id);
  const t = req.tenant.tenant_id;
  const run = req.query.wait ? await waitForRun(req.deps, t, req.params.id, Math.min(req.query.wait, MAX_WAIT_SECONDS)) : await getRun(req.deps, t, req.params.id);
  return { body: publicRun(run) };
});
