import * as z from 'zod';

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'timed_out', 'cancelled', 'blocked'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const TERMINAL: RunStatus[] = ['succeeded', 'failed', 'timed_out', 'cancelled', 'blocked'];

export const runRecordSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  scraper_id: z.string(),
  input: z.record(z.string(), z.unknown()),
  status: z.enum(RUN_STATUSES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  progress: z.object({
    pages_done: z.number(),
    pages_total: z.number().nullable(),
    items: z.number(),
    // Distributed crawls (site-crawl) also report these (API.md, large crawls).
    pages_queued: z.number().optional(),
    pages_failed: z.number().optional(),
    rate_per_s: z.number().nullable().optional(),
    eta_s: z.number().nullable().optional(),
  }),
  stats: z.object({ requests: z.number(), bytes: z.number(), blocked_requests: z.number(), robots_skipped: z.number() }),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Why the run ended: completed, max_pages, max_bytes, max_runtime, quota, cancelled, challenge, error. */
  stop_reason: z.string().nullable(),
  webhook_url: z.string().nullable(),
  cancel_requested: z.boolean(),
  limits: z.object({ max_pages: z.number().int(), max_bytes: z.number().int(), max_runtime_seconds: z.number().int() }),
  /** Attempt number of the worker that owns the run; item pages of older attempts are ignored. */
  attempt: z.number().int(),
  item_pages: z.number().int(),
  engines_used: z.record(z.string(), z.number()).default({}),
  /** The run is a distributed crawl: its items live in the crawl frontier, not in item pages. */
  crawl: z.boolean().default(false),
  /** Browser profile (rendering settings) for browser pages, if any. */
  browser_profile: z.string().nullable().default(null),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

export const publicRun = (r: RunRecord) => ({
  id: r.id,
  scraper_id: r.scraper_id,
  input: r.input,
  status: r.status,
  created_at: r.created_at,
  started_at: r.started_at,
  finished_at: r.finished_at,
  progress: r.progress,
  stats: r.stats,
  engines_used: r.engines_used,
  stop_reason: r.stop_reason,
  error: r.error,
  webhook_url: r.webhook_url,
  browser_profile: r.browser_profile,
});
