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
  stats: z.object({
    requests: z.number(), bytes: z.number(), blocked_requests: z.number(), robots_skipped: z.number(),
    /** Pages by change status, when the run tracked changes (the `changes` format); absent otherwise. */
    changes: z.object({ new: z.number(), same: z.number(), changed: z.number(), removed: z.number(), unavailable: z.number() }).optional(),
  }),
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
  /** The job that started the run (a run job's scheduled or run-now run), or null. */
  job_id: z.string().nullable().default(null),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

/** The fields of a run the API shows (API.md Run); the response schema is picked from the record's. */
const PUBLIC_FIELDS = {
  id: true, scraper_id: true, input: true, status: true, created_at: true, started_at: true, finished_at: true,
  progress: true, stats: true, engines_used: true, stop_reason: true, error: true, webhook_url: true, browser_profile: true,
  job_id: true,
} as const;
export const publicRunSchema = runRecordSchema.pick(PUBLIC_FIELDS);
export type PublicRun = z.infer<typeof publicRunSchema>;

export const publicRun = (r: RunRecord): PublicRun =>
  Object.fromEntries(Object.keys(PUBLIC_FIELDS).map((k) => [k, r[k as keyof PublicRun]])) as PublicRun;
