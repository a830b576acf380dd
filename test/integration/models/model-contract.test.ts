import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../../../functions/core/extraction/schema-budget.js';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { createBedrockModel } from '../../../functions/adapters/aws/bedrock-model.js';
import { createOpenAiCompatibleModel } from '../../../functions/adapters/local/openai-compatible-model.js';
import { extractJson, type ModelCallReport } from '../../../functions/core/extraction/extract-json.js';
import { ModelError, type Model, type ModelRequest } from '../../../functions/ports/model.js';
import { startFakeBedrock } from '../../fixtures/fake-models/bedrock-converse.js';
import { startFakeOpenAi } from '../../fixtures/fake-models/openai-chat.js';
import { sequence, type FakeServer, type Responder } from '../../fixtures/fake-models/scripted.js';

// One contract for the Model port, run against both transports and their fakes (DESIGN.md
// habit 5): the same scripted answers must give the same results through Bedrock Converse tool
// use and OpenAI-compatible chat completions, repair turn and errors included.

interface Transport {
  name: string;
  start(r: Responder): Promise<{ fake: FakeServer; model: Model }>;
}

const transports: Transport[] = [
  {
    name: 'bedrock converse',
    async start(r) {
      const fake = await startFakeBedrock(r);
      const client = new BedrockRuntimeClient({ endpoint: fake.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDFAKE', secretAccessKey: 'fake' }, maxAttempts: 1 });
      return { fake, model: createBedrockModel({ modelId: 'anthropic.claude-3-haiku-20240307-v1:0', client }) };
    },
  },
  {
    name: 'openai-compatible',
    async start(r) {
      const fake = await startFakeOpenAi(r, { apiKey: 'sk-test' });
      return { fake, model: createOpenAiCompatibleModel({ baseUrl: `${fake.url}/v1`, model: 'llama3.1', apiKey: 'sk-test' }) };
    },
  },
];

const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number', minimum: 0 }, in_stock: { type: 'boolean' } },
  required: ['name', 'price', 'in_stock'],
  additionalProperties: false,
};
const page = '# Blue kettle\n\nPrice: 24.50 EUR\n\nIn stock: yes';
const input = { url: 'https://shop.example/kettle', markdown: page, schema };
const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'You extract data.',
  messages: [{ role: 'user', text: page }],
  schema,
  schemaName: 'extracted_data',
  maxOutputTokens: 512,
  ...over,
});
const noSleep = async () => {};

// Schemas are checked on a budget thread (limits/budget-pool.ts): start it (and load ajv there)
// once, before the tests, so that no test's own timeout pays for a thread's start.
beforeAll(() => checkSchema({ type: 'object' }), 120_000);

describe.each(transports)('Model port over $name', (t) => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const start = async (r: Responder) => {
    const s = await t.start(r);
    fake = s.fake;
    return s.model;
  };

  it('returns the answer as JSON with the provider token counts, sending the schema unchanged', async () => {
    const model = await start(sequence({ json: { name: 'Blue kettle', price: 24.5, in_stock: true }, usage: { input: 321, output: 17 } }));

    const res = await model.generate(request());

    expect(res.answer.json).toEqual({ name: 'Blue kettle', price: 24.5, in_stock: true });
    expect(res.usage).toEqual({ inputTokens: 321, outputTokens: 17 });
    expect(res.truncated).toBe(false);
    expect(fake!.calls[0]!.schema).toEqual(schema);
    expect(fake!.calls[0]!.name).toBe('extracted_data');
    expect(fake!.calls[0]!.system).toBe('You extract data.');
  });

  it('reports an answer cut off at the output limit as truncated', async () => {
    const model = await start(sequence({ truncated: '{"name": "Blue ke' }));
    const res = await model.generate(request());
    expect(res.truncated).toBe(true);
    expect(res.answer.json).toBeUndefined();
  });

  it('classifies throttling, invalid requests and provider faults', async () => {
    const model = await start(sequence({ throttle: true }, { invalid: 'maxTokens is too large' }, { fault: true }));
    const kinds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const err = await model.generate(request()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelError);
      kinds.push((err as ModelError).kind);
    }
    expect(kinds).toEqual(['throttled', 'invalid_request', 'provider_error']);
  });

  it('valid first answer: json and usage, one call', async () => {
    const model = await start(sequence({ json: { name: 'Blue kettle', price: 24.5, in_stock: true } }));
    const reports: ModelCallReport[] = [];

    const out = await extractJson(model, input, { maxInputTokens: 4000, maxOutputTokens: 512, onCall: async (r) => void reports.push(r) });

    expect(out.json).toEqual({ name: 'Blue kettle', price: 24.5, in_stock: true });
    expect(out.json_error).toBeUndefined();
    expect(out.json_usage!.input_tokens).toBeGreaterThan(0);
    expect(out.json_usage!.truncated).toBe(false);
    expect(reports.map((r) => r.result)).toEqual(['valid']);
    expect(fake!.calls).toHaveLength(1);
  });

  it('invalid then repaired: the repair turn carries the validation errors and the previous answer', async () => {
    const model = await start(sequence({ json: { name: 'Blue kettle', price: '24.50 EUR', in_stock: 'yes' } }, { json: { name: 'Blue kettle', price: 24.5, in_stock: true } }));
    const reports: ModelCallReport[] = [];

    const out = await extractJson(model, input, { maxInputTokens: 4000, maxOutputTokens: 512, onCall: async (r) => void reports.push(r) });

    expect(out.json).toEqual({ name: 'Blue kettle', price: 24.5, in_stock: true });
    expect(reports.map((r) => r.result)).toEqual(['invalid', 'valid']);
    const repair = fake!.calls[1]!;
    expect(repair.assistantTexts).toEqual([JSON.stringify({ name: 'Blue kettle', price: '24.50 EUR', in_stock: 'yes' })]);
    expect(repair.userTexts.at(-1)).toContain('"/price": must be number');
    expect(repair.userTexts.at(-1)).toContain('"/in_stock": must be boolean');
    expect(repair.schema).toEqual(schema);
    expect(out.json_usage!.input_tokens).toBe(reports[0]!.input_tokens + reports[1]!.input_tokens);
  });

  it('invalid twice: json_error schema_mismatch, never the invalid data', async () => {
    const model = await start(sequence({ json: { name: 'Blue kettle' } }, { text: 'Sorry, I cannot do that.' }));

    const out = await extractJson(model, input, { maxInputTokens: 4000, maxOutputTokens: 512 });

    expect(out.json).toBeUndefined();
    expect(out.json_error!.code).toBe('schema_mismatch');
    expect(fake!.calls).toHaveLength(2);
    expect(out.json_usage!.output_tokens).toBeGreaterThan(0);
  });

  it('throttled calls are tried again, then reported as model_throttled', async () => {
    const model = await start(sequence({ throttle: true }, { json: { name: 'Blue kettle', price: 24.5, in_stock: true } }));
    const once = await extractJson(model, input, { maxInputTokens: 4000, maxOutputTokens: 512, sleep: noSleep });
    expect(once.json).toEqual({ name: 'Blue kettle', price: 24.5, in_stock: true });
    await fake!.close();

    const always = await start(sequence({ throttle: true }));
    const out = await extractJson(always, input, { maxInputTokens: 4000, maxOutputTokens: 512, sleep: noSleep });
    expect(out.json_error!.code).toBe('model_throttled');
    expect(fake!.calls).toHaveLength(3);
  });

  it('a rejected request is model_rejected, without retries', async () => {
    const model = await start(sequence({ invalid: 'This model does not support tool use.' }));
    const out = await extractJson(model, input, { maxInputTokens: 4000, maxOutputTokens: 512, sleep: noSleep });
    expect(out.json_error).toMatchObject({ code: 'model_rejected' });
    // The provider's words go to the operator's log, never to the tenant (issue 27).
    expect(out.json_error!.message).not.toContain('does not support tool use');
    expect(fake!.calls).toHaveLength(1);
  });
});

describe('openai-compatible transport specifics', () => {
  it('asks for strict mode only when the schema allows it, and sends the API key', async () => {
    const fake = await startFakeOpenAi(sequence({ json: { a: 'x' } }), { apiKey: 'sk-test' });
    try {
      const model = createOpenAiCompatibleModel({ baseUrl: `${fake.url}/v1/`, model: 'llama3.1', apiKey: 'sk-test' });
      await model.generate(request({ schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false } }));
      await model.generate(request({ schema: { type: 'object', properties: { a: { type: 'string' } } } }));
      expect(fake.calls.map((c) => c.body.response_format.json_schema.strict)).toEqual([true, false]);
      const wrongKey = createOpenAiCompatibleModel({ baseUrl: `${fake.url}/v1`, model: 'llama3.1', apiKey: 'sk-wrong' });
      const err = (await wrongKey.generate(request()).catch((e: unknown) => e)) as ModelError;
      expect(err.kind).toBe('invalid_request');
      expect(err.message).toContain('Incorrect API key');
    } finally {
      await fake.close();
    }
  });

  it('never follows a redirect (the key stays with the configured origin)', async () => {
    const { listen } = await import('../../fixtures/fake-models/scripted.js');
    let hits = 0;
    const target = await listen((_req, res) => {
      hits++;
      res.end('{}');
    });
    const redirector = await listen((_req, res) => {
      res.writeHead(307, { location: `${target.url}/v1/chat/completions` });
      res.end();
    });
    try {
      const model = createOpenAiCompatibleModel({ baseUrl: `${redirector.url}/v1`, model: 'm', apiKey: 'sk-secret' });
      const err = (await model.generate(request()).catch((e: unknown) => e)) as ModelError;
      expect(err.kind).toBe('provider_error');
      expect(err.message).toContain('redirect');
      expect(hits).toBe(0);
    } finally {
      await redirector.close();
      await target.close();
    }
  });
});
