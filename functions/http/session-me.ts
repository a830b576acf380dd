import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/extraction/model-not-configured.js'));

export const handler = api(lazyContract('session.me', () => import('./contracts/session.js').then((m) => m.contracts['session.me'])), async (req) => {
  const { MODEL_NOT_CONFIGURED_MESSAGE } = await core();
  return {
    body: {
      principal: { type: req.principal.type, id: req.principal.id },
      tenant: { tenant_id: req.tenant.tenant_id, name: req.tenant.name },
      features: { model_extraction: req.deps.model ? { available: true, reason: null } : { available: false, reason: MODEL_NOT_CONFIGURED_MESSAGE } },
    },
  };
});
