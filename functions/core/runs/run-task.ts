import * as z from 'zod';
import { fieldsSchema } from '../engine/field-spec.js';
import { SCRAPE_FORMATS } from '../engine/types.js';
import { checkJsonFormat, jsonOptionsSchema } from '../extraction/json-options.js';
import { contentOptionsShape } from '../content/content-options.js';
import { refineSelectorComplexity } from '../limits/selector-limits.js';
import { changeOptionsShape, checkChangesFormat } from '../changes/change-options.js';
import { pageActionsSchema } from '../scrapers/page-actions-schema.js';
import { maxAgeField } from '../freshness/max-age.js';
import { checkTypedFormat, typedOptionsShape } from '../typed/typed-options.js';

// The request contract of a synchronous scrape or runbook test, read by the API handlers. The
// worker side (execute-task.ts) lives apart so that validating a request never bundles the engine.

/** POST /v1/scrape body (API.md). */
export const scrapeRequestSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }).max(2048),
  engine: z.enum(['auto', 'http', 'browser']).default('auto'),
  formats: z.array(z.enum(SCRAPE_FORMATS)).min(1).max(SCRAPE_FORMATS.length).optional(),
  extract: z.strictObject({ fields: fieldsSchema }).optional(),
  wait_for: z.string().min(1).max(500).superRefine(refineSelectorComplexity).optional(),
  timeout_ms: z.number().int().min(1000).max(60_000).default(30_000),
  browser_profile: z.string().regex(/^prf_[0-9a-z]{26}$/, 'expected a prf_… id').optional(),
  json_options: jsonOptionsSchema.optional(),
  actions: pageActionsSchema.optional(),
  ...contentOptionsShape,
  ...changeOptionsShape,
  ...typedOptionsShape,
  max_age: maxAgeField,
}).superRefine((v, ctx) => {
  checkJsonFormat(v, ctx);
  checkChangesFormat(v, ctx);
  checkTypedFormat(v, ctx);
});
export type ScrapeRequest = z.infer<typeof scrapeRequestSchema>;

export const runbookTestSchema = z.strictObject({
  input: z.record(z.string(), z.union([z.string().max(10_000), z.number(), z.boolean()])).default({}),
});
