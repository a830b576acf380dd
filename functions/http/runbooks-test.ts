import { api } from './pipeline/api.js';
import { contracts } from './contracts/scrape.js';
import { assertSecretsScope, getRunbook } from '../core/runbooks/runbooks.js';
import { startTask, awaitTask } from '../core/runs/scrape-task.js';

export const handler = api(contracts['runbooks.test'], async (req) => {
  req.setResource(req.params.id);
  const rb = await getRunbook(req.deps.table, req.tenant.tenant_id, req.params.id); // 404 before any work
  assertSecretsScope(req.principal.scopes, rb.steps);
  const task = await startTask(req.deps, req.tenant.tenant_id, 'runbook.test', { runbook_id: req.params.id, input: req.body?.input ?? {} }, req.now);
  return { body: await awaitTask(req.deps, req.tenant.tenant_id, task.task_id, 27_000) };
});
