import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/runbooks/runbooks.js'), import('../core/runs/scrape-task.js')]));

export const handler = api(lazyContract('runbooks.test', () => import('./contracts/scrape.js').then((m) => m.contracts['runbooks.test'])), async (req) => {
  const [{ assertSecretsScope, getRunbook }, { startTask, awaitTask }] = await core();
  req.setResource(req.params.id);
  const rb = await getRunbook(req.deps.table, req.tenant.tenant_id, req.params.id); // 404 before any work
  assertSecretsScope(req.principal.scopes, rb.steps);
  const task = await startTask(req.deps, req.tenant.tenant_id, 'runbook.test', { runbook_id: req.params.id, input: req.body?.input ?? {} }, req.now);
  return { body: await awaitTask(req.deps, req.tenant.tenant_id, task.task_id, 27_000) };
});
