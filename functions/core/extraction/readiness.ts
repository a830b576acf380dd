import { AppError } from '../errors.js';
import { assertQuota } from '../limits/usage.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';
import type { JsonOptions } from './json-options.js';

/** What to do when no model provider is configured (422 model_not_configured, and item errors). */
export const MODEL_NOT_CONFIGURED_MESSAGE =
  'Model extraction (the json format) needs a model provider, and none is configured. Locally or self-hosted: set GLEANER_LLM_BASE_URL ' +
  '(an OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama) and GLEANER_LLM_MODEL (plus GLEANER_LLM_API_KEY if it needs one). ' +
  'On AWS: deploy with -c extractionModelId=<Bedrock model or inference profile id>.';

/**
 * Submit-time checks of a request that asks for the json format (POST /v1/scrape, run creation,
 * the MCP tools), in the order a caller can fix them: the schema compiles (400), a provider is
 * configured (422 `model_not_configured`), the tenant has model tokens left (402 `quota_exceeded`).
 * Nothing to do when the request does not ask for json.
 */
export async function assertExtractionReady(d: Pick<Deps, 'table' | 'model'>, tenant: Tenant, request: { formats?: readonly string[]; json_options?: JsonOptions }, now: Date): Promise<void> {
  if (!request.formats?.includes('json') || !request.json_options) return;
  // ajv is loaded only for requests that carry a schema.
  const { compileSchema } = await import('./schema-compile.js');
  compileSchema(request.json_options.schema);
  if (!d.model) throw new AppError(422, 'model_not_configured', MODEL_NOT_CONFIGURED_MESSAGE);
  await assertQuota(d.table, tenant, 'model_tokens', now);
}
