import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/webhooks/deliveries.js'));

export const handler = api(lazyContract('webhooks.deliveries', () => import('./contracts/deliveries.js').then((m) => m.contracts['webhooks.deliveries'])), async (req) => {
  const { listDeliveries, publicDelivery } = await core();
  req.setResource(req.params.webhook_id);
  const page = await listDeliveries(req.deps.table, req.tenant.tenant_id, req.params.webhook_id, req.query);
  return { body: { data: page.data.map(publicDelivery), next_cursor: page.next_cursor } };
});
