import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/webhooks/webhooks.js'));

export const handler = api(lazyContract('webhooks.delete', () => import('./contracts/webhooks.js').then((m) => m.contracts['webhooks.delete'])), async (req) => {
  const { deleteWebhook } = await core();
  req.setResource(req.params.webhook_id);
  await deleteWebhook(req.deps.table, req.tenant.tenant_id, req.params.webhook_id);
});
