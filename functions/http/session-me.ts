import { api } from './pipeline/api.js';
import { contracts } from './contracts/session.js';
import { MODEL_NOT_CONFIGURED_MESSAGE } from '../core/extraction/model-not-configured.js';

export const handler = api(contracts['session.me'], async (req) => ({
  body: {
    principal: { type: req.principal.type, id: req.principal.id },
    tenant: { tenant_id: req.tenant.tenant_id, name: req.tenant.name },
    features: { model_extraction: req.deps.model ? { available: true, reason: null } : { available: false, reason: MODEL_NOT_CONFIGURED_MESSAGE } },
  },
}));
