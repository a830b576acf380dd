import { api } from './pipeline/api.js';
import { contracts } from './contracts/sources.js';
import { putSourceCredentials } from '../core/sources/credentials.js';
import { connectors } from '../core/sources/registry.js';

export const handler = api(contracts['sources.put'], async (req) => {
  req.setResource(req.params.source);
  const rec = await putSourceCredentials(req.deps.table, req.deps.secrets, req.tenant.tenant_id, connectors[req.params.source], req.body, req.now);
  return { body: { ...rec, configured: true } };
});
