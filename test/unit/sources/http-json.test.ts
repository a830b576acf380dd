import { describe, expect, it } from 'vitest';
import {
  buildSearchText,
  clampSince,
  finalizeItems,
  getJson,
  inPlanWindow,
  joinUrl,
  missingCredentialsMessage,
  parseRateLimitReset,
  parseRetryAfter,
  platformErrorMessage,
  quoteBigIntegers,
  requireCredential,
  rfc3339,
  toIso,
  toNumber,
} from '../../../functions/core/sources/http-json.js';
import { SourceError, type ConnectorContext, type FetchFn, type QueryPlan, type SourceItem } from '../../../functions/core/sources/types.js';

const plan = (over: Partial<QueryPlan> = {}): QueryPlan => ({
  keywords: [],
  phrases: [],
  hashtags: [],
  mentions: [],
  exclude: [],
  since: '2024-05-01T00:00:00Z',
  until: '2024-05-08T00:00:00Z',
  ...over,
});

/** A context whose fetch answers from a script of responses (no network). */
function scripted(responses: (Response | Error | (() => Response))[]) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const sleeps: number[] = [];
  const ac = new AbortController();
  const fetch: FetchFn = async (url, init) => {
    calls.push({ url, init });
    const next = responses.shift();
    if (!next) throw new Error('no more scripted responses');
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next;
  };
  const ctx: ConnectorContext = {
    plan: plan(),
    limit: 10,
    credentials: undefined,
    baseUrl: 'https://api.example.test',
    fetch,
    signal: ac.signal,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    // No jitter in these tests: the backoff is the full step (1 s, 2 s, 4 s …).
    random: () => 1,
  };
  return { ctx, calls, sleeps, ac };
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('getJson', () => {
  it('returns parsed JSON and sends accept: application/json with the context signal', async () => {
    const { ctx, calls } = scripted([json(200, { ok: 1 })]);
    await expect(getJson(ctx, 'https://api.example.test/a', undefined, { source: 'x' })).resolves.toEqual({ ok: 1 });
    expect(new Headers(calls[0].init?.headers).get('accept')).toBe('application/json');
    expect(calls[0].init?.signal).toBe(ctx.signal);
  });

  it('retries 5xx with exponential backoff, then succeeds', async () => {
    const { ctx, sleeps, calls } = scripted([json(503, {}), json(502, {}), json(200, { ok: true })]);
    await expect(getJson(ctx, 'https://h/a', undefined, { source: 'x' })).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('resends the same body on retry', async () => {
    const { ctx, calls } = scripted([json(500, {}), json(200, {})]);
    await getJson(ctx, 'https://h/a', { method: 'POST', body: 'a=1' }, { source: 'x' });
    expect(calls.map((c) => c.init?.body)).toEqual(['a=1', 'a=1']);
  });

  it('honours maxAttempts', async () => {
    const { ctx, calls } = scripted([json(429, {}, { 'retry-after': '1' })]);
    const err = (await getJson(ctx, 'https://h/a', undefined, { source: 'x', maxAttempts: 1 }).catch((e: unknown) => e)) as SourceError;
    expect(err.message).toBe('x rate limited (429); retry after 1 s');
    expect(err.retryable).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('retries network errors, then reports the source as unreachable', async () => {
    const boom = Object.assign(new TypeError('fetch failed'), { cause: new Error('ECONNREFUSED') });
    const { ctx, sleeps } = scripted([boom, boom, boom, boom]);
    const err = (await getJson(ctx, 'https://h/a', undefined, { source: 'reddit' }).catch((e: unknown) => e)) as SourceError;
    expect(err.message).toBe('reddit unreachable: fetch failed (ECONNREFUSED)');
    expect(err.kind).toBe('platform_down');
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });

  it('classifies 401 as credentials, 403 as permission, 400 as an invalid query, other 4xx with the platform message', async () => {
    const z = scripted([json(401, { message: 'bad token' })]);
    await expect(getJson(z.ctx, 'https://h/a', undefined, { source: 'linkedin' })).rejects.toThrow(
      'linkedin rejected the credentials (401): bad token; update them with PUT /dashboard/api/sources/linkedin',
    );
    const a = scripted([json(403, { error: { message: 'App not approved' } })]);
    await expect(getJson(a.ctx, 'https://h/a', undefined, { source: 'linkedin' })).rejects.toThrow('linkedin refused access (permission) (403): App not approved');
    const b = scripted([json(400, { errors: [{ message: 'bad query' }, { message: 'too long' }] })]);
    await expect(getJson(b.ctx, 'https://h/a', undefined, { source: 'x' })).rejects.toThrow('x rejected the query (invalid query) (400): bad query; too long');
    const c = scripted([new Response('<html>nope</html>', { status: 404, statusText: 'Not Found' })]);
    await expect(getJson(c.ctx, 'https://h/a', undefined, { source: 'x' })).rejects.toThrow('x API error (404): Not Found');
  });

  it('lets mapError override, and reports non-JSON success bodies', async () => {
    const a = scripted([json(400, { error: 'special' })]);
    await expect(getJson(a.ctx, 'https://h/a', undefined, { source: 'x', mapError: () => new SourceError('mapped') })).rejects.toThrow('mapped');
    const b = scripted([new Response('not json', { status: 200 })]);
    await expect(getJson(b.ctx, 'https://h/a', undefined, { source: 'x' })).rejects.toThrow('x returned a response that is not JSON (HTTP 200)');
    const c = scripted([new Response(null, { status: 204 })]);
    await expect(getJson(c.ctx, 'https://h/a', undefined, { source: 'x' })).resolves.toEqual({});
  });

  it('does not wait for a rate-limit Retry-After beyond maxWaitSeconds', async () => {
    const { ctx, sleeps } = scripted([json(429, {}, { 'retry-after': '120' })]);
    const err = (await getJson(ctx, 'https://h/a', undefined, { source: 'x' }).catch((e: unknown) => e)) as SourceError;
    expect(err.message).toBe('x rate limited (429); retry after 120 s');
    expect(err.retryAfterSeconds).toBe(120);
    expect(err.kind).toBe('rate');
    expect(sleeps).toEqual([]);
  });

  it('stops when the signal is aborted (the abort reason propagates unwrapped)', async () => {
    const { ctx, ac } = scripted([json(503, {}), json(200, {})]);
    const reason = new Error('deadline');
    ctx.sleep = async () => {
      ac.abort(reason);
    };
    await expect(getJson(ctx, 'https://h/a', undefined, { source: 'x' })).rejects.toBe(reason);
  });

  it('uses a custom parser (big integers)', async () => {
    const { ctx } = scripted([new Response('{"data":{"videos":[{"id":7300000000000000001}]}}', { status: 200 })]);
    const body = await getJson<{ data: { videos: { id: string }[] } }>(ctx, 'https://h/a', undefined, {
      parse: (t) => JSON.parse(quoteBigIntegers(t, ['id'])),
    });
    expect(body.data.videos[0].id).toBe('7300000000000000001');
  });
});

describe('header parsing', () => {
  const now = Date.parse('2024-05-01T00:00:00Z');
  it('parses Retry-After seconds and HTTP dates', () => {
    expect(parseRetryAfter('5', now)).toBe(5);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1.5);
    expect(parseRetryAfter('Wed, 01 May 2024 00:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Tue, 30 Apr 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
  it('parses x-rate-limit-reset (epoch) and x-ratelimit-reset (delta)', () => {
    expect(parseRateLimitReset(new Headers({ 'x-rate-limit-reset': String(now / 1000 + 42) }), now)).toBe(42);
    expect(parseRateLimitReset(new Headers({ 'x-ratelimit-reset': '17' }), now)).toBe(17);
    expect(parseRateLimitReset(new Headers({}), now)).toBeUndefined();
  });
});

describe('messages and credentials', () => {
  it('requireCredential returns the trimmed value or throws the how-to message', () => {
    expect(requireCredential({ credentials: { k: ' v ' } }, 'x', 'k')).toBe('v');
    expect(() => requireCredential({ credentials: { k: ' ' } }, 'x', 'k')).toThrow(SourceError);
    expect(() => requireCredential({ credentials: undefined }, 'facebook', 'access_token', ['page_id', 'access_token'])).toThrow(
      'facebook credentials are missing (page_id, access_token); add them with PUT /dashboard/api/sources/facebook {"page_id":"…","access_token":"…"}',
    );
    expect(missingCredentialsMessage('x', ['bearer_token'])).toBe(
      'x credentials are missing (bearer_token); add them with PUT /dashboard/api/sources/x {"bearer_token":"…"}',
    );
  });
  it('extracts platform error messages', () => {
    expect(platformErrorMessage({ error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } })).toBe('Invalid OAuth access token.');
    expect(platformErrorMessage({ error: 'invalid_client', error_description: 'bad secret' })).toBe('invalid_client: bad secret');
    expect(platformErrorMessage({ title: 'Unauthorized', detail: 'Unauthorized', status: 401 })).toBe('Unauthorized');
    expect(platformErrorMessage({ message: 'Forbidden', error: 403 })).toBe('Forbidden');
    expect(platformErrorMessage({ serviceErrorCode: 65600, message: 'Invalid access token', status: 401 })).toBe('Invalid access token');
    expect(platformErrorMessage('plain text')).toBe('plain text');
    expect(platformErrorMessage(undefined)).toBeUndefined();
  });
});

describe('plan helpers', () => {
  it('buildSearchText: core AND, alternatives OR, exclusions', () => {
    expect(buildSearchText(plan({ keywords: ['acme', 'shoes'], hashtags: ['#acmefail'], exclude: ['sale'] }))).toBe('(acme shoes OR #acmefail) -sale');
    expect(buildSearchText(plan({ keywords: ['acme'] }))).toBe('acme');
    expect(buildSearchText(plan({ phrases: ['say "hi" there'] }))).toBe('"say hi there"');
    expect(buildSearchText(plan({ mentions: ['@a', 'a', 'b'] }))).toBe('(@a OR @b)');
    expect(buildSearchText(plan({ keywords: ['  ', 'Acme', 'acme'] }))).toBe('Acme');
    expect(buildSearchText(plan({ exclude: ['x'] }))).toBe('');
    expect(buildSearchText(plan({ keywords: ['a'], hashtags: ['b'] }), { or: '|', group: false })).toBe('a|#b');
  });
  it('time helpers', () => {
    expect(inPlanWindow(plan(), '2024-05-03T00:00:00Z')).toBe(true);
    expect(inPlanWindow(plan(), '2024-04-30T23:59:59Z')).toBe(false);
    expect(inPlanWindow(plan(), 'garbage')).toBe(false);
    expect(toIso(1714521600)).toBe('2024-05-01T00:00:00.000Z');
    expect(toIso(1714521600000)).toBe('2024-05-01T00:00:00.000Z');
    expect(toIso('1714521600')).toBe('2024-05-01T00:00:00.000Z');
    expect(toIso('2024-05-01T02:00:00+02:00')).toBe('2024-05-01T00:00:00.000Z');
    expect(toIso(undefined)).toBeUndefined();
    expect(rfc3339('2024-05-01T00:00:00.123Z')).toBe('2024-05-01T00:00:00Z');
    const now = Date.parse('2024-05-10T00:00:00Z');
    const c = clampSince(plan({ since: '2024-04-01T00:00:00Z', until: '2024-06-01T00:00:00Z' }), 7 * 86_400_000, now, 0);
    expect(c).toEqual({ since: '2024-05-03T00:00:00.000Z', until: '2024-05-10T00:00:00.000Z' });
  });
  it('numbers, urls, finalize', () => {
    expect(toNumber('12')).toBe(12);
    expect(toNumber('x')).toBeUndefined();
    expect(joinUrl('http://h:1/base/', '/v2/q', { a: 'b c', skip: undefined, n: 3 })).toBe('http://h:1/base/v2/q?a=b+c&n=3');
    const it = (id: string, created_at: string): SourceItem => ({ source: 'x', id, url: `u${id}`, author: null, text: '', created_at, metrics: {} });
    expect(finalizeItems(plan(), [it('1', '2024-05-02T00:00:00Z'), it('1', '2024-05-02T00:00:00Z'), it('2', '2024-01-01T00:00:00Z'), it('3', '2024-05-03T00:00:00Z')], 5).map((i) => i.id)).toEqual([
      '1',
      '3',
    ]);
    expect(quoteBigIntegers('{"id":123,"id2":1234567890123456789,"id":1234567890123456789}', ['id'])).toBe('{"id":123,"id2":1234567890123456789,"id":"1234567890123456789"}');
  });
});
