import * as z from 'zod';
import { pageQuery, listOf } from './common.js';
import { jobCreateSchema, jobUpdateSchema, jobStatuses, jobRecordSchema } from '../../core/jobs/jobs.js';
import { webhookCreateSchema, webhookRecordSchema } from '../../core/webhooks/webhooks.js';
import { deliveryRecordSchema } from '../../core/webhooks/deliveries.js';
import { storageSettingsPutSchema } from '../../core/sync/settings.js';
import type { RouteDoc } from './registry.js';

const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `expected a ${prefix}_… id`);
export const jobIdParams = z.strictObject({ job_id: id('job') });
export const webhookIdParams = z.strictObject({ webhook_id: id('whk') });
export const deliveryParams = z.strictObject({ webhook_id: id('whk'), delivery_id: id('dlv') });
export const webhookUpdateBody = z.strictObject({ status: z.enum(['enabled', 'disabled']) });
export const jobsListQuery = pageQuery.extend({ status: z.enum(jobStatuses).optional() });
/** Save and test: the same body as PUT settings/storage, or none to test what is saved. */
export const storageTestBody = storageSettingsPutSchema.optional();

/** Public job: the stored record without internals, plus the computed next run. */
export const jobSchema = jobRecordSchema.omit({ tenant_id: true, schedule_name: true }).extend({ next_run_at: z.string().nullable() });
const jobRunStarted = z.object({ query_id: z.string(), job_id: z.string(), status: z.literal('queued'), created_at: z.string() });
const querySchema = z.object({ query_id: z.string(), status: z.string(), created_at: z.string(), completed_at: z.string().nullable(), job_id: z.string().nullable() });

const webhookSchema = webhookRecordSchema.omit({ tenant_id: true, secret_ciphertext: true });
/** Public delivery log entry (publicDelivery): the record without internals, the body parsed as `payload`. */
const deliverySchema = deliveryRecordSchema
  .pick({ delivery_id: true, webhook_id: true, event: true, url: true, status: true, attempts: true, last_status_code: true, last_error: true, next_attempt_at: true, created_at: true, updated_at: true, attempt_log: true })
  .extend({ payload: z.unknown() });
const outcome = z.object({ ok: z.boolean(), at: z.string(), key: z.string().nullable(), error: z.string().nullable() }).nullable();
const storageSettingsSchema = z.object({
  sync: z.object({ endpoint: z.string(), bucket: z.string(), access_key_id: z.string(), region: z.string(), force_path_style: z.boolean(), secret_access_key_set: z.boolean(), updated_at: z.string() }).nullable(),
  retention_days: z.number().int().nullable(),
  updated_at: z.string().nullable(),
  last_test: outcome,
  last_sync: outcome,
});

export const jobsDocs: Record<string, RouteDoc> = {
  'jobs.list': { summary: 'List jobs, newest first', query: jobsListQuery, response: listOf(jobSchema) },
  'jobs.create': { summary: 'Create a recurring query (5-field UTC cron); each run stores <query_id>_<timestamp>.json', body: jobCreateSchema, response: jobSchema, status: 201 },
  'jobs.get': { summary: 'A job, with next_run_at (null while paused) and last_run', params: jobIdParams, response: jobSchema },
  'jobs.update': { summary: 'Pause or resume, reschedule, change or clear (null) the webhook_url, rename', params: jobIdParams, body: jobUpdateSchema, response: jobSchema },
  'jobs.delete': { summary: 'Delete a job and its schedule (irreversible; past results stay)', params: jobIdParams, status: 204 },
  'jobs.run': { summary: 'Run the job now; returns the query_id of the run', params: jobIdParams, response: jobRunStarted, status: 202 },
  'jobs.runs': { summary: "The job's runs (its queries), newest first", params: jobIdParams, query: pageQuery, response: listOf(querySchema) },
  'webhooks.list': { summary: 'Registered webhook endpoints (never their secrets)', query: pageQuery, response: listOf(webhookSchema) },
  'webhooks.create': {
    summary: 'Register an https endpoint; the whsec_ signing secret is returned once (Standard Webhooks)',
    body: webhookCreateSchema, response: webhookSchema.extend({ secret: z.string() }), status: 201,
  },
  'webhooks.delete': { summary: 'Remove a webhook endpoint', params: webhookIdParams, status: 204 },
  'webhooks.update': { summary: 'Enable (e.g. after a 410 disabled it) or disable a webhook endpoint', params: webhookIdParams, body: webhookUpdateBody },
  'jobs.deliveries': { summary: "Deliveries to the job's own webhook_url", params: jobIdParams, query: pageQuery },
  'runs.deliveries': { summary: "Deliveries to the run's own webhook_url", params: z.strictObject({ id: z.string().regex(/^run_[0-9a-z]{26}$/, 'expected a run_… id') }), query: pageQuery },
  'webhooks.deliveries': { summary: "The endpoint's delivery log, newest first, with every attempt", params: webhookIdParams, query: pageQuery, response: listOf(deliverySchema) },
  'webhooks.retry': { summary: 'Send a finished delivery again (same webhook-id and body), once', params: deliveryParams, response: deliverySchema, status: 202 },
  'settings.webhooks.get': { summary: "The tenant's job-webhook signing secret (signs deliveries to a job's or run's own webhook_url)", response: z.object({ signing_secret: z.string(), created_at: z.string() }) },
  'settings.storage.get': { summary: 'Bucket sync and retention settings (the secret access key is never returned)', response: storageSettingsSchema },
  'settings.storage.put': { summary: 'Save bucket sync (S3-compatible endpoint, bucket, credentials) and/or retention_days', body: storageSettingsPutSchema, response: storageSettingsSchema },
  'settings.storage.test': {
    summary: 'Save and test: save (when a body is given), then upload results/.gleaner-verify-<ts>.json with the customer credentials',
    body: storageSettingsPutSchema, response: z.object({ ok: z.literal(true), key: z.string(), bucket: z.string(), at: z.string() }),
  },
};
