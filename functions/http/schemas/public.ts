import { z } from 'zod';
import { RUN_STATUSES } from '../../core/runs/run-record.js';
import { queryStatuses } from '../../core/queries/queries.js';
import { deliveryRecordSchema } from '../../core/webhooks/deliveries.js';
import { SOURCE_NAMES } from '../../config.js';

/**
 * Public response shapes shared by more than one contract group: the output side of the
 * core's `publicX()` mappers. Objects are closed (additionalProperties: false in the document),
 * so a field a mapper adds without the contract fails the e2e contract check.
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
  progress: z.object({ pages_done: z.number(), pages_total: z.number().nullable(), items: z.number() }),
  stats: z.object({ requests: z.number(), bytes: z.number(), blocked_requests: z.number(), robots_skipped: z.number() }),
  engines_used: z.record(z.string(), z.number()),
  stop_reason: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  webhook_url: z.string().nullable(),
  browser_profile: z.string().nullable(),
});

/** `publicQuery` (core/queries/queries.ts); `error` only when failed. */
export const querySchema = z.object({
  query_id: z.string(),
  prompt: z.string(),
  sources: z.array(z.enum(SOURCE_NAMES)),
  /** The submitted window (`{since?, until?}` or `{last}`), or null. */
  time_window: z.unknown(),
  limit: z.number().int(),
  status: z.enum(queryStatuses),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  job_id: z.string().nullable(),
  error: z.string().optional(),
});

/** `publicDelivery` (core/webhooks/deliveries.ts): the record without internals, the body parsed as `payload`. */
export const deliverySchema = deliveryRecordSchema
  .pick({ delivery_id: true, webhook_id: true, event: true, url: true, status: true, attempts: true, last_status_code: true, last_error: true, next_attempt_at: true, created_at: true, updated_at: true, attempt_log: true })
  .extend({ payload: z.unknown() });
