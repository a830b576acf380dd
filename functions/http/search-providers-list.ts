import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/search/search-credentials.js'), import('../core/search/registry.js')]));

export const handler = api(lazyContract('search-providers.list', () => import('./contracts/search-providers.js').then((m) => m.contracts['search-providers.list'])), async (req) => {
  const [{ listSearchCredentials }, { searchProviders }] = await core();
  const configured = new Map((await listSearchCredentials(req.deps.table, req.tenant.tenant_id)).map((c) => [c.provider, c]));
  return {
    body: {
      data: Object.values(searchProviders).map((p) => ({
        provider: p.name,
        configured: configured.has(p.name),
        fields: configured.get(p.name)?.fields ?? [],
        updated_at: configured.get(p.name)?.updated_at ?? null,
        credential_fields: p.credentialFields,
        access: p.accessNotes,
      })),
      next_cursor: null,
    },
  };
});
