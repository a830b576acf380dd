import type { ContentBlock, ConverseCommand, ConverseCommandOutput, Message, ToolUseBlock } from '@aws-sdk/client-bedrock-runtime';
import { SDK_CLIENT_OPTIONS } from './sdk-options.js';
import { bedrockSdk } from './sdk-modules.js';
import { ModelError, type Model, type ModelAnswer, type ModelRequest, type ModelResponse } from '../../ports/model.js';

/**
 * The Model port over Amazon Bedrock's Converse API with tool use: the caller's JSON Schema is the
 * one tool's `inputSchema.json`, and `toolChoice: { tool: { name } }` makes the model answer by
 * calling it, so the answer is the tool call's `input` object. The repair turn goes back as the
 * tool call's `toolResult`. API: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 */

/** Smithy's JSON document type, as the SDK's tool-use blocks take it. */
type DocumentType = NonNullable<ToolUseBlock['input']>;

/** The slice of `BedrockRuntimeClient` used here. */
export interface ConverseSender {
  send(command: ConverseCommand, options?: { abortSignal?: AbortSignal }): Promise<ConverseCommandOutput>;
}

export interface BedrockModelOptions {
  /** Foundation model id, inference profile id or ARN (`-c extractionModelId=`). */
  modelId: string;
  /** A client of your own (tests point one at a fake endpoint); default: the runtime's region and role. */
  client?: ConverseSender;
  /** Abort a call after this long (default 120 s). */
  timeoutMs?: number;
}

/** Bedrock's documented errors: which are throttling, which are the request's fault. */
const THROTTLED = new Set(['ThrottlingException', 'ServiceQuotaExceededException']);
const INVALID = new Set(['ValidationException', 'AccessDeniedException', 'ResourceNotFoundException']);

function classify(err: unknown): ModelError {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const name = e?.name ?? 'Error';
  const status = e?.$metadata?.httpStatusCode;
  const message = `${name}: ${(e?.message ?? String(err)).slice(0, 300)}`;
  if (name === 'AbortError' || name === 'TimeoutError') return new ModelError('provider_error', 'the model call timed out or was cancelled', undefined, { cause: err });
  if (THROTTLED.has(name) || status === 429) return new ModelError('throttled', message, status, { cause: err });
  if (INVALID.has(name)) return new ModelError('invalid_request', message, status, { cause: err });
  return new ModelError('provider_error', message, status, { cause: err });
}

/** Port messages as Converse messages: an answer echoed back is the tool call; feedback on it, its result. */
function toMessages(req: ModelRequest): Message[] {
  const out: Message[] = [];
  let pendingCall: string | undefined;
  for (const m of req.messages) {
    if (m.role === 'assistant') {
      const a = m.answer;
      pendingCall = a.callId;
      const content: ContentBlock[] = a.callId
        ? [{ toolUse: { toolUseId: a.callId, name: req.schemaName, input: (a.json ?? {}) as DocumentType } }]
        : [{ text: a.text || '(empty answer)' }];
      out.push({ role: 'assistant', content });
    } else if (pendingCall) {
      // Converse requires the result of every tool call in the next user turn.
      out.push({ role: 'user', content: [{ toolResult: { toolUseId: pendingCall, content: [{ text: m.text }] } }] });
      pendingCall = undefined;
    } else out.push({ role: 'user', content: [{ text: m.text }] });
  }
  return out;
}

function answerOf(res: ConverseCommandOutput, toolName: string): ModelAnswer {
  const blocks = res.output?.message?.content ?? [];
  const call = blocks.find((b) => b.toolUse && b.toolUse.name === toolName)?.toolUse ?? blocks.find((b) => b.toolUse)?.toolUse;
  if (call) return { json: call.input as unknown, text: JSON.stringify(call.input ?? null), callId: call.toolUseId };
  // No tool call (a model that ignored toolChoice): read its text as JSON if it is.
  const text = blocks.map((b) => b.text ?? '').join('').trim();
  try {
    return { json: JSON.parse(text) as unknown, text };
  } catch {
    return { text };
  }
}

/**
 * A {@link Model} on Bedrock for `modelId`. The SDK is loaded, and the client created, on the
 * first call: every function's deps hold this model, and only the ones that extract load Bedrock.
 */
export function createBedrockModel(opts: BedrockModelOptions): Model {
  let client = opts.client;
  return {
    id: `bedrock:${opts.modelId}`,
    async generate(req: ModelRequest): Promise<ModelResponse> {
      const { BedrockRuntimeClient, ConverseCommand } = bedrockSdk();
      client ??= new BedrockRuntimeClient({ ...SDK_CLIENT_OPTIONS });
      const command = new ConverseCommand({
        modelId: opts.modelId,
        system: [{ text: req.system }],
        messages: toMessages(req),
        inferenceConfig: { maxTokens: req.maxOutputTokens, temperature: 0 },
        toolConfig: {
          tools: [{ toolSpec: { name: req.schemaName, description: 'Record the data extracted from the page, following the schema exactly.', inputSchema: { json: req.schema as DocumentType } } }],
          toolChoice: { tool: { name: req.schemaName } },
        },
      });
      const timeout = AbortSignal.timeout(opts.timeoutMs ?? 120_000);
      let res: ConverseCommandOutput;
      try {
        res = await client.send(command, { abortSignal: req.signal ? AbortSignal.any([req.signal, timeout]) : timeout });
      } catch (err) {
        throw classify(err);
      }
      return {
        answer: answerOf(res, req.schemaName),
        usage: { inputTokens: res.usage?.inputTokens ?? 0, outputTokens: res.usage?.outputTokens ?? 0 },
        model: `bedrock:${opts.modelId}`,
        truncated: res.stopReason === 'max_tokens',
      };
    },
  };
}
