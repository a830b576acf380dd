import { api } from './pipeline/api.js';
import { contracts } from './contracts/deliveries.js';
import { listDeliveries, publicDelivery } from '../core/webhooks/deliveries.js';

export const handler = api(contracts['webhooks.deliveries'], async (req) => {
  req.setResource(req.params.webhook_id);
  const page = await listDeliveries(req.deps.table, req.tenant.tenant_id, req.params.webhook_id, req.query);
  return { body: { data: page.data.map(publicDelivery), next_cursor: page.next_cursor } };
});
