import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/jobs/start-job-run.js'));

export const handler = api(lazyContract('jobs.run', () => import('./contracts/jobs.js').then((m) => m.contracts['jobs.run'])), async (req) => {
  const { runJobNow } = await core();
  req.setResource(req.params.job_id);
  const s = await runJobNow(req.deps, req.tenant.tenant_id, req.params.job_id, req.now, req.principal.scopes);
  if (s.kind === 'run')
    return { status: 202, body: { run_id: s.run.id, job_id: req.params.job_id, status: 'queued' as const, created_at: s.run.created_at }, headers: { location: `/v1/runs/${s.run.id}` } };
  const q = s.query;
  return { status: 202, body: { query_id: q.query_id, job_id: req.params.job_id, status: q.status, created_at: q.created_at }, headers: { location: `/v1/queries/${q.query_id}` } };
});
