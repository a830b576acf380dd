import * as z from 'zod';
import { queryStatuses } from '../../core/queries/queries.js';
import { SOURCE_NAMES } from '../../config.js';

/**
 * A public response shape shared by several contract groups. Its own module, so a handler's
 * bundle carries only the shapes its group uses. Objects are closed (additionalProperties: false
 * in the document): a field the core's mapper adds without the contract fails the e2e check.
 */

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
