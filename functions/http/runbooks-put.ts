import { api } from './pipeline/api.js';
import { contracts } from './contracts/runbooks.js';
import { assertSecretsScope, getRunbook, updateRunbook } from '../core/runbooks/runbooks.js';

export const handler = api(contracts['runbooks.put'], async (req) => {
  req.setResource(req.params.id);
  assertSecretsScope(req.principal.scopes, req.body.steps);
  // Also when the new steps drop the secret: a key without the scope may not rewrite a runbook that uses one.
  assertSecretsScope(req.principal.scopes, (await getRunbook(req.deps.table, req.tenant.tenant_id, req.params.id)).steps);
  return { body: await updateRunbook(req.deps.table, req.tenant.tenant_id, req.params.id, req.body, req.now) };
});
