import { z } from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { querySchema } from '../schemas/public.js';
import { querySubmitSchema, queryStatuses } from '../../core/queries/queries.js';
import { resultFileSchema } from '../../core/storage/result-files.js';
import { SOURCE_NAMES } from '../../config.js';

/** Contracts of the queries surface: queries, stored result files, source credentials. */

export const queryIdParams = z.strictObject({ query_id: z.string().regex(/^qry_[0-9a-z]{26}$/, 'expected a qry_… id') });
export const queriesListQuery = pageQuery.extend({ status: z.enum(queryStatuses).optional(), job_id: z.string().max(64).optional() });
export const storageListQuery = pageQuery.extend({ job_id: z.string().max(64).optional() });
export const storageKeyParams = z.strictObject({ key: z.string().min(1).max(200) });
export const storageGetQuery = z.strictObject({ download: z.enum(['0', '1', 'true', 'false']).optional() });
export const sourceParams = z.strictObject({ source: z.enum(SOURCE_NAMES, { message: `source must be one of ${SOURCE_NAMES.join(', ')}` }) });
export const sourceCredentialsBody = z.record(z.string().min(1).max(64), z.string().min(1).max(8192));

export const querySubmitted = z.object({ query_id: z.string(), status: z.literal('queued'), created_at: z.string() });
/** A polled query: `results` and `result_url` once completed. */
const queryDetail = querySchema.extend({ results: z.unknown().optional(), result_url: z.string().optional() });
const sourceSchema = z.object({
  source: z.enum(SOURCE_NAMES),
  configured: z.boolean(),
  fields: z.array(z.string()),
  updated_at: z.string().nullable(),
  credential_fields: z.array(z.looseObject({ name: z.string(), required: z.boolean() })),
  access: z.string(),
});

export const contracts = defineContracts({
  'queries.create': {
    summary: 'Submit a natural-language query against one or more sources',
    body: querySubmitSchema,
    requestExample: { prompt: 'What do people say about our new pricing?', sources: ['reddit', 'x'], time_window: { last: '7d' }, limit: 100 },
    success: { 202: { description: 'Queued; poll GET /v1/queries/{query_id}', schema: querySubmitted, headers: ['Location'], example: { query_id: 'qry_01jd8x3k2m4n5p6q7r8s9t0v1w', status: 'queued', created_at: '2026-11-23T10:00:00.000Z' } } },
  },
  'queries.list': { summary: 'List queries, newest first', query: queriesListQuery, success: { 200: { description: 'Queries', schema: listOf(querySchema) } } },
  'queries.get': {
    summary: 'Poll a query; results when completed, error when failed',
    params: queryIdParams,
    success: { 200: { description: 'The query', schema: queryDetail } },
    errors: { 404: 'No such query' },
  },
  'storage.list': { summary: 'List stored result files, newest first', query: storageListQuery, success: { 200: { description: 'Files', schema: listOf(resultFileSchema) } } },
  'storage.get': {
    summary: 'The raw JSON result of a file key or a query_id',
    params: storageKeyParams,
    query: storageGetQuery,
    success: { 200: { description: 'The stored JSON, byte for byte (an attachment with ?download=1)', media: { 'application/json': { schema: {} } }, headers: ['Content-Disposition'] } },
    errors: { 404: 'No such file' },
  },
  'storage.delete': { summary: 'Delete a stored result file', params: storageKeyParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such file' } },
  'sources.list': { summary: 'Which sources have credentials (names of fields only) and what each needs', success: { 200: { description: 'Sources', schema: listOf(sourceSchema) } } },
  'sources.put': {
    summary: "Store a source's credentials (encrypted, never returned)",
    params: sourceParams,
    body: sourceCredentialsBody,
    success: { 200: { description: 'Stored (field names only)', schema: z.object({ source: z.enum(SOURCE_NAMES), fields: z.array(z.string()), updated_at: z.string(), configured: z.literal(true) }) } },
  },
  'sources.delete': { summary: "Remove a source's credentials", params: sourceParams, success: { 204: { description: 'Removed' } } },
});
