import { badRequest } from '../errors.js';
import type { TargetPolicy } from '../governance/target-policy.js';
import { executeRunbook } from './runbook.js';
import { runbookScraperSpec, type RunbookDefinition, type RunbookInput } from './runbook-scraper-spec.js';
import type { Scraper } from './types.js';
import type { SecretRedactor } from './secret-redactor.js';

export type { RunbookDefinition, RunbookInput } from './runbook-scraper-spec.js';

/**
 * A published runbook as a scraper (`POST /v1/runs { scraper_id: "rbk_…" }`). Bound to the
 * tenant's target policy and secret resolver, which the run worker supplies. Inputs are scalar
 * values; every input the steps reference must be present (runbookScraperSpec).
 */
export function runbookScraper(
  rb: RunbookDefinition,
  deps: { policy: TargetPolicy; resolveSecret: (name: string) => Promise<{ value: string; domains: string[] }>; redactor?: SecretRedactor },
): Scraper<RunbookInput> {
  return {
    ...runbookScraperSpec(rb),
    async run(input, ctx) {
      const res = await executeRunbook(rb.steps, {
        engine: ctx.engine,
        policy: deps.policy,
        input,
        resolveSecret: deps.resolveSecret,
        redactor: deps.redactor,
        emit: ctx.emit,
        shouldStop: ctx.shouldStop,
        signal: ctx.signal,
      });
      ctx.progress({ pages_done: res.pages_done, pages_total: res.pages_done });
      if (res.status === 'failed' && res.error) {
        if (res.error.code === 'invalid_request') throw badRequest(res.error.message);
        throw Object.assign(new Error(res.error.message), { code: res.error.code, step_log: res.log });
      }
      return {
        pages_done: res.pages_done,
        items: res.items.length,
        stopped: res.status === 'blocked' ? 'challenge' : res.status === 'stopped' ? 'stopped' : 'done',
      };
    },
  };
}
