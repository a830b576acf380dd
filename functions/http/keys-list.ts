import { api } from './pipeline/api.js';
import { contracts } from './contracts/session.js';
import { listApiKeys, publicKey } from '../core/tenancy/api-keys.js';

export const handler = api(contracts['keys.list'], async (req) => ({
  body: { data: (await listApiKeys(req.deps.table, req.tenant.tenant_id)).map(publicKey), next_cursor: null },
}));
