import { api } from './pipeline/api.js';
import { assertSecretsScope, createRunbook, runbookBodySchema } from '../core/runbooks/runbooks.js';

export const handler = api('runbooks.create', { body: runbookBodySchema }, async (req) => {
  assertSecretsScope(req.principal.scopes, req.body.steps);
  const rb = await createRunbook(req.deps.table, req.tenant.tenant_id, req.body, req.now);
  req.setResource(rb.id);
  return { status: 201, body: rb };
});
