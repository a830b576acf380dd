import { ModelError, type Model, type ModelAnswer, type ModelRequest, type ModelResponse } from '../../ports/model.js';

/**
 * The Model port over any OpenAI-compatible chat completions endpoint (Ollama, vLLM, LM Studio,
 * OpenAI itself): `POST {baseUrl}/chat/completions` with `response_format: { type: "json_schema",
 * json_schema: { name, schema, strict } }`; the answer is `choices[0].message.content`, a JSON
 * string. API: https://platform.openai.com/docs/api-reference/chat/create
 *
 * The endpoint is the operator's configuration (GLEANER_LLM_BASE_URL), not a tenant's target, so
 * it does not go through the egress guard and may be loopback (a local Ollama). Redirects are
 * never followed: the API key is only ever sent to the configured origin.
 */

export interface OpenAiCompatibleOptions {
  /** Base URL including the version path: `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Abort a call after this long (default 120 s: local models can be slow). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

interface ChatCompletion {
  model?: string;
  choices?: Array<{ message?: { content?: string | null; refusal?: string | null }; finish_reason?: string }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * OpenAI's strict mode accepts only schemas where every object lists all its properties as
 * required and forbids others; anything else is a 400 there. Strict is asked for only when the
 * caller's schema already has that shape; other schemas are sent as they are (servers that
 * constrain decoding, like vLLM and Ollama, follow them either way, and ajv checks the answer).
 */
export function strictCompatible(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length) {
    const s = stack.pop();
    if (Array.isArray(s)) {
      stack.push(...s);
      continue;
    }
    if (!s || typeof s !== 'object') continue;
    const o = s as Record<string, unknown>;
    if (o.type === 'object' || o.properties) {
      const props = Object.keys((o.properties as Record<string, unknown> | undefined) ?? {});
      const required = Array.isArray(o.required) ? (o.required as unknown[]) : [];
      if (o.additionalProperties !== false || props.some((p) => !required.includes(p))) return false;
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'enum' && k !== 'const' && k !== 'default' && k !== 'examples') stack.push(v);
  }
  return true;
}

function toMessages(req: ModelRequest): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: req.system }];
  for (const m of req.messages) out.push(m.role === 'assistant' ? { role: 'assistant', content: m.answer.text || '(empty answer)' } : { role: 'user', content: m.text });
  return out;
}

/** The provider's error message (OpenAI: `{ error: { message, type, code } }`; some servers: a string). */
async function errorMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const m = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (m) return m.slice(0, 300);
  } catch {
    /* not JSON */
  }
  return text.slice(0, 300) || res.statusText;
}

/** A {@link Model} on an OpenAI-compatible endpoint. */
export function createOpenAiCompatibleModel(opts: OpenAiCompatibleOptions): Model {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const doFetch = opts.fetch ?? fetch;
  return {
    id: `openai:${opts.model}`,
    async generate(req: ModelRequest): Promise<ModelResponse> {
      const body = {
        model: opts.model,
        messages: toMessages(req),
        temperature: 0,
        max_tokens: req.maxOutputTokens,
        response_format: { type: 'json_schema', json_schema: { name: req.schemaName, schema: req.schema, strict: strictCompatible(req.schema) } },
      };
      const timeout = AbortSignal.timeout(opts.timeoutMs ?? 120_000);
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal: req.signal ? AbortSignal.any([req.signal, timeout]) : timeout,
        });
      } catch (err) {
        const name = (err as Error).name;
        const why = name === 'TimeoutError' || name === 'AbortError' ? 'the model call timed out or was cancelled' : `could not reach the model endpoint (${(err as Error).message})`;
        throw new ModelError('provider_error', why, undefined, { cause: err });
      }
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        throw new ModelError('provider_error', `the model endpoint answered a redirect (${res.status}); redirects are not followed: set GLEANER_LLM_BASE_URL to the final URL`, res.status);
      }
      if (!res.ok) {
        const message = `${res.status}: ${await errorMessage(res)}`;
        if (res.status === 429) throw new ModelError('throttled', message, res.status);
        if (res.status >= 400 && res.status < 500) throw new ModelError('invalid_request', message, res.status);
        throw new ModelError('provider_error', message, res.status);
      }
      let completion: ChatCompletion;
      try {
        completion = (await res.json()) as ChatCompletion;
      } catch (err) {
        throw new ModelError('provider_error', 'the model endpoint answered something that is not JSON', res.status, { cause: err });
      }
      const choice = completion.choices?.[0];
      const content = choice?.message?.content ?? '';
      let answer: ModelAnswer = { text: content || (choice?.message?.refusal ? `(refused: ${choice.message.refusal})` : '') };
      try {
        if (content) answer = { json: JSON.parse(content) as unknown, text: content };
      } catch {
        /* not JSON: the core's repair turn says so */
      }
      return {
        answer,
        usage: { inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 },
        model: `openai:${completion.model ?? opts.model}`,
        truncated: choice?.finish_reason === 'length',
      };
    },
  };
}
