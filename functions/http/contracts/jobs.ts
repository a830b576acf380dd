import { z } from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { deliverySchema, querySchema } from '../schemas/public.js';
import { jobCreateSchema, jobUpdateSchema, jobStatuses, jobRecordSchema } from '../../core/jobs/jobs.js';
import { webhookCreateSchema, webhookRecordSchema } from '../../core/webhooks/webhooks.js';
import { storageSettingsPutSchema } from '../../core/sync/settings.js';

/** Contracts of jobs, webhooks, delivery logs and the bucket sync settings. */

const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `expected a ${prefix}_… id`);
export const jobIdParams = z.strictObject({ job_id: id('job') });
export const runIdParams = z.strictObject({ id: id('run') });
export const webhookIdParams = z.strictObject({ webhook_id: id('whk') });
export const deliveryParams = z.strictObject({ webhook_id: id('whk'), delivery_id: id('dlv') });
export const webhookUpdateBody = z.strictObject({ status: z.enum(['enabled', 'disabled']) });
export const jobsListQuery = pageQuery.extend({ status: z.enum(jobStatuses).optional() });
/** Save and test: the same body as PUT settings/storage, or none to test what is saved. */
export const storageTestBody = storageSettingsPutSchema.optional();

/** Public job: the stored record without internals, plus the computed next run. */
const jobSchema = jobRecordSchema.omit({ tenant_id: true, schedule_name: true }).extend({ time_window: z.unknown(), next_run_at: z.string().nullable() });
const jobRunStarted = z.object({ query_id: z.string(), job_id: z.string(), status: z.literal('queued'), created_at: z.string() });
const webhookSchema = webhookRecordSchema.omit({ tenant_id: true, secret_ciphertext: true });
const outcome = z.object({ ok: z.boolean(), at: z.string(), key: z.string().nullable(), error: z.string().nullable() });
const storageSettingsSchema = z.object({
  sync: z.object({ endpoint: z.string(), bucket: z.string(), access_key_id: z.string(), region: z.string(), force_path_style: z.boolean(), secret_access_key_set: z.boolean(), updated_at: z.string() }).nullable(),
  retention_days: z.number().int().nullable(),
  updated_at: z.string().nullable(),
  last_test: outcome.nullable(),
  last_sync: outcome.extend({ query_id: z.string() }).nullable(),
});
const jobExample = { label: 'Daily pricing pulse', prompt: 'What do people say about our pricing?', sources: ['reddit'], schedule: '0 8 * * *', limit: 50 };

export const contracts = defineContracts({
  'jobs.list': { summary: 'List jobs, newest first', query: jobsListQuery, success: { 200: { description: 'Jobs', schema: listOf(jobSchema) } } },
  'jobs.create': {
    summary: 'Create a recurring query (5-field UTC cron); each run stores <query_id>_<timestamp>.json',
    body: jobCreateSchema,
    requestExample: jobExample,
    success: { 201: { description: 'The job', schema: jobSchema, headers: ['Location'] } },
  },
  'jobs.get': { summary: 'A job, with next_run_at (null while paused) and last_run', params: jobIdParams, success: { 200: { description: 'The job', schema: jobSchema } }, errors: { 404: 'No such job' } },
  'jobs.update': {
    summary: 'Pause or resume, reschedule, change or clear (null) the webhook_url, rename',
    params: jobIdParams,
    body: jobUpdateSchema,
    requestExample: { status: 'paused' },
    success: { 200: { description: 'The job', schema: jobSchema } },
    errors: { 404: 'No such job' },
  },
  'jobs.delete': { summary: 'Delete a job and its schedule (irreversible; past results stay)', params: jobIdParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such job' } },
  'jobs.run': {
    summary: 'Run the job now; returns the query_id of the run',
    params: jobIdParams,
    success: { 202: { description: 'Queued; poll GET /v1/queries/{query_id}', schema: jobRunStarted, headers: ['Location'] } },
    errors: { 404: 'No such job' },
  },
  'jobs.runs': {
    summary: "The job's runs (its queries), newest first",
    params: jobIdParams,
    query: pageQuery,
    success: { 200: { description: 'Queries of the job', schema: listOf(querySchema) } },
    errors: { 404: 'No such job' },
  },
  'webhooks.list': { summary: 'Registered webhook endpoints (never their secrets)', query: pageQuery, success: { 200: { description: 'Webhooks', schema: listOf(webhookSchema) } } },
  'webhooks.create': {
    summary: 'Register an https endpoint; the whsec_ signing secret is returned once (Standard Webhooks)',
    body: webhookCreateSchema,
    requestExample: { url: 'https://hooks.example.com/gleaner', events: ['job.completed'] },
    success: { 201: { description: 'The webhook with its signing secret (shown once)', schema: webhookSchema.extend({ secret: z.string() }), headers: ['Location'] } },
  },
  'webhooks.delete': { summary: 'Remove a webhook endpoint', params: webhookIdParams, success: { 204: { description: 'Removed' } }, errors: { 404: 'No such webhook' } },
  'webhooks.update': {
    summary: 'Enable (e.g. after a 410 disabled it) or disable a webhook endpoint',
    params: webhookIdParams,
    body: webhookUpdateBody,
    requestExample: { status: 'enabled' },
    success: { 200: { description: 'The webhook', schema: webhookSchema } },
    errors: { 404: 'No such webhook' },
  },
  'jobs.deliveries': {
    summary: "Deliveries to the job's own webhook_url",
    params: jobIdParams,
    query: pageQuery,
    success: { 200: { description: 'Deliveries, newest first', schema: listOf(deliverySchema) } },
    errors: { 404: 'No such job' },
  },
  'runs.deliveries': {
    summary: "Deliveries to the run's own webhook_url",
    tag: 'runs',
    params: runIdParams,
    query: pageQuery,
    success: { 200: { description: 'Deliveries, newest first', schema: listOf(deliverySchema) } },
    errors: { 404: 'No such run' },
  },
  'webhooks.deliveries': {
    summary: "The endpoint's delivery log, newest first, with every attempt",
    params: webhookIdParams,
    query: pageQuery,
    success: { 200: { description: 'Deliveries', schema: listOf(deliverySchema) } },
    errors: { 404: 'No such webhook' },
  },
  'webhooks.retry': {
    summary: 'Send a finished delivery again (same webhook-id and body), once',
    params: deliveryParams,
    success: { 202: { description: 'Queued for one more attempt', schema: deliverySchema } },
    errors: { 404: 'No such webhook or delivery', 409: 'The webhook is disabled or the delivery is still pending' },
  },
  'settings.webhooks.get': {
    summary: "The tenant's job-webhook signing secret (signs deliveries to a job's or run's own webhook_url)",
    success: { 200: { description: 'The secret', schema: z.object({ signing_secret: z.string(), created_at: z.string() }), headers: ['Cache-Control'] } },
  },
  'settings.storage.get': { summary: 'Bucket sync and retention settings (the secret access key is never returned)', success: { 200: { description: 'Settings', schema: storageSettingsSchema } } },
  'settings.storage.put': {
    summary: 'Save bucket sync (S3-compatible endpoint, bucket, credentials) and/or retention_days',
    body: storageSettingsPutSchema,
    success: { 200: { description: 'Settings', schema: storageSettingsSchema } },
  },
  'settings.storage.test': {
    summary: 'Save and test: save (when a body is given), then upload results/.gleaner-verify-<ts>.json with the customer credentials',
    body: storageTestBody,
    bodyOptional: true,
    success: { 200: { description: 'The verification object was written', schema: z.object({ ok: z.literal(true), key: z.string(), bucket: z.string(), at: z.string() }) } },
  },
});
