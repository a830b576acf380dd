import { api } from './pipeline/api.js';
import { contracts } from './contracts/deliveries.js';
import { getJob } from '../core/jobs/jobs.js';
import { listOwnerDeliveries, publicDelivery } from '../core/webhooks/deliveries.js';

export const handler = api(contracts['jobs.deliveries'], async (req) => {
  req.setResource(req.params.job_id);
  await getJob(req.deps.table, req.tenant.tenant_id, req.params.job_id); // 404 for unknown jobs
  const page = await listOwnerDeliveries(req.deps.table, req.tenant.tenant_id, req.params.job_id, req.query);
  return { body: { data: page.data.map(publicDelivery), next_cursor: page.next_cursor } };
});
