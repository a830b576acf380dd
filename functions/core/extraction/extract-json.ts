import { ModelError, type Model, type ModelMessage, type ModelResponse } from '../../ports/model.js';
import { AppError } from '../errors.js';
import { log } from '../log.js';
import { checkSchema, validateAnswer } from './schema-budget.js';
import { buildExtractionPrompt, repairMessage } from './prompt.js';
import { estimateTokens } from './token-budget.js';
import type { JsonError, JsonExtractionInput, JsonOutcome, JsonUsage } from './types.js';

/** Name of the answer's tool (Bedrock) / response format (chat completions). */
export const ANSWER_NAME = 'extracted_data';

/** One model call as the governance layer sees it (audit record, metering). */
export interface ModelCallReport {
  model: string;
  input_tokens: number;
  output_tokens: number;
  /** `valid`: the answer matched the schema; `invalid`: it did not; `error`: the call failed. */
  result: 'valid' | 'invalid' | 'error';
  error?: ModelError;
  /** Tokens reserved for this call by {@link ExtractJsonOptions.reserve} (0 when none), to settle. */
  reserved: number;
}

export interface ExtractJsonOptions {
  /** Tokens the user turn may take; the page is cut to fit (json_usage.truncated). */
  maxInputTokens: number;
  maxOutputTokens: number;
  signal?: AbortSignal;
  /** Called after every call that was made, whatever happens next: audit and metering (awaited). */
  onCall?: (report: ModelCallReport) => Promise<void>;
  /**
   * Called before each call with the most it can cost (its input estimate plus every output token
   * it may produce): hold them against the quota, or answer a `json_error` and no call is made.
   */
  reserve?: (tokens: number) => Promise<JsonError | null>;
  /** Whose work the schema checks are (the tenant), for fair turns on the budget pool. */
  owner?: string;
  /** Tries after a throttled call (default 2), waiting 1 s, then 2 s. */
  throttleRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Fixed delimiter nonce (tests). */
  nonce?: string;
}

/** Wait `ms`, or less when `signal` aborts; the listener goes with the wait (the signal is run-long). */
const sleepFor = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * `json_error` of a failed call: what the caller can do about it, in words of our own. The
 * provider's own message (it may quote a key prefix, an organisation, an internal URL) goes to the
 * operator's log only.
 */
export function callError(e: ModelError): JsonError {
  if (e.kind === 'throttled') return { code: 'model_throttled', message: 'The model provider is throttling requests; try again later' };
  if (e.kind === 'invalid_request') return { code: 'model_rejected', message: 'The model provider refused the request (the operator\'s log has the details)' };
  return { code: 'model_unavailable', message: 'The model call failed (the operator\'s log has the details)' };
}

/** Tokens the repair turn's own text may take (its list of problems is capped at 10 short lines). */
const REPAIR_TURN_TOKENS = 600;

/**
 * Extract one object from one page: the prompt (page content delimited, cut to the budget), one
 * model call with the caller's schema, validation on a budget thread, and at most one repair turn
 * that shows the model its validation errors. Returns `json` only when it is valid against the
 * schema; otherwise a `json_error` (never invalid data). Each page is its own conversation: nothing
 * from another item, and nothing a page says, reaches the schema or the instructions. Every call
 * made is reported to `onCall` (metering, audit) whatever happens after it.
 */
export async function extractJson(model: Model, input: JsonExtractionInput, opts: ExtractJsonOptions): Promise<JsonOutcome> {
  const prompt = buildExtractionPrompt({ url: input.url, markdown: input.markdown, prompt: input.prompt, maxInputTokens: opts.maxInputTokens, nonce: opts.nonce });
  const usage: JsonUsage = { model: model.id, input_tokens: 0, output_tokens: 0, truncated: prompt.truncated };
  // The schema first, under its budget: a schema that cannot be applied costs no model call.
  try {
    await checkSchema(input.schema, opts.owner);
  } catch (e) {
    return { json_error: schemaError(e), json_usage: usage };
  }
  const messages: ModelMessage[] = [{ role: 'user', text: prompt.user }];
  let problems: string[] = [];
  // What a call may take in: the prompt as sent (turn 1), plus the last answer and the repair text.
  let inputEstimate = estimateTokens(prompt.system) + estimateTokens(prompt.user) + 16;

  for (let turn = 0; turn < 2; turn++) {
    const reserved = inputEstimate + opts.maxOutputTokens;
    if (opts.reserve) {
      const refused = await opts.reserve(reserved);
      if (refused) return { json_error: refused, json_usage: usage };
    }
    let res: ModelResponse;
    try {
      res = await callWithRetries(model, prompt.system, messages, input.schema, opts);
    } catch (e) {
      const err = e instanceof ModelError ? e : new ModelError('provider_error', (e as Error).message ?? String(e), undefined, { cause: e });
      log.warn('model call failed', { model: model.id, kind: err.kind, status: err.status, detail: err.message });
      await opts.onCall?.({ model: model.id, input_tokens: 0, output_tokens: 0, result: 'error', error: err, reserved: opts.reserve ? reserved : 0 });
      return { json_error: callError(err), json_usage: usage };
    }
    usage.model = res.model;
    usage.input_tokens += res.usage.inputTokens;
    usage.output_tokens += res.usage.outputTokens;
    const json = res.answer.json;
    const isObject = json !== null && typeof json === 'object' && !Array.isArray(json);
    let valid = false;
    let failure: JsonError | undefined;
    try {
      if (isObject) ({ valid, problems } = await validateAnswer(input.schema, json, opts.owner));
      else problems = [res.truncated ? 'the answer was cut off at the output token limit' : `got ${json === undefined ? 'text that is not JSON' : Array.isArray(json) ? 'an array' : typeof json}`];
    } catch (e) {
      failure = schemaError(e);
    } finally {
      // The call was made: it is metered and audited whatever validation did.
      await opts.onCall?.({ model: res.model, input_tokens: res.usage.inputTokens, output_tokens: res.usage.outputTokens, result: valid ? 'valid' : 'invalid', reserved: opts.reserve ? reserved : 0 });
    }
    if (failure) return { json_error: failure, json_usage: usage };
    if (valid) return { json, json_usage: usage };
    if (turn === 0) {
      messages.push({ role: 'assistant', answer: res.answer }, { role: 'user', text: repairMessage(problems, !isObject, prompt.nonce) });
      inputEstimate += Math.max(res.usage.outputTokens, estimateTokens(res.answer.text)) + REPAIR_TURN_TOKENS;
    }
  }
  return {
    json_error: { code: 'schema_mismatch', message: `The model's answer did not match the schema after one repair turn: ${problems.slice(0, 3).join('; ')}` },
    json_usage: usage,
  };
}

/** A schema that could not be checked or applied, as the item's `json_error` (never a 5xx). */
function schemaError(e: unknown): JsonError {
  if (e instanceof AppError && e.status < 500) return { code: e.code, message: e.message };
  log.error('schema check failed', { err: e });
  return { code: 'schema_too_complex', message: 'The JSON Schema could not be applied within its budget' };
}

async function callWithRetries(model: Model, system: string, messages: ModelMessage[], schema: Record<string, unknown>, opts: ExtractJsonOptions): Promise<ModelResponse> {
  const retries = opts.throttleRetries ?? 2;
  for (let attempt = 0; ; attempt++) {
    try {
      // A copy of the messages: the adapter sees this turn's conversation, not a live array.
      return await model.generate({ system, messages: [...messages], schema, schemaName: ANSWER_NAME, maxOutputTokens: opts.maxOutputTokens, signal: opts.signal });
    } catch (e) {
      if (!(e instanceof ModelError) || e.kind !== 'throttled' || attempt >= retries || opts.signal?.aborted) throw e;
      await (opts.sleep ?? ((ms) => sleepFor(ms, opts.signal)))(1000 * 2 ** attempt);
    }
  }
}
