import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/sources/credentials.js'), import('../core/sources/registry.js')]));

export const handler = api(lazyContract('sources.list', () => import('./contracts/sources.js').then((m) => m.contracts['sources.list'])), async (req) => {
  const [{ listSourceCredentials }, { connectors }] = await core();
  const configured = new Map((await listSourceCredentials(req.deps.table, req.tenant.tenant_id)).map((c) => [c.source, c]));
  return {
    body: {
      data: Object.values(connectors).map((c) => ({
        source: c.name,
        configured: configured.has(c.name),
        fields: configured.get(c.name)?.fields ?? [],
        updated_at: configured.get(c.name)?.updated_at ?? null,
        credential_fields: c.credentialFields,
        access: c.accessNotes,
      })),
      next_cursor: null,
    },
  };
});
