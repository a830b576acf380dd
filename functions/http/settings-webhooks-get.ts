import { api } from './pipeline/api.js';
import { contracts } from './contracts/webhooks.js';
import { tenantSigningSecret } from '../core/webhooks/webhooks.js';

/** Created on first read; signs deliveries to a job's (or run's) own webhook_url. */
export const handler = api(contracts['settings.webhooks.get'], async (req) => {
  const s = await tenantSigningSecret(req.deps.table, req.deps.secrets, req.tenant.tenant_id, req.now);
  return { body: { signing_secret: s.secret, created_at: s.created_at }, headers: { 'cache-control': 'no-store' } };
});
