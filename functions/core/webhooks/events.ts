import * as z from 'zod';
import { resultUrl, runResultsUrl } from '../events/public-url.js';
import type { QueryRecord } from '../queries/queries.js';
import type { RunRecord } from '../runs/run-record.js';
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

/**
 * API.md "Scheduled runs": job.completed for a run job's run. `changes` counts its pages by
 * change status when the run tracked changes (the `changes` format), else null; `error` is the
 * run's error when it did not succeed.
 */
export const jobRunCompletedPayloadSchema = z.object({
  event: z.literal('job.completed'),
  job_id: z.string(),
  run_id: z.string(),
  status: z.string(),
  completed_at: z.string(),
  results_url: z.string(),
  changes: z.object({ new: z.number(), same: z.number(), changed: z.number(), removed: z.number(), unavailable: z.number() }).nullable(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type JobRunCompletedPayload = z.infer<typeof jobRunCompletedPayloadSchema>;

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

/** The job.completed payload for a run job's finished run (see {@link jobRunCompletedPayloadSchema}). */
export function jobRunCompletedPayload(run: RunRecord, config: UrlConfig, now: Date): JobRunCompletedPayload {
  return {
    event: 'job.completed',
    job_id: run.job_id ?? '',
    run_id: run.id,
    status: run.status,
    completed_at: run.finished_at ?? now.toISOString(),
    results_url: runResultsUrl(config, run.id),
    changes: run.stats.changes ?? null,
    ...(run.error ? { error: run.error } : {}),
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
