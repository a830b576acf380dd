import { api } from './pipeline/api.js';
import { pageQuery } from './schemas/common.js';
import { listWebhooks, publicWebhook } from '../core/webhooks/webhooks.js';

export const handler = api('webhooks.list', { query: pageQuery }, async (req) => {
  const page = await listWebhooks(req.deps.table, req.tenant.tenant_id, req.query);
  return { body: { data: page.data.map(publicWebhook), next_cursor: page.next_cursor } };
});
