import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('./egress.js'), import('../core/search/search-credentials.js'), import('../core/search/registry.js'), import('../core/search/test-provider.js')]));

/** "Save and test": save the body (if any), then one small search with the stored credentials. */
export const handler = api(lazyContract('search-providers.test', () => import('./contracts/search-providers.js').then((m) => m.contracts['search-providers.test'])), async (req) => {
  const [{ apiGuard }, { putSearchCredentials }, { searchProviders }, { testProvider }] = await core();
  req.setResource(req.params.provider);
  const provider = searchProviders[req.params.provider];
  if (req.body) await putSearchCredentials(req.deps.table, req.deps.secrets, apiGuard(req.deps.config), req.tenant.tenant_id, provider, req.body, req.now);
  return { body: await testProvider(req.deps, req.tenant.tenant_id, provider.name, req.now) };
});
