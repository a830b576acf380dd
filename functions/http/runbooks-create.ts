import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/runbooks/runbooks.js'));

export const handler = api(lazyContract('runbooks.create', () => import('./contracts/runbooks.js').then((m) => m.contracts['runbooks.create'])), async (req) => {
  const { assertSecretsScope, createRunbook } = await core();
  assertSecretsScope(req.principal.scopes, req.body.steps);
  const rb = await createRunbook(req.deps.table, req.tenant.tenant_id, req.body, req.now);
  req.setResource(rb.id);
  return { status: 201, body: rb };
});
