import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/webhooks/webhooks.js'));

/** The secret is in this response only; it is stored encrypted and never shown again. */
export const handler = api(lazyContract('webhooks.create', () => import('./contracts/webhooks.js').then((m) => m.contracts['webhooks.create'])), async (req) => {
  const { createWebhook, publicWebhook } = await core();
  const { webhook, secret } = await createWebhook(req.deps, req.tenant.tenant_id, req.body, req.now);
  req.setResource(webhook.webhook_id);
  return { status: 201, body: { ...publicWebhook(webhook), secret }, headers: { location: `/v1/webhooks/${webhook.webhook_id}` } };
});
