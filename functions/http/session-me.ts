import { api } from './pipeline/api.js';
import { contracts } from './contracts/session.js';

export const handler = api(contracts['session.me'], async (req) => ({
  body: { principal: { type: req.principal.type, id: req.principal.id }, tenant: { tenant_id: req.tenant.tenant_id, name: req.tenant.name } },
}));
