import * as z from 'zod';
import { resultUrl, runResultsUrl } from '../events/public-url.js';
import type { QueryRecord } from '../queries/queries.js';
import type { Config } from '../../config.js';

/** Deliveries queue message: a job's query reached completed or failed (sent by events/query-finished.ts). */
export const jobCompletedMessage = z.object({
  kind: z.literal('job.completed'),
  tenant_id: z.string().min(1),
  query_id: z.string().min(1),
  job_id: z.string().min(1),
});
export type JobCompletedMessage = z.infer<typeof jobCompletedMessage>;

/**
 * Deliveries queue message: a run reached a terminal state (sent by the runs worker). `webhook_url`
 * is the run's own callback (POST /v1/runs `webhook_url`), signed with the tenant's job-webhook
 * secret; registered endpoints subscribed to `run.completed` receive it too. `results_url` may be
 * omitted: it is then built from the public base URL.
 */
export const runCompletedMessage = z.object({
  kind: z.literal('run.completed'),
  tenant_id: z.string().min(1),
  run_id: z.string().min(1),
  status: z.string().min(1),
  completed_at: z.string().datetime({ offset: true }),
  results_url: z.string().min(1).optional(),
  webhook_url: z.string().url().nullable().optional(),
});
export type RunCompletedMessage = z.infer<typeof runCompletedMessage>;

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
