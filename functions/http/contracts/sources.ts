import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf } from '../schemas/common.js';
import { SOURCE_NAMES } from '../../config.js';

/** Contracts of sources.list, sources.put, sources.delete. */

export const sourceParams = z.strictObject({ source: z.enum(SOURCE_NAMES, { message: `source must be one of ${SOURCE_NAMES.join(', ')}` }) });
export const sourceCredentialsBody = z.record(z.string().min(1).max(64), z.string().min(1).max(8192));
const sourceSchema = z.object({
  source: z.enum(SOURCE_NAMES),
  configured: z.boolean(),
  fields: z.array(z.string()),
  updated_at: z.string().nullable(),
  credential_fields: z.array(z.looseObject({ name: z.string(), required: z.boolean() })),
  access: z.string(),
});

export const contracts = defineContracts({
  'sources.list': { summary: 'Which sources have credentials (names of fields only) and what each needs', success: { 200: { description: 'Sources', schema: listOf(sourceSchema) } } },
  'sources.put': {
    summary: "Store a source's credentials (encrypted, never returned)",
    params: sourceParams,
    body: sourceCredentialsBody,
    success: { 200: { description: 'Stored (field names only)', schema: z.object({ source: z.enum(SOURCE_NAMES), fields: z.array(z.string()), updated_at: z.string(), configured: z.literal(true) }) } },
  },
  'sources.delete': { summary: "Remove a source's credentials", params: sourceParams, success: { 204: { description: 'Removed' } } },

});
