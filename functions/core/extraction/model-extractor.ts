import { modelQuotaMessage, quotaOf } from '../limits/usage.js';
import { reserveModelTokens, settleModelTokens } from '../limits/token-reservation.js';
import { log } from '../log.js';
import { extractJson, type ModelCallReport } from './extract-json.js';
import { MODEL_NOT_CONFIGURED_MESSAGE } from './model-not-configured.js';
import type { AuditRecord } from '../audit/audit-record.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';
import type { JsonExtractor } from './types.js';

/** Who the model calls are made for: the audit record's request id, surface and resource. */
export interface ExtractionScope {
  tenant: Tenant;
  /** The run or task id (audit `request_id`), so the calls can be found from the run. */
  requestId: string;
  surface: AuditRecord['surface'];
  /** Aborted when the run or task must end: a model call in flight is given up. */
  signal?: AbortSignal;
  /** Fixed delimiter nonce (tests). */
  nonce?: string;
  /** Waits between throttled tries (tests pass a no-op). */
  sleep?: (ms: number) => Promise<void>;
}

const STATUS: Record<ModelCallReport['result'] | 'throttled' | 'invalid_request' | 'provider_error', number> = {
  valid: 200, invalid: 422, error: 502, throttled: 429, invalid_request: 400, provider_error: 502,
};

/**
 * The engine's extraction step for one tenant, governed like every other call: before each call
 * the most it can cost is reserved against the model token quota (a single-item conditional
 * write: concurrent items and the repair turn cannot overrun it; a call that does not fit is not
 * made and the item gets `json_error` quota_exceeded), after it the reservation is settled to the
 * real count, and every call (and every refused one) leaves an audit record `model.extract` with
 * the model and its tokens.
 */
export function createJsonExtractor(d: Deps, scope: ExtractionScope): JsonExtractor {
  const tenantId = scope.tenant.tenant_id;
  const cap = quotaOf(scope.tenant, 'model_tokens');
  const audit = (url: string, outcome: AuditRecord['outcome'], status: number, model?: AuditRecord['model']) =>
    d.audit.record({
      ts: d.clock.now().toISOString(),
      request_id: scope.requestId,
      tenant_id: tenantId,
      principal: { type: 'system', id: 'model-extraction' },
      surface: scope.surface,
      action: 'model.extract',
      resource: url,
      outcome,
      status,
      ip: null,
      user_agent: null,
      ...(model ? { model } : {}),
    }).catch((err) => log.error('audit write failed', { err, request_id: scope.requestId }));

  return async (input) => {
    const model = d.model;
    if (!model) return { json_error: { code: 'model_not_configured', message: MODEL_NOT_CONFIGURED_MESSAGE } };
    // The month a reservation was made in is the one it is settled in.
    let heldAt = d.clock.now();
    return extractJson(model, input, {
      maxInputTokens: d.config.modelInputTokens,
      maxOutputTokens: d.config.modelOutputTokens,
      signal: scope.signal,
      owner: tenantId,
      nonce: scope.nonce,
      sleep: scope.sleep,
      async reserve(tokens) {
        heldAt = d.clock.now();
        if (await reserveModelTokens(d.table, tenantId, cap, tokens, heldAt)) return null;
        await audit(input.url, 'denied', 402, { model: model.id, input_tokens: 0, output_tokens: 0 });
        return { code: 'quota_exceeded', message: modelQuotaMessage(cap!) };
      },
      async onCall(call) {
        const tokens = call.input_tokens + call.output_tokens;
        // Metering and audit each run even when the other fails: a call made is never unrecorded.
        const metered = settleModelTokens(d.table, tenantId, call.reserved, tokens, heldAt).catch((err) =>
          log.error('model token metering failed', { err, request_id: scope.requestId, tokens }),
        );
        const status = call.error ? STATUS[call.error.kind] : STATUS[call.result];
        await Promise.all([metered, audit(input.url, call.result === 'valid' ? 'allowed' : 'error', status, { model: call.model, input_tokens: call.input_tokens, output_tokens: call.output_tokens })]);
      },
    });
  };
}
