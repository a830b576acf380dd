import * as z from 'zod';

/**
 * The body of POST /v1/runs (and the MCP run tool), apart from the code that acts on it
 * (runs.ts): the runs contract imports only this, so reading runs does not bundle the scrapers.
 */

export const DEFAULT_LIMITS = { max_pages: 1000, max_bytes: 200 * 1024 * 1024, max_runtime_seconds: 840 };
/**
 * A site crawl is distributed over many worker invocations (core/crawl), so it is not bound by
 * one invocation's time: its defaults follow its input, and it may run up to a day.
 */
export const CRAWL_LIMITS = { max_pages: 100_000, max_bytes: 20 * 1024 ** 3, max_runtime_seconds: 86_400 };

export const runCreateSchema = z.strictObject({
  scraper_id: z.string().min(1).max(100),
  input: z.record(z.string(), z.unknown()),
  webhook_url: z.url({ protocol: /^https?$/ }).max(2048).optional(),
  browser_profile: z.string().regex(/^prf_[0-9a-z]{26}$/, 'expected a prf_… id').optional(),
  limits: z
    .strictObject({
      max_pages: z.number().int().min(1).max(100_000).optional(),
      max_bytes: z.number().int().min(1024).max(CRAWL_LIMITS.max_bytes).optional(),
      max_runtime_seconds: z.number().int().min(5).max(CRAWL_LIMITS.max_runtime_seconds).optional(),
    })
    .optional(),
});
export type RunCreate = z.infer<typeof runCreateSchema>;
