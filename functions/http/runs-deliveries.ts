import { api } from './pipeline/api.js';
import { contracts } from './contracts/deliveries.js';
import { getRun } from '../core/runs/run-reads.js';
import { listOwnerDeliveries, publicDelivery } from '../core/webhooks/deliveries.js';

export const handler = api(contracts['runs.deliveries'], async (req) => {
  req.setResource(req.params.id);
  await getRun(req.deps, req.tenant.tenant_id, req.params.id); // 404 for unknown runs
  const page = await listOwnerDeliveries(req.deps.table, req.tenant.tenant_id, req.params.id, req.query);
  return { body: { data: page.data.map(publicDelivery), next_cursor: page.next_cursor } };
});
