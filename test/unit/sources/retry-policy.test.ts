import { describe, expect, it } from 'vitest';
import { getJson } from '../../../functions/core/sources/http-json.js';
import { backoffMs, decide, DEFAULT_RETRY_LIMITS, RetryBudget, verdictMessage } from '../../../functions/core/sources/retry-policy.js';
import { SourceError, type ConnectorContext, type FetchFn } from '../../../functions/core/sources/types.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

function scripted(responses: Response[], over: Partial<ConnectorContext> = {}) {
  const sleeps: number[] = [];
  let calls = 0;
  const fetch: FetchFn = async () => {
    calls++;
    const r = responses.shift();
    if (!r) throw new Error('no more scripted responses');
    return r;
  };
  const ctx: ConnectorContext = {
    plan: { keywords: ['a'], phrases: [], hashtags: [], mentions: [], exclude: [], since: '2026-11-20T00:00:00Z', until: '2026-11-23T00:00:00Z' },
    limit: 10,
    credentials: undefined,
    baseUrl: 'https://api.example.test',
    fetch,
    signal: new AbortController().signal,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: () => NOW,
    ...over,
  };
  return { ctx, sleeps, calls: () => calls };
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('the shared retry policy', () => {
  it('backs off a 5xx with capped, jittered exponential waits and never waits for a rate-limit reset an hour away', async () => {
    const resetInAnHour = String(Math.floor(NOW / 1000) + 3600);
    const { ctx, sleeps } = scripted(
      [json(503, {}, { 'x-rate-limit-reset': resetInAnHour }), json(502, {}, { 'x-ratelimit-reset': '3600' }), json(200, { ok: true })],
      { random: () => 0 },
    );
    await expect(getJson(ctx, 'https://h/a', undefined, { source: 'x' })).resolves.toEqual({ ok: true });
    // random 0 → the fixed half of each step: 0.5 s, 1 s.
    expect(sleeps).toEqual([500, 1000]);
  });

  it('keeps jittered backoff within [step/2, step] and under the cap', () => {
    for (const r of [0, 0.3, 0.99, 1]) {
      for (let attempt = 1; attempt <= 8; attempt++) {
        const step = Math.min(DEFAULT_RETRY_LIMITS.maxBackoffMs, 1000 * 2 ** (attempt - 1));
        const ms = backoffMs(attempt, DEFAULT_RETRY_LIMITS, () => r);
        expect(ms).toBeGreaterThanOrEqual(step / 2);
        expect(ms).toBeLessThanOrEqual(step);
      }
    }
  });

  it('waits for the platform’s Retry-After on a 429, and bounds the total wait of a query by its budget', async () => {
    const budget = new RetryBudget(5_000);
    const { ctx, sleeps } = scripted(
      [json(429, {}, { 'retry-after': '3' }), json(429, {}, { 'retry-after': '3' }), json(200, {})],
      { retryBudget: budget },
    );
    const err = (await getJson(ctx, 'https://h/a', undefined, { source: 'reddit' }).catch((e: unknown) => e)) as SourceError;
    expect(sleeps).toEqual([3000]); // the second 3 s wait does not fit in what is left (2 s)
    expect(err.kind).toBe('rate');
    expect(err.message).toBe('reddit rate limited (429); retry after 3 s');
    expect(budget.remainingMs).toBe(2000);
  });

  it('uses x-ratelimit-reset on a 429 without Retry-After', async () => {
    const { ctx, sleeps } = scripted([json(429, {}, { 'x-ratelimit-reset': '4' }), json(200, {})]);
    await getJson(ctx, 'https://h/a', undefined, { source: 'reddit' });
    expect(sleeps).toEqual([4000]);
  });

  it('stops at once on quota exhaustion and says which quota and when it resets', async () => {
    const resetsAt = new Date(NOW + 3 * 3_600_000);
    const { ctx, sleeps, calls } = scripted([json(403, { error: 'quota' }), json(200, {})]);
    const err = (await getJson(ctx, 'https://h/a', undefined, {
      source: 'youtube',
      classify: () => ({ kind: 'quota', temporary: true, detail: 'spent', quota: { name: 'daily units', resetsAt } }),
    }).catch((e: unknown) => e)) as SourceError;
    expect(calls()).toBe(1);
    expect(sleeps).toEqual([]);
    expect(err.kind).toBe('quota');
    expect(err.resetsAt).toEqual(resetsAt);
    expect(err.message).toBe(`youtube quota exhausted: daily units (403): spent; it resets at ${resetsAt.toISOString()} (in 3 h)`);
  });

  it('decides: permanent kinds stop, temporary ones retry until attempts, wait cap or budget run out', () => {
    const b = () => new RetryBudget(60_000);
    expect(decide({ kind: 'credentials', temporary: false }, 1, b())).toEqual({ retry: false, reason: 'final' });
    expect(decide({ kind: 'rate', temporary: true, waitSeconds: 2 }, 1, b())).toEqual({ retry: true, waitMs: 2000 });
    expect(decide({ kind: 'rate', temporary: true, waitSeconds: 31 }, 1, b())).toEqual({ retry: false, reason: 'too_long' });
    expect(decide({ kind: 'rate', temporary: true }, DEFAULT_RETRY_LIMITS.maxAttempts, b())).toEqual({ retry: false, reason: 'attempts' });
    expect(decide({ kind: 'platform_down', temporary: true, waitSeconds: 3600 }, 1, b(), DEFAULT_RETRY_LIMITS, () => 1)).toEqual({ retry: true, waitMs: 1000 });
    expect(decide({ kind: 'rate', temporary: true, waitSeconds: 2 }, 1, new RetryBudget(1000))).toEqual({ retry: false, reason: 'budget' });
  });

  it('says in the message which kind of failure it is', () => {
    const m = (kind: Parameters<typeof verdictMessage>[2]['kind']) => verdictMessage('x', 403, { kind, temporary: false, detail: 'd' }, NOW);
    expect(m('credentials')).toBe('x rejected the credentials (403): d; update them with PUT /dashboard/api/sources/x');
    expect(m('permission')).toBe('x refused access (permission) (403): d');
    expect(m('invalid_query')).toBe('x rejected the query (invalid query) (403): d');
    expect(m('platform_down')).toBe('x is unavailable (platform down) (403): d');
    expect(m('rate')).toBe('x rate limited (403): d');
  });
});
