import { api } from './pipeline/api.js';
import { contracts } from './contracts/webhooks.js';
import { createWebhook, publicWebhook } from '../core/webhooks/webhooks.js';

/** The secret is in this response only; it is stored encrypted and never shown again. */
export const handler = api(contracts['webhooks.create'], async (req) => {
  const { webhook, secret } = await createWebhook(req.deps, req.tenant.tenant_id, req.body, req.now);
  req.setResource(webhook.webhook_id);
  return { status: 201, body: { ...publicWebhook(webhook), secret }, headers: { location: `/v1/webhooks/${webhook.webhook_id}` } };
});
