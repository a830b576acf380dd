import { api } from './pipeline/api.js';
import { contracts } from './contracts/sources.js';
import { listSourceCredentials } from '../core/sources/credentials.js';
import { connectors } from '../core/sources/registry.js';

export const handler = api(contracts['sources.list'], async (req) => {
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
