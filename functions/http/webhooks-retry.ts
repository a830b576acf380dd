import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/webhooks/deliveries.js'));

export const handler = api(lazyContract('webhooks.retry', () => import('./contracts/deliveries.js').then((m) => m.contracts['webhooks.retry'])), async (req) => {
  const { publicDelivery, retryDelivery } = await core();
  req.setResource(req.params.delivery_id);
  const d = await retryDelivery(req.deps, req.tenant.tenant_id, req.params.webhook_id, req.params.delivery_id, req.now);
  return { status: 202, body: publicDelivery(d) };
});
