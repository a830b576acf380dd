import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf } from '../schemas/common.js';
import { SEARCH_PROVIDERS } from '../../core/search/types.js';

/** Contracts of search-providers.list, .put, .delete, .test (a tenant's search provider credentials). */

export const providerParams = z.strictObject({ provider: z.enum(SEARCH_PROVIDERS, { message: `provider must be one of ${SEARCH_PROVIDERS.join(', ')}` }) });
/** `{ api_key }` for brave, tavily and exa; `{ base_url, api_key? }` for searxng (checked against the adapter's fields). */
export const providerCredentialsBody = z.record(z.string().min(1).max(64), z.string().min(1).max(2048));
const storedSchema = z.object({ provider: z.enum(SEARCH_PROVIDERS), fields: z.array(z.string()), updated_at: z.string(), configured: z.literal(true) });
const providerSchema = z.object({
  provider: z.enum(SEARCH_PROVIDERS),
  configured: z.boolean(),
  fields: z.array(z.string()),
  updated_at: z.string().nullable(),
  credential_fields: z.array(z.object({ name: z.string(), required: z.boolean(), description: z.string() })),
  access: z.string(),
});
const testSchema = z.object({
  provider: z.enum(SEARCH_PROVIDERS),
  ok: z.boolean(),
  results: z.number().int(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  checked_at: z.string(),
});

export const contracts = defineContracts({
  'search-providers.list': { summary: 'Which search providers have credentials (field names only) and what each needs', success: { 200: { description: 'Providers', schema: listOf(providerSchema) } } },
  'search-providers.put': {
    summary: "Store a search provider's credentials (encrypted, never returned)",
    params: providerParams,
    body: providerCredentialsBody,
    requestExample: { api_key: 'your-provider-key' },
    success: { 200: { description: 'Stored (field names only)', schema: storedSchema } },
  },
  'search-providers.delete': { summary: "Remove a search provider's credentials", params: providerParams, success: { 204: { description: 'Removed' } } },
  'search-providers.test': {
    summary: "Save and test: save (when a body is given), then run a one-result search with the provider's stored credentials",
    params: providerParams,
    body: providerCredentialsBody.optional(),
    bodyOptional: true,
    success: { 200: { description: 'The outcome of the test search (the provider\'s own error text is never shown)', schema: testSchema } },
    errors: { 422: 'The provider has no credentials (search_not_configured)' },
  },
});
