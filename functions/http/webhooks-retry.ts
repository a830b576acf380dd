import { api } from './pipeline/api.js';
import { contracts } from './contracts/deliveries.js';
import { publicDelivery, retryDelivery } from '../core/webhooks/deliveries.js';

export const handler = api(contracts['webhooks.retry'], async (req) => {
  req.setResource(req.params.delivery_id);
  const d = await retryDelivery(req.deps, req.tenant.tenant_id, req.params.webhook_id, req.params.delivery_id, req.now);
  return { status: 202, body: publicDelivery(d) };
});
