import * as z from 'zod';
import { runbookReferences, type RunbookStep } from './runbook-schema.js';
import type { ScraperSpec } from './types.js';

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
 * inputs are scalar values, and every input the steps reference must be present. The running
 * side is `runbookScraper` (runbook-scraper.ts).
 */
export function runbookScraperSpec(rb: RunbookDefinition): ScraperSpec<RunbookInput> {
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
  };
}
