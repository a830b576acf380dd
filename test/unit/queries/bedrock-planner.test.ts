import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it, vi } from 'vitest';
import {
  createBedrockConverse,
  createBedrockPlanner,
  type ConverseClientLike,
} from '../../../functions/adapters/aws/bedrock-planner.js';
import { createPlanner, PLANNER_SYSTEM_PROMPT, PlannerOutputError } from '../../../functions/core/queries/planner.js';
import { planFromPrompt } from '../../../functions/core/queries/rule-planner.js';

// The real client satisfies the slice the adapter uses (compile-time check; no call is made).
const _real: ConverseClientLike = new BedrockRuntimeClient({ region: 'us-east-1' });
void _real;

const now = new Date('2026-03-18T12:00:00.000Z');
const prompt = 'What are people saying about #AI regulation in the past 24 hours?';

type Answer = Awaited<ReturnType<ConverseClientLike['send']>>;
const fakeClient = (answer: Answer | Error) => {
  const commands: ConverseCommand[] = [];
  const signals: Array<AbortSignal | undefined> = [];
  const client: ConverseClientLike = {
    send: vi.fn(async (command: ConverseCommand, options?: { abortSignal?: AbortSignal }) => {
      commands.push(command);
      signals.push(options?.abortSignal);
      if (answer instanceof Error) throw answer;
      return answer;
    }),
  };
  return { client, commands, signals };
};
const textAnswer = (...texts: string[]): Answer => ({
  output: { message: { content: texts.map((text) => ({ text })) } },
  stopReason: 'end_turn',
});

describe('createBedrockPlanner (fake Converse client)', () => {
  it('sends one ConverseCommand with the system prompt and parses the JSON answer', async () => {
    const { client, commands, signals } = fakeClient(
      textAnswer(
        '{"keywords":["regulation"],"phrases":[],"hashtags":["AI"],',
        '"mentions":[],"exclude":[],"language":null,"since":"2026-03-17T12:00:00Z","until":"2026-03-18T12:00:00Z"}',
      ),
    );
    const plan = await createBedrockPlanner('anthropic.claude-3-haiku-20240307-v1:0', client).plan({ prompt, now });
    expect(plan).toStrictEqual({
      keywords: ['regulation'],
      phrases: [],
      hashtags: ['AI'],
      mentions: [],
      exclude: [],
      since: '2026-03-17T12:00:00.000Z',
      until: '2026-03-18T12:00:00.000Z',
    });
    expect(commands).toHaveLength(1);
    expect(commands[0]).toBeInstanceOf(ConverseCommand);
    const sent = commands[0].input;
    expect(sent.modelId).toBe('anthropic.claude-3-haiku-20240307-v1:0');
    expect(sent.system).toEqual([{ text: PLANNER_SYSTEM_PROMPT }]);
    expect(sent.messages).toHaveLength(1);
    expect(sent.messages![0].role).toBe('user');
    expect(JSON.stringify(sent.messages![0].content)).toContain('#AI regulation');
    expect(sent.inferenceConfig).toEqual({ maxTokens: 800, temperature: 0 });
    expect(signals[0]).toBeInstanceOf(AbortSignal);
  });

  it('throws on invalid JSON, and the composite falls back to the rule planner', async () => {
    const { client } = fakeClient(textAnswer('{"keywords": ["ai", }'));
    await expect(createBedrockPlanner('m', client).plan({ prompt, now })).rejects.toThrow(PlannerOutputError);

    const onFallback = vi.fn();
    const planner = createPlanner({ bedrockModelId: 'm', bedrock: createBedrockConverse(client), onFallback });
    expect(await planner.plan({ prompt, now })).toStrictEqual(planFromPrompt(prompt, now));
    expect(onFallback).toHaveBeenCalledTimes(1);
  });

  it('throws on an answer without text or cut off by max_tokens', async () => {
    await expect(createBedrockPlanner('m', fakeClient({ output: { message: { content: [] } } }).client).plan({ prompt, now })).rejects.toThrow(
      /no text/,
    );
    await expect(
      createBedrockPlanner('m', fakeClient({ ...textAnswer('{"keywords":["a"'), stopReason: 'max_tokens' }).client).plan({ prompt, now }),
    ).rejects.toThrow(/max_tokens/);
  });

  it('wraps SDK errors with their name; the composite falls back', async () => {
    const sdkError = Object.assign(new Error('Access denied to model'), { name: 'AccessDeniedException' });
    const { client } = fakeClient(sdkError);
    const err = await createBedrockPlanner('m', client).plan({ prompt, now }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('Bedrock Converse failed (AccessDeniedException): Access denied to model');
    expect((err as Error).cause).toBe(sdkError);

    const planner = createPlanner({ bedrockModelId: 'm', bedrock: createBedrockConverse(client) });
    expect(await planner.plan({ prompt, now })).toStrictEqual(planFromPrompt(prompt, now));
  });
});
