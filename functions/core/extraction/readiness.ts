import { AppError, paymentRequired } from '../errors.js';
import { assertQuota, getUsage, quotaOf } from '../limits/usage.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';
import type { JsonOptions } from './json-options.js';
import { MODEL_NOT_CONFIGURED_MESSAGE } from './model-not-configured.js';
import { wantsTyped } from '../typed/typed-options.js';


/**
 * Submit-time checks of a request that asks for the json format (POST /v1/scrape, run creation,
 * the MCP tools), cheapest first (issue 27): a provider is configured (422
 * `model_not_configured`), the tenant has model tokens left (402 `quota_exceeded`), then the
 * schema is checked on a budget thread (limits/budget-pool.ts): 422 `schema_too_complex` past its
 * static limits, its time or its heap, 400 when it is not a usable JSON Schema. So a tenant with
 * no tokens left never gets a schema compiled, and no schema is compiled on the thread that
 * serves other tenants. Nothing to do when the request does not ask for json.
 */
export async function assertExtractionReady(d: Pick<Deps, 'table' | 'model' | 'config'>, tenant: Tenant, request: { formats?: readonly string[]; json_options?: JsonOptions; typed_options?: { model?: boolean } }, now: Date): Promise<void> {
  // Typed formats with typed_options.model call the same model: configured and with tokens left, or told now.
  if (request.typed_options?.model && wantsTyped(request) && !(request.formats?.includes('json') && request.json_options)) {
    if (!d.model) throw new AppError(422, 'model_not_configured', MODEL_NOT_CONFIGURED_MESSAGE);
    await assertQuota(d.table, tenant, 'model_tokens', now);
    return;
  }
  if (!request.formats?.includes('json') || !request.json_options) return;
  if (!d.model) throw new AppError(422, 'model_not_configured', MODEL_NOT_CONFIGURED_MESSAGE);
  await assertQuota(d.table, tenant, 'model_tokens', now);
  // Each call reserves up to its output tokens on top of its input (token-reservation.ts): a
  // tenant without room for even that is told now, not item by item.
  const cap = quotaOf(tenant, 'model_tokens');
  if (cap != null) {
    const used = (await getUsage(d.table, tenant.tenant_id, now)).model_tokens;
    if (used + d.config.modelOutputTokens > cap) throw paymentRequired(`The monthly model token quota (${cap}) has ${Math.max(0, cap - used)} tokens left, and a model call may take up to ${d.config.modelOutputTokens} output tokens on top of its input; it resets at the start of next month (UTC)`, 'quota_exceeded');
  }
  // The pool (and ajv, on its thread) is loaded only for requests that carry a schema.
  const { checkSchema } = await import('./schema-budget.js');
  await checkSchema(request.json_options.schema, tenant.tenant_id);
}
