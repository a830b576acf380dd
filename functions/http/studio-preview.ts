import { api } from './pipeline/api.js';
import { contracts } from './contracts/studio.js';
import { apiGuard } from './egress.js';
import { previewSteps } from '../core/studio/preview-request.js';
import { checkTargets } from '../core/runs/check-targets.js';
import { assertQuota } from '../core/limits/usage.js';
import { startTask, awaitTask } from '../core/runs/scrape-task.js';

export const handler = api(contracts['studio.preview'], async (req) => {
  previewSteps(req.body); // 400 before any work when a step would fill a secret
  await checkTargets(apiGuard(req.deps.config), req.tenant, [req.body.url]);
  await assertQuota(req.deps.table, req.tenant, 'pages', req.now);
  const task = await startTask(req.deps, req.tenant.tenant_id, 'studio.preview', req.body, req.now, 'console');
  return { body: await awaitTask(req.deps, req.tenant.tenant_id, task.task_id, 27_000) };
});
