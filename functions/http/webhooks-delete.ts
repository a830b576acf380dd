import { api } from './pipeline/api.js';
import { webhookIdParams } from './schemas/jobs.js';
import { deleteWebhook } from '../core/webhooks/webhooks.js';

export const handler = api('webhooks.delete', { params: webhookIdParams }, async (req) => {
  req.setResource(req.params.webhook_id);
  await deleteWebhook(req.deps.table, req.tenant.tenant_id, req.params.webhook_id);
});
