import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { querySchema } from '../schemas/query.js';
import { querySubmitSchema, queryStatuses } from '../../core/queries/queries.js';

/** Contracts of queries.create, queries.list, queries.get. */

export const queryIdParams = z.strictObject({ query_id: z.string().regex(/^qry_[0-9a-z]{26}$/, 'expected a qry_… id') });
export const queriesListQuery = pageQuery.extend({ status: z.enum(queryStatuses).optional(), job_id: z.string().max(64).optional() });
export const querySubmitted = z.object({ query_id: z.string(), status: z.literal('queued'), created_at: z.string() });
/** A polled query: `results` and `result_url` once completed. */
const queryDetail = querySchema.extend({ results: z.unknown().optional(), result_url: z.string().optional() });

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
});
