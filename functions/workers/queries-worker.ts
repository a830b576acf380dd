import { defineWorker } from './worker-kit.js';
import { runQuery, failQuery } from '../core/queries/run-query.js';
import { createPlanner, type Planner } from '../core/queries/planner.js';
import { createBedrockConverse } from '../adapters/aws/bedrock-planner.js';
import { EgressGuard } from '../core/governance/index.js';
import { log } from '../core/log.js';
import { queryFinished } from '../core/events/query-finished.js';
import type { Deps } from '../runtime.js';

let wired: { planner: Planner; guard: EgressGuard } | undefined;
/** Built once per runtime: the planner (Bedrock when configured) and the egress guard every source call goes through. */
function wiring(d: Deps) {
  wired ??= {
    planner: createPlanner({
      bedrockModelId: d.config.bedrockModel,
      bedrock: d.config.bedrockModel ? createBedrockConverse() : undefined,
      onFallback: (err) => log.warn('LLM planner failed; using the rule planner', { err }),
    }),
    guard: new EgressGuard({ allow: d.config.egressAllow, userAgent: d.config.userAgent }),
  };
  return wired;
}

export const { worker, handler } = defineWorker('queries', {
  'query.run': {
    timeoutMs: 280_000,
    async run(m, d, meta) {
      const w = wiring(d);
      await runQuery(
        { deps: d, planner: w.planner, fetch: (url, init) => w.guard.fetchResponse(url, init), onFinished: (q) => queryFinished(d, q) },
        m.tenant_id, m.query_id, meta.signal,
      );
    },
    async onDeadLetter(m, d, error) {
      await failQuery(d, m.tenant_id, m.query_id, error);
    },
  },
});
