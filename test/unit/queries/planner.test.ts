import { describe, expect, it, vi } from 'vitest';
import {
  createLlmPlanner,
  createPlanner,
  parseLlmPlan,
  PLANNER_SYSTEM_PROMPT,
  PlannerOutputError,
  queryPlanSchema,
  rulePlanner,
  withFallback,
  type BedrockLike,
  type LlmRequest,
  type PlanInput,
} from '../../../functions/core/queries/planner.js';
import { planFromPrompt } from '../../../functions/core/queries/rule-planner.js';

const now = new Date('2026-03-18T12:00:00.000Z');
const input: PlanInput = { prompt: 'Find posts about "electric vehicles" #EV -tesla in Spanish last 3 days', now };
const rulePlan = planFromPrompt(input.prompt, now);

const fakeBedrock = (answer: string | Error) => {
  const calls: LlmRequest[] = [];
  const bedrock: BedrockLike = {
    async converse(req) {
      calls.push(req);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { bedrock, calls };
};

const goodAnswer = JSON.stringify({
  keywords: ['Charging', 'charging', 'batteries'],
  phrases: ['electric vehicles'],
  hashtags: ['#EV'],
  mentions: ['@Tesla'],
  exclude: ['tesla'],
  language: 'ES',
  since: '2026-03-15T12:00:00Z',
  until: '2026-03-18T12:00:00Z',
});

describe('createPlanner', () => {
  it('is the rule planner when Bedrock is not configured', async () => {
    expect(createPlanner({})).toBe(rulePlanner);
    expect(createPlanner({ bedrockModelId: 'm' })).toBe(rulePlanner);
    expect(createPlanner({ bedrock: fakeBedrock(goodAnswer).bedrock })).toBe(rulePlanner);
    expect(await createPlanner().plan(input)).toStrictEqual(rulePlan);
  });

  it('uses the model answer when it is valid', async () => {
    const { bedrock, calls } = fakeBedrock(goodAnswer);
    const onFallback = vi.fn();
    const plan = await createPlanner({ bedrockModelId: 'model-1', bedrock, onFallback }).plan(input);
    expect(plan).toStrictEqual({
      keywords: ['charging', 'batteries'],
      phrases: ['electric vehicles'],
      hashtags: ['EV'],
      mentions: ['Tesla'],
      exclude: ['tesla'],
      language: 'es',
      since: '2026-03-15T12:00:00.000Z',
      until: '2026-03-18T12:00:00.000Z',
    });
    expect(queryPlanSchema.parse(plan)).toStrictEqual(plan);
    expect(onFallback).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ modelId: 'model-1', system: PLANNER_SYSTEM_PROMPT, temperature: 0 });
    expect(calls[0].user).toContain('2026-03-18T12:00:00.000Z');
    expect(calls[0].user).toContain(input.prompt);
  });

  it.each([
    ['invalid JSON', 'Sure! Here is your plan: {keywords: [ev]}'],
    ['no JSON at all', 'I cannot help with that.'],
    ['wrong types', JSON.stringify({ keywords: 'ev', phrases: [] })],
    ['bad hashtag', JSON.stringify({ keywords: ['ev'], hashtags: ['two words'] })],
    ['bad language', JSON.stringify({ keywords: ['ev'], language: 'spanish' })],
    ['bad datetime', JSON.stringify({ keywords: ['ev'], since: 'last week' })],
    ['inverted window', JSON.stringify({ keywords: ['ev'], since: '2026-03-18T00:00:00Z', until: '2026-03-01T00:00:00Z' })],
    ['empty plan', JSON.stringify({ keywords: [], phrases: [] })],
    ['an array', '[]'],
  ])('falls back to the rule planner on %s', async (_name, answer) => {
    const onFallback = vi.fn();
    const plan = await createPlanner({ bedrockModelId: 'm', bedrock: fakeBedrock(answer).bedrock, onFallback }).plan(input);
    expect(plan).toStrictEqual(rulePlan);
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(onFallback.mock.calls[0][0]).toBeInstanceOf(PlannerOutputError);
  });

  it('falls back to the rule planner when Bedrock throws', async () => {
    const onFallback = vi.fn();
    const err = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    const plan = await createPlanner({ bedrockModelId: 'm', bedrock: fakeBedrock(err).bedrock, onFallback }).plan(input);
    expect(plan).toStrictEqual(rulePlan);
    expect(onFallback).toHaveBeenCalledWith(err);
  });

  it('the explicit window wins over the model and over the rule planner', async () => {
    const window = { since: '2026-01-01T00:00:00.000Z', until: '2026-01-02T00:00:00.000Z' };
    const llm = await createPlanner({ bedrockModelId: 'm', bedrock: fakeBedrock(goodAnswer).bedrock }).plan({ ...input, window });
    expect({ since: llm.since, until: llm.until }).toStrictEqual(window);
    const rule = await createPlanner().plan({ ...input, window });
    expect({ since: rule.since, until: rule.until }).toStrictEqual(window);
  });
});

describe('parseLlmPlan', () => {
  it('accepts code fences and null fields; without a model window uses the rule window', () => {
    const text = '```json\n{"keywords":["ev"],"phrases":null,"language":null,"since":null,"until":null}\n```';
    // phrases: null is not an array: invalid.
    expect(() => parseLlmPlan(text, input)).toThrow(PlannerOutputError);
    const ok = '```json\n{"keywords":["ev"],"language":null,"since":null,"until":null}\n```';
    expect(parseLlmPlan(ok, input)).toStrictEqual({
      keywords: ['ev'],
      phrases: [],
      hashtags: [],
      mentions: [],
      exclude: [],
      since: '2026-03-15T12:00:00.000Z', // "last 3 days" via the rule planner
      until: '2026-03-18T12:00:00.000Z',
    });
  });

  it('caps until at now and defaults since to until - 7 days', () => {
    const plan = parseLlmPlan(JSON.stringify({ keywords: ['ev'], until: '2026-12-31T00:00:00Z' }), input);
    expect(plan.since).toBe('2026-03-11T12:00:00.000Z');
    expect(plan.until).toBe('2026-03-18T12:00:00.000Z');
    const sinceOnly = parseLlmPlan(JSON.stringify({ keywords: ['ev'], since: '2026-03-01T00:00:00+01:00' }), input);
    expect(sinceOnly.since).toBe('2026-02-28T23:00:00.000Z');
    expect(sinceOnly.until).toBe('2026-03-18T12:00:00.000Z');
  });

  it('ignores extra keys and rejects too many terms', () => {
    expect(parseLlmPlan(JSON.stringify({ keywords: ['ev'], reasoning: 'because' }), input).keywords).toEqual(['ev']);
    const many = Array.from({ length: 26 }, (_, i) => `w${i}`);
    expect(() => parseLlmPlan(JSON.stringify({ keywords: many }), input)).toThrow(/keywords/);
  });
});

describe('createLlmPlanner', () => {
  it('throws (does not fall back) on an invalid answer', async () => {
    await expect(createLlmPlanner('m', fakeBedrock('not json').bedrock).plan(input)).rejects.toThrow(/not valid JSON|no JSON/);
  });
});

describe('withFallback', () => {
  it('uses the fallback only when the primary throws', async () => {
    const primary = { plan: vi.fn().mockRejectedValueOnce(new Error('boom')).mockResolvedValueOnce(rulePlan) };
    const fallback = { plan: vi.fn().mockResolvedValue({ ...rulePlan, keywords: ['fallback'] }) };
    const p = withFallback(primary, fallback);
    expect((await p.plan(input)).keywords).toEqual(['fallback']);
    expect(await p.plan(input)).toBe(rulePlan);
    expect(fallback.plan).toHaveBeenCalledTimes(1);
  });
});
