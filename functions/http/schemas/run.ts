import * as z from 'zod';
import { RUN_STATUSES } from '../../core/runs/run-record.js';

/**
 * A public response shape shared by several contract groups. Its own module, so a handler's
 * bundle carries only the shapes its group uses. Objects are closed (additionalProperties: false
 * in the document): a field the core's mapper adds without the contract fails the e2e check.
 */

/** `publicRun` (core/runs/run-record.ts). */
export const runSchema = z.object({
  id: z.string(),
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
    // Site crawls (distributed) also report these (API.md, large crawls).
    pages_queued: z.number().optional(),
    pages_failed: z.number().optional(),
    rate_per_s: z.number().nullable().optional(),
    eta_s: z.number().nullable().optional(),
  }),
  stats: z.object({ requests: z.number(), bytes: z.number(), blocked_requests: z.number(), robots_skipped: z.number() }),
  engines_used: z.record(z.string(), z.number()),
  stop_reason: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  webhook_url: z.string().nullable(),
  browser_profile: z.string().nullable(),
});
