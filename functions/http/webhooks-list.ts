import { api } from './pipeline/api.js';
import { contracts } from './contracts/webhooks.js';
import { listWebhooks, publicWebhook } from '../core/webhooks/webhooks.js';

export const handler = api(contracts['webhooks.list'], async (req) => {
  const page = await listWebhooks(req.deps.table, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map(publicWebhook), next_cursor: page.next_cursor } };
});
