import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { querySchema } from '../schemas/query.js';
import { runSchema } from '../schemas/run.js';
import { jobCreateSchema, jobUpdateSchema, jobStatuses, jobRecordSchema } from '../../core/jobs/jobs.js';

/** Contracts of jobs.list, jobs.create, jobs.get, jobs.update, jobs.delete, jobs.run, jobs.runs. */

const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `expected a ${prefix}_… id`);
export const jobIdParams = z.strictObject({ job_id: id('job') });
export const jobsListQuery = pageQuery.extend({ status: z.enum(jobStatuses).optional() });
/** Public job: the stored record without internals, plus the computed next run. */
const jobSchema = jobRecordSchema.omit({ tenant_id: true, schedule_name: true, secrets_use: true }).extend({ time_window: z.unknown(), next_run_at: z.string().nullable() });
const jobRunStarted = z.union([
  z.object({ query_id: z.string(), job_id: z.string(), status: z.literal('queued'), created_at: z.string() }),
  z.object({ run_id: z.string(), job_id: z.string(), status: z.literal('queued'), created_at: z.string() }),
]);
const jobExample = { label: 'Daily pricing pulse', prompt: 'What do people say about our pricing?', sources: ['reddit'], schedule: '0 8 * * *', limit: 50 };
// A run job: { label, scraper_id: 'page-content', input: { url }, schedule: '30 7 * * 1-5', timezone: 'Europe/Berlin' } (README, Jobs).

export const contracts = defineContracts({
  'jobs.list': { summary: 'List jobs, newest first', query: jobsListQuery, success: { 200: { description: 'Jobs', schema: listOf(jobSchema) } } },
  'jobs.create': {
    summary: 'Create a job: a recurring query (prompt + sources; each run stores <query_id>_<timestamp>.json) or a recurring run of any scraper or published runbook (scraper_id + input), on a 5-field cron read in timezone (IANA, default UTC)',
    body: jobCreateSchema,
    requestExample: jobExample,
    success: { 201: { description: 'The job', schema: jobSchema, headers: ['Location'] } },
    errors: {
      400: '`invalid_request` naming the field; `invalid_schedule` (EventBridge cannot run it); `schedule_too_frequent` (body.schedule): two fires would come closer than the tenant\'s `min_job_interval_seconds` (default 300)',
      403: '`forbidden`: besides jobs:write, a run job needs runs:write and runs:read, a query job queries:write and queries:read (details name the missing scopes)',
      409: '`job_limit_reached`: the tenant holds its `max_jobs` (default 100) already',
    },
  },
  'jobs.get': { summary: 'A job, with next_run_at (null while paused), last_run, its owner (the key that created or last resumed it), status_reason (why the scheduler paused it) and last_skip (the latest fire that started nothing, and why)', params: jobIdParams, success: { 200: { description: 'The job', schema: jobSchema } }, errors: { 404: 'No such job' } },
  'jobs.update': {
    summary: 'Pause or resume, reschedule or change the timezone, change or clear (null) the webhook_url, rename, or give a run job a new input (checked against its scraper)',
    params: jobIdParams,
    body: jobUpdateSchema,
    requestExample: { status: 'paused' },
    success: { 200: { description: 'The job', schema: jobSchema } },
    errors: {
      400: '`invalid_request` naming the field; `schedule_too_frequent` (body.schedule) below the tenant\'s floor between fires',
      403: '`forbidden`: the scopes of what the job runs are needed to change it (runs:write and runs:read, or queries:write and queries:read)',
      404: 'No such job',
    },
  },
  'jobs.delete': { summary: 'Delete a job and its schedule (irreversible; past results stay)', params: jobIdParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such job' } },
  'jobs.run': {
    summary: 'Run the job now; returns the query_id (query job) or run_id (run job) of the run',
    params: jobIdParams,
    success: { 202: { description: 'Queued; poll GET /v1/queries/{query_id} or GET /v1/runs/{run_id}', schema: jobRunStarted, headers: ['Location'] } },
    errors: { 403: '`forbidden`: running a job needs the scopes of what it runs (runs:write and runs:read, or queries:write and queries:read)', 404: 'No such job' },
  },
  'jobs.runs': {
    summary: "The job's runs, newest first: a query job's queries, a run job's runs (as GET /v1/runs lists them)",
    params: jobIdParams,
    query: pageQuery,
    success: { 200: { description: 'Queries (query job) or runs (run job) of the job', schema: z.union([listOf(querySchema), listOf(runSchema)]) } },
    errors: { 404: 'No such job' },
  },
});
