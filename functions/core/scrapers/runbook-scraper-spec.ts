import * as z from 'zod';
import { runbookReferences, type RunbookStep } from './runbook-schema.js';
import type { ScraperSpec } from './types.js';
import { checkRunbookInput, runbookInputSchema } from './runbook-input-contract.js';

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
 * A published runbook as the API sees it when validating `POST /v1/runs { scraper_id: "rbk_…" }`:
 * inputs are scalar values that satisfy the runbook's input contract (runbook-input-contract.ts:
 * every input the steps reference present, the author's types and enums, URL inputs absolute).
 * The running side is `runbookScraper` (runbook-scraper.ts).
 */
export function runbookScraperSpec(rb: RunbookDefinition): ScraperSpec<RunbookInput> {
  const { secrets } = runbookReferences(rb.steps);
  const contract = runbookInputSchema(rb.steps, rb.input_schema);
  const inputSchema = scalarInput.superRefine((input, ctx) => {
    for (const p of checkRunbookInput(contract, input)) ctx.addIssue({ code: 'custom', path: [p.name], message: p.message });
  });
  return {
    scraper_id: rb.id,
    name: rb.name,
    description: rb.description,
    engine: 'browser',
    builtin: false,
    secrets,
    inputSchema,
    input_schema: contract,
  };
}
