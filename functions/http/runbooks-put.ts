import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => import('../core/runbooks/runbooks.js'));

export const handler = api(lazyContract('runbooks.put', () => import('./contracts/runbooks.js').then((m) => m.contracts['runbooks.put'])), async (req) => {
  const { assertSecretsScope, getRunbook, updateRunbook } = await core();
  req.setResource(req.params.id);
  assertSecretsScope(req.principal.scopes, req.body.steps);
  // Also when the new steps drop the secret: a key without the scope may not rewrite a runbook that uses one.
  assertSecretsScope(req.principal.scopes, (await getRunbook(req.deps.table, req.tenant.tenant_id, req.params.id)).steps);
  return { body: await updateRunbook(req.deps.table, req.tenant.tenant_id, req.params.id, req.body, req.now) };
});
