import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/jobs/jobs.js'), import('../core/webhooks/deliveries.js')]));

export const handler = api(lazyContract('jobs.deliveries', () => import('./contracts/deliveries.js').then((m) => m.contracts['jobs.deliveries'])), async (req) => {
  const [{ getJob }, { listOwnerDeliveries, publicDelivery }] = await core();
  req.setResource(req.params.job_id);
  await getJob(req.deps.table, req.tenant.tenant_id, req.params.job_id); // 404 for unknown jobs
  const page = await listOwnerDeliveries(req.deps.table, req.tenant.tenant_id, req.params.job_id, req.query);
  return { body: { data: page.data.map(publicDelivery), next_cursor: page.next_cursor } };
});
