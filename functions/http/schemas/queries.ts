import * as z from 'zod';
import { pageQuery } from './common.js';
import { querySubmitSchema, queryStatuses } from '../../core/queries/queries.js';
import { SOURCE_NAMES } from '../../config.js';
import type { RouteDoc } from './registry.js';

export const queryIdParams = z.strictObject({ query_id: z.string().regex(/^qry_[0-9a-z]{26}$/, 'expected a qry_… id') });
export const queriesListQuery = pageQuery.extend({ status: z.enum(queryStatuses).optional(), job_id: z.string().max(64).optional() });
export const storageListQuery = pageQuery.extend({ job_id: z.string().max(64).optional() });
export const storageKeyParams = z.strictObject({ key: z.string().min(1).max(200) });
export const storageGetQuery = z.strictObject({ download: z.enum(['0', '1', 'true', 'false']).optional() });
export const sourceParams = z.strictObject({ source: z.enum(SOURCE_NAMES, { message: `source must be one of ${SOURCE_NAMES.join(', ')}` }) });
export const sourceCredentialsBody = z.record(z.string().min(1).max(64), z.string().min(1).max(8192));

const querySubmitted = z.object({ query_id: z.string(), status: z.literal('queued'), created_at: z.string() });

export const queriesDocs: Record<string, RouteDoc> = {
  'queries.create': { summary: 'Submit a natural-language query against one or more sources', body: querySubmitSchema, response: querySubmitted, status: 202 },
  'queries.list': { summary: 'List queries, newest first', query: queriesListQuery },
  'queries.get': { summary: 'Poll a query; results when completed, error when failed', params: queryIdParams },
  'storage.list': { summary: 'List stored result files, newest first', query: storageListQuery },
  'storage.get': { summary: 'The raw JSON result of a file key or a query_id', params: storageKeyParams, query: storageGetQuery },
  'storage.delete': { summary: 'Delete a stored result file', params: storageKeyParams, status: 204 },
  'sources.list': { summary: 'Which sources have credentials (names of fields only) and what each needs' },
  'sources.put': { summary: "Store a source's credentials (encrypted, never returned)", params: sourceParams, body: sourceCredentialsBody },
  'sources.delete': { summary: "Remove a source's credentials", params: sourceParams, status: 204 },
};
