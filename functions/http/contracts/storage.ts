import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { resultFileSchema } from '../../core/storage/result-files.js';

/** Contracts of storage.list, storage.get, storage.delete. */

export const storageListQuery = pageQuery.extend({ job_id: z.string().max(64).optional() });
export const storageKeyParams = z.strictObject({ key: z.string().min(1).max(200) });
export const storageGetQuery = z.strictObject({ download: z.enum(['0', '1', 'true', 'false']).optional() });

export const contracts = defineContracts({
  'storage.list': { summary: 'List stored result files, newest first', query: storageListQuery, success: { 200: { description: 'Files', schema: listOf(resultFileSchema) } } },
  'storage.get': {
    summary: 'The raw JSON result of a file key or a query_id',
    params: storageKeyParams,
    query: storageGetQuery,
    success: { 200: { description: 'The stored JSON, byte for byte (an attachment with ?download=1)', media: { 'application/json': { schema: {} } }, headers: ['Content-Disposition'] } },
    errors: { 404: 'No such file' },
  },
  'storage.delete': { summary: 'Delete a stored result file', params: storageKeyParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such file' } },
});
