import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/runs/run-reads.js'), import('../core/webhooks/deliveries.js')]));

export const handler = api(lazyContract('runs.deliveries', () => import('./contracts/deliveries.js').then((m) => m.contracts['runs.deliveries'])), async (req) => {
  const [{ getRun }, { listOwnerDeliveries, publicDelivery }] = await core();
  req.setResource(req.params.id);
  await getRun(req.deps, req.tenant.tenant_id, req.params.id); // 404 for unknown runs
  const page = await listOwnerDeliveries(req.deps.table, req.tenant.tenant_id, req.params.id, req.query);
  return { body: { data: page.data.map(publicDelivery), next_cursor: page.next_cursor } };
});
