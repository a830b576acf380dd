import { api } from './pipeline/api.js';
import { contracts } from './contracts/webhooks.js';
import { deleteWebhook } from '../core/webhooks/webhooks.js';

export const handler = api(contracts['webhooks.delete'], async (req) => {
  req.setResource(req.params.webhook_id);
  await deleteWebhook(req.deps.table, req.tenant.tenant_id, req.params.webhook_id);
});
