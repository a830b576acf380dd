import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/runs/run-reads.js'), import('../core/runs/run-record.js')]));

export const handler = api(lazyContract('runs.list', () => import('./contracts/runs.js').then((m) => m.contracts['runs.list'])), async (req) => {
  const [{ listRuns }, { publicRun }] = await core();
  const page = await listRuns(req.deps, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map(publicRun), next_cursor: page.next_cursor } };
});
