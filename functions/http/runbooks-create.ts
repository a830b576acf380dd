import { api } from './pipeline/api.js';
import { contracts } from './contracts/runbooks.js';
import { assertSecretsScope, createRunbook } from '../core/runbooks/runbooks.js';

export const handler = api(contracts['runbooks.create'], async (req) => {
  assertSecretsScope(req.principal.scopes, req.body.steps);
  const rb = await createRunbook(req.deps.table, req.tenant.tenant_id, req.body, req.now);
  req.setResource(rb.id);
  return { status: 201, body: rb };
});
