import { api } from './pipeline/api.js';
import { contracts } from './contracts/scrape.js';
import { apiGuard } from './egress.js';
import { checkTargets } from '../core/runs/check-targets.js';
import { assertQuota } from '../core/limits/usage.js';
import { startTask, awaitTask } from '../core/runs/scrape-task.js';
import { resolveProfile } from '../core/profiles/browser-profiles.js';
import { assertExtractionReady } from '../core/extraction/readiness.js';

export const handler = api(contracts['scrape.create'], async (req) => {
  await checkTargets(apiGuard(req.deps.config), req.tenant, [req.body.url]);
  await assertQuota(req.deps.table, req.tenant, 'pages', req.now);
  await assertExtractionReady(req.deps, req.tenant, req.body, req.now);
  await resolveProfile(req.deps.table, req.tenant.tenant_id, req.body.browser_profile);
  const task = await startTask(req.deps, req.tenant.tenant_id, 'scrape', req.body, req.now);
  return { body: await awaitTask(req.deps, req.tenant.tenant_id, task.task_id, Math.min(req.body.timeout_ms + 10_000, 27_000)) };
});
