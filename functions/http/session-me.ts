import { api } from './pipeline/api.js';

export const handler = api('session.me', {}, async (req) => ({
  body: { principal: { type: req.principal.type, id: req.principal.id }, tenant: { tenant_id: req.tenant.tenant_id, name: req.tenant.name } },
}));
