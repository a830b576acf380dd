import { z } from 'zod';
import { badRequest } from '../errors.js';
import type { TargetPolicy } from '../governance/target-policy.js';
import { executeRunbook } from './runbook.js';
import { runbookReferences, type RunbookStep } from './runbook-schema.js';
import type { SecretRedactor } from './secret-redactor.js';
import type { Scraper } from './types.js';

/** The stored runbook fields a scraper needs (API.md: `{ id, name, description, input_schema, steps, published }`). */
export interface RunbookDefinition {
  id: string;
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  steps: RunbookStep[];
}

const scalarInput = z.record(z.string(), z.union([z.string().max(10_000), z.number(), z.boolean()]));
export type RunbookInput = z.infer<typeof scalarInput>;

/**
 * A published runbook as a scraper (`POST /v1/runs { scraper_id: "rbk_…" }`). Bound to the
 * tenant's target policy and secret resolver, which the run worker supplies. Inputs are scalar
 * values; every input the steps reference must be present.
 */
export function runbookScraper(
  rb: RunbookDefinition,
  deps: { policy: TargetPolicy; resolveSecret: (name: string) => Promise<{ value: string; domains: string[] }>; redactor?: SecretRedactor },
): Scraper<RunbookInput> {
  const { inputs, secrets } = runbookReferences(rb.steps);
  const inputSchema = scalarInput.superRefine((input, ctx) => {
    for (const name of inputs) {
      if (!(name in input)) ctx.addIssue({ code: 'custom', path: [name], message: `input ${name} is required by this runbook` });
    }
  });
  return {
    scraper_id: rb.id,
    name: rb.name,
    description: rb.description,
    engine: 'browser',
    builtin: false,
    secrets,
    inputSchema,
    input_schema: rb.input_schema,
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
