import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('./egress.js'), import('../core/search/search-credentials.js'), import('../core/search/registry.js')]));

export const handler = api(lazyContract('search-providers.put', () => import('./contracts/search-providers.js').then((m) => m.contracts['search-providers.put'])), async (req) => {
  const [{ apiGuard }, { putSearchCredentials }, { searchProviders }] = await core();
  req.setResource(req.params.provider);
  const rec = await putSearchCredentials(req.deps.table, req.deps.secrets, apiGuard(req.deps.config), req.tenant.tenant_id, searchProviders[req.params.provider], req.body, req.now);
  return { body: { ...rec, configured: true as const } };
});
