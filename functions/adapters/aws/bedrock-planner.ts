import type { ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { SDK_CLIENT_OPTIONS } from './sdk-options.js';
import { bedrockSdk } from './sdk-modules.js';
import {
  createLlmPlanner,
  PlannerOutputError,
  type BedrockLike,
  type LlmRequest,
  type Planner,
} from '../../core/queries/planner.js';

/**
 * Bedrock transport of the query planner: one Converse API turn per plan. The prompt, the JSON
 * contract and its zod validation live in the core (`createLlmPlanner`, `parseLlmPlan`); this
 * file only moves text to and from Bedrock.
 */

/** The slice of `BedrockRuntimeClient` used here (a fake in unit tests). */
export interface ConverseClientLike {
  send(
    command: ConverseCommand,
    options?: { abortSignal?: AbortSignal },
  ): Promise<{
    output?: { message?: { content?: Array<{ text?: string }> } };
    stopReason?: string;
  }>;
}

export interface BedrockConverseOptions {
  /** Abort the call after this long (default 15 s); the composite planner then falls back. */
  timeoutMs?: number;
}

/**
 * A {@link BedrockLike} over `ConverseCommand`. Without `client`, a `BedrockRuntimeClient` for
 * the runtime's region and credentials is created on first use.
 */
export function createBedrockConverse(client?: ConverseClientLike, opts: BedrockConverseOptions = {}): BedrockLike {
  let resolved = client;
  return {
    async converse(req: LlmRequest): Promise<string> {
      const { BedrockRuntimeClient, ConverseCommand } = bedrockSdk();
      resolved ??= new BedrockRuntimeClient({ ...SDK_CLIENT_OPTIONS });
      const command = new ConverseCommand({
        modelId: req.modelId,
        system: [{ text: req.system }],
        messages: [{ role: 'user', content: [{ text: req.user }] }],
        inferenceConfig: { maxTokens: req.maxTokens, temperature: req.temperature },
      });
      let response: Awaited<ReturnType<ConverseClientLike['send']>>;
      try {
        response = await resolved.send(command, { abortSignal: AbortSignal.timeout(opts.timeoutMs ?? 15_000) });
      } catch (err) {
        const name = err instanceof Error ? err.name : 'Error';
        const message = err instanceof Error ? err.message : String(err);
        throw new Error(`Bedrock Converse failed (${name}): ${message}`, { cause: err });
      }
      if (response.stopReason === 'max_tokens') throw new PlannerOutputError('model answer was cut off (max_tokens)');
      const text = (response.output?.message?.content ?? [])
        .map((block) => block.text ?? '')
        .join('')
        .trim();
      if (!text) throw new PlannerOutputError('model answer has no text');
      return text;
    },
  };
}

/**
 * The Bedrock query planner for `modelId` (e.g. `anthropic.claude-3-haiku-20240307-v1:0` or an
 * inference profile id). It throws on any failure, including an answer that is not a valid plan;
 * wrap it with `createPlanner`/`withFallback` to fall back to the rule planner.
 */
export function createBedrockPlanner(modelId: string, client?: ConverseClientLike, opts: BedrockConverseOptions = {}): Planner {
  return createLlmPlanner(modelId, createBedrockConverse(client, opts));
}
