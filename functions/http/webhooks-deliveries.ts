import { api } from './pipeline/api.js';
import { pageQuery } from './schemas/common.js';
import { webhookIdParams } from './schemas/jobs.js';
import { listDeliveries, publicDelivery } from '../core/webhooks/deliveries.js';

export const handler = api('webhooks.deliveries', { params: webhookIdParams, query: pageQuery }, async (req) => {
  req.setResource(req.params.webhook_id);
  const page = await listDeliveries(req.deps.table, req.tenant.tenant_id, req.params.webhook_id, req.query);
  return { body: { data: page.data.map(publicDelivery), next_cursor: page.next_cursor } };
});
