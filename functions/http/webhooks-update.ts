import { api } from './pipeline/api.js';
import { contracts } from './contracts/webhooks.js';
import { publicWebhook, setWebhookStatus } from '../core/webhooks/webhooks.js';

export const handler = api(contracts['webhooks.update'], async (req) => {
  req.setResource(req.params.webhook_id);
  return { body: publicWebhook(await setWebhookStatus(req.deps.table, req.tenant.tenant_id, req.params.webhook_id, req.body.status, req.now)) };
});
