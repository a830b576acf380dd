import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/webhooks/webhooks.js'));

export const handler = api(lazyContract('webhooks.list', () => import('./contracts/webhooks.js').then((m) => m.contracts['webhooks.list'])), async (req) => {
  const { listWebhooks, publicWebhook } = await core();
  const page = await listWebhooks(req.deps.table, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map(publicWebhook), next_cursor: page.next_cursor } };
});
