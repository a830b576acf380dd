import { api, lazyContract, loadOnce } from './pipeline/api.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('./egress.js'), import('../core/studio/preview-request.js'), import('../core/runs/check-targets.js'), import('../core/limits/usage.js'), import('../core/runs/scrape-task.js')]));

export const handler = api(lazyContract('studio.preview', () => import('./contracts/studio.js').then((m) => m.contracts['studio.preview'])), async (req) => {
  const [{ apiGuard }, { previewSteps }, { checkTargets }, { assertQuota }, { startTask, awaitTask }] = await core();
  previewSteps(req.body); // 400 before any work when a step would fill a secret
  await checkTargets(apiGuard(req.deps.config), req.tenant, [req.body.url]);
  await assertQuota(req.deps.table, req.tenant, 'pages', req.now);
  const task = await startTask(req.deps, req.tenant.tenant_id, 'studio.preview', req.body, req.now, 'console');
  return { body: await awaitTask(req.deps, req.tenant.tenant_id, task.task_id, 27_000) };
});
