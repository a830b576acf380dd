import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/sources/credentials.js'), import('../core/sources/registry.js')]));

export const handler = api(lazyContract('sources.put', () => import('./contracts/sources.js').then((m) => m.contracts['sources.put'])), async (req) => {
  const [{ putSourceCredentials }, { connectors }] = await core();
  req.setResource(req.params.source);
  const rec = await putSourceCredentials(req.deps.table, req.deps.secrets, req.tenant.tenant_id, connectors[req.params.source], req.body, req.now);
  return { body: { ...rec, configured: true } };
});
