import { ModelError, type Model, type ModelMessage, type ModelResponse } from '../../ports/model.js';
import { buildExtractionPrompt, repairMessage } from './prompt.js';
import { compileSchema, describeErrors } from './schema-compile.js';
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
}

export interface ExtractJsonOptions {
  /** Tokens the user turn may take; the page is cut to fit (json_usage.truncated). */
  maxInputTokens: number;
  maxOutputTokens: number;
  signal?: AbortSignal;
  /** Called after every call, before the next one: audit and metering (awaited). */
  onCall?: (report: ModelCallReport) => Promise<void>;
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

/** `json_error` of a failed call: what the caller can do about it. */
export function callError(e: ModelError): JsonError {
  if (e.kind === 'throttled') return { code: 'model_throttled', message: `The model provider is throttling requests; try again later (${e.message})` };
  if (e.kind === 'invalid_request') return { code: 'model_rejected', message: `The model provider refused the request: ${e.message}` };
  return { code: 'model_unavailable', message: `The model call failed: ${e.message}` };
}

/**
 * Extract one object from one page: the prompt (page content delimited, cut to the budget), one
 * model call with the caller's schema, ajv validation, and at most one repair turn that shows the
 * model its validation errors. Returns `json` only when it is valid against the schema; otherwise
 * a `json_error` (never invalid data). Each page is its own conversation: nothing from another
 * item, and nothing a page says, reaches the schema or the instructions.
 */
export async function extractJson(model: Model, input: JsonExtractionInput, opts: ExtractJsonOptions): Promise<JsonOutcome> {
  const validate = compileSchema(input.schema);
  const prompt = buildExtractionPrompt({ url: input.url, markdown: input.markdown, prompt: input.prompt, maxInputTokens: opts.maxInputTokens, nonce: opts.nonce });
  const usage: JsonUsage = { model: model.id, input_tokens: 0, output_tokens: 0, truncated: prompt.truncated };
  const messages: ModelMessage[] = [{ role: 'user', text: prompt.user }];
  let problems: string[] = [];

  for (let turn = 0; turn < 2; turn++) {
    let res: ModelResponse;
    try {
      res = await callWithRetries(model, prompt.system, messages, input.schema, opts);
    } catch (e) {
      const err = e instanceof ModelError ? e : new ModelError('provider_error', (e as Error).message ?? String(e), undefined, { cause: e });
      await opts.onCall?.({ model: model.id, input_tokens: 0, output_tokens: 0, result: 'error', error: err });
      return { json_error: callError(err), json_usage: usage };
    }
    usage.model = res.model;
    usage.input_tokens += res.usage.inputTokens;
    usage.output_tokens += res.usage.outputTokens;
    const json = res.answer.json;
    const isObject = json !== null && typeof json === 'object' && !Array.isArray(json);
    const valid = isObject && validate(json);
    problems = !isObject ? [res.truncated ? 'the answer was cut off at the output token limit' : `got ${json === undefined ? 'text that is not JSON' : Array.isArray(json) ? 'an array' : typeof json}`] : valid ? [] : describeErrors(validate.errors);
    await opts.onCall?.({ model: res.model, input_tokens: res.usage.inputTokens, output_tokens: res.usage.outputTokens, result: valid ? 'valid' : 'invalid' });
    if (valid) return { json, json_usage: usage };
    if (turn === 0) messages.push({ role: 'assistant', answer: res.answer }, { role: 'user', text: repairMessage(problems, !isObject) });
  }
  return {
    json_error: { code: 'schema_mismatch', message: `The model's answer did not match the schema after one repair turn: ${problems.slice(0, 3).join('; ')}` },
    json_usage: usage,
  };
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
