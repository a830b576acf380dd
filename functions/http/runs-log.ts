import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/runs/run-reads.js'), import('../core/runs/raw-log.js')]));

export const handler = api(lazyContract('runs.log', () => import('./contracts/runs.js').then((m) => m.contracts['runs.log'])), async (req) => {
  const [{ getRun }, { readRunLog }] = await core();
  req.setResource(req.params.id);
  const run = await getRun(req.deps, req.tenant.tenant_id, req.params.id);
  return { body: { data: await readRunLog(req.deps.table, req.deps.blobs, run.tenant_id, run.id, run.attempt), next_cursor: null } };
});
