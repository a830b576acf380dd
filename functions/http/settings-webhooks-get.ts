import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/webhooks/webhooks.js'));

/** Created on first read; signs deliveries to a job's (or run's) own webhook_url. */
export const handler = api(lazyContract('settings.webhooks.get', () => import('./contracts/webhooks.js').then((m) => m.contracts['settings.webhooks.get'])), async (req) => {
  const { tenantSigningSecret } = await core();
  const s = await tenantSigningSecret(req.deps.table, req.deps.secrets, req.tenant.tenant_id, req.now);
  return { body: { signing_secret: s.secret, created_at: s.created_at }, headers: { 'cache-control': 'no-store' } };
});
