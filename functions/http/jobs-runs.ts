import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/jobs/jobs.js'), import('../core/queries/queries.js'), import('../core/runs/run-record.js')]));

export const handler = api(lazyContract('jobs.runs', () => import('./contracts/jobs.js').then((m) => m.contracts['jobs.runs'])), async (req) => {
  const [{ listJobRuns }, { publicQuery }, { publicRun }] = await core();
  req.setResource(req.params.job_id);
  const r = await listJobRuns(req.deps, req.tenant.tenant_id, req.params.job_id, req.query);
  if (r.kind === 'run') return { body: { data: r.page.data.map(publicRun), next_cursor: r.page.next_cursor } };
  return { body: { data: r.page.data.map(publicQuery), next_cursor: r.page.next_cursor } };
});
