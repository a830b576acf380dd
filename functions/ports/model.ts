/**
 * A language model that answers with JSON shaped by a JSON Schema (DESIGN.md "Models"). One call:
 * messages and a schema in, the model's answer and its token usage out. The prompt, the repair
 * turn, validation, budgets and metering live in the core (core/extraction); adapters only move
 * the call over a transport (Bedrock Converse tool use, OpenAI-compatible chat completions).
 */

/** A previous answer of the model, sent back in a repair turn. */
export interface ModelAnswer {
  /** The parsed JSON, when the answer was JSON at all. */
  json?: unknown;
  /** The answer as the model gave it (JSON text, or whatever text came instead). */
  text: string;
  /** Transport id of the tool call that carried the answer (Bedrock `toolUseId`), if any. */
  callId?: string;
}

/**
 * One turn of the conversation. A user turn that follows an assistant answer is the caller's
 * feedback on that answer (a transport with tool calls sends it as the call's result).
 */
export type ModelMessage = { role: 'user'; text: string } | { role: 'assistant'; answer: ModelAnswer };

export interface ModelRequest {
  /** Instructions, kept apart from the user turns (Converse `system`, chat `system` message). */
  system: string;
  messages: ModelMessage[];
  /** JSON Schema the answer must follow: `type: "object"` at the top. Sent unchanged. */
  schema: Record<string, unknown>;
  /** Name of the answer's tool / response format: `[A-Za-z0-9_-]{1,64}`. */
  schemaName: string;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelResponse {
  answer: ModelAnswer;
  usage: ModelUsage;
  /** The model that answered (as the provider names it). */
  model: string;
  /** The answer was cut off by the output token limit. */
  truncated: boolean;
}

/** Why a model call failed: decides between retrying later and giving up on this item. */
export type ModelErrorKind = 'throttled' | 'invalid_request' | 'provider_error';

/** A failed model call, classified by the adapter. Messages never contain credentials. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    /** The provider's status (HTTP), when there was one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ModelError';
  }
  /** Throttling and provider faults may succeed later; an invalid request never does. */
  get retryable(): boolean {
    return this.kind !== 'invalid_request';
  }
}

/** A configured model provider. */
export interface Model {
  /** Provider and model, for usage records and audit: `bedrock:<modelId>`, `openai:<model>`. */
  readonly id: string;
  generate(req: ModelRequest): Promise<ModelResponse>;
}
