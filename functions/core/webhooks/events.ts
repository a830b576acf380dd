import * as z from 'zod';
import { resultUrl, runResultsUrl } from '../events/public-url.js';
import type { QueryRecord } from '../queries/queries.js';
import type { Config } from '../../config.js';

import type { RunCompletedMessage } from '../queue-messages.js';
// The deliveries queue's messages live with every other queue message (core/queue-messages.ts).
export { jobCompletedMessage, runCompletedMessage, type JobCompletedMessage, type RunCompletedMessage } from '../queue-messages.js';

/** SPEC.md 6 / API.md: `{event, query_id, job_id, status, completed_at, result_url}` (+ `error` when failed). */
export const jobCompletedPayloadSchema = z.object({
  event: z.literal('job.completed'),
  query_id: z.string(),
  job_id: z.string(),
  status: z.enum(['completed', 'failed']),
  completed_at: z.string(),
  result_url: z.string().nullable(),
  error: z.string().optional(),
});
export type JobCompletedPayload = z.infer<typeof jobCompletedPayloadSchema>;

export const runCompletedPayloadSchema = z.object({
  event: z.literal('run.completed'),
  run_id: z.string(),
  status: z.string(),
  completed_at: z.string(),
  results_url: z.string(),
});
export type RunCompletedPayload = z.infer<typeof runCompletedPayloadSchema>;

type UrlConfig = Pick<Config, 'publicUrl' | 'port' | 'mode'>;

/**
 * The job.completed payload for a finished job run. `result_url` is GET /v1/storage/{key} of the
 * run's result file (null when the run failed: there is no file).
 */
export function jobCompletedPayload(q: QueryRecord, config: UrlConfig, now: Date): JobCompletedPayload {
  if (q.status !== 'completed' && q.status !== 'failed') throw new Error(`Query ${q.query_id} has not finished (${q.status})`);
  const completed = q.status === 'completed';
  return {
    event: 'job.completed',
    query_id: q.query_id,
    job_id: q.job_id ?? '',
    status: q.status,
    completed_at: q.completed_at ?? now.toISOString(),
    result_url: completed ? resultUrl(config, q.result_key ?? q.query_id) : null,
    ...(completed ? {} : { error: q.error ?? 'The run failed' }),
  };
}

/** The run.completed payload (API.md "Webhooks and events"). */
export function runCompletedPayload(m: RunCompletedMessage, config: UrlConfig): RunCompletedPayload {
  return {
    event: 'run.completed',
    run_id: m.run_id,
    status: m.status,
    completed_at: m.completed_at,
    results_url: m.results_url ?? runResultsUrl(config, m.run_id),
  };
}
