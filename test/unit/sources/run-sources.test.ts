import { describe, expect, it } from 'vitest';
import { SOURCE_NAMES, type SourceName } from '../../../functions/config.js';
import { compareItems, mergeItems, normalizeUrl, runSources, type RunSourcesOptions } from '../../../functions/core/sources/run-sources.js';
import { connectors } from '../../../functions/core/sources/registry.js';
import { SourceError, type Connector, type ConnectorContext, type QueryPlan, type SourceItem } from '../../../functions/core/sources/types.js';

const plan: QueryPlan = { keywords: ['acme'], phrases: [], hashtags: [], mentions: [], exclude: [], since: '2024-05-01T00:00:00Z', until: '2024-05-08T00:00:00Z' };

const item = (source: SourceName, id: string, created_at: string, url = `https://${source}.test/${id}`): SourceItem => ({
  source,
  id,
  url,
  author: null,
  text: `${source} ${id}`,
  created_at,
  metrics: {},
});

function stub(name: SourceName, search: (ctx: ConnectorContext) => Promise<SourceItem[]>, required: string[] = []): Connector {
  return {
    name,
    defaultBaseUrl: `https://${name}.default`,
    credentialFields: required.map((n) => ({ name: n, required: true, description: n })),
    accessNotes: '',
    search,
  };
}

const base = (over: Partial<RunSourcesOptions>): RunSourcesOptions => ({
  sources: ['x'],
  plan,
  limit: 100,
  credentialsFor: async () => ({}),
  baseUrlFor: () => '',
  fetch: async () => {
    throw new Error('no network in unit tests');
  },
  ...over,
});

describe('runSources (injected connectors)', () => {
  it('dedupes by source+id and by normalized URL, sorts newest first (ties by source, id), cuts to limit', async () => {
    const res = await runSources(
      base({
        sources: ['x', 'reddit', 'youtube'],
        limit: 5,
        connectors: {
          x: stub('x', async () => [
            item('x', '2', '2024-05-03T00:00:00Z'),
            item('x', '1', '2024-05-05T00:00:00Z'),
            item('x', '1', '2024-05-05T00:00:00Z'), // same id
            item('x', '9', '2024-05-02T00:00:00Z', 'https://www.shared.test/post/?utm_source=x#frag'),
          ]),
          reddit: stub('reddit', async () => [
            item('reddit', 'a', '2024-05-03T00:00:00Z'), // ties with x/2 → reddit first
            item('reddit', 'b', '2024-05-01T12:00:00Z', 'http://shared.test/post'), // same URL as x/9, older → dropped
            item('reddit', 'c', '2024-05-04T00:00:00Z'),
          ]),
          youtube: stub('youtube', async () => [item('youtube', 'v', '2024-05-06T00:00:00Z'), item('youtube', 'w', '2024-05-01T01:00:00Z')]),
        },
      }),
    );
    expect(res.items.map((i) => `${i.source}/${i.id}`)).toEqual(['youtube/v', 'x/1', 'reddit/c', 'reddit/a', 'x/2']);
    expect(res.by_source).toMatchObject({ x: { status: 'ok', count: 4 }, reddit: { status: 'ok', count: 3 }, youtube: { status: 'ok', count: 2 } });

    const all = await runSources(
      base({
        sources: ['x', 'reddit'],
        connectors: {
          x: stub('x', async () => [item('x', '9', '2024-05-02T00:00:00Z', 'https://www.shared.test/post/?utm_source=x#frag')]),
          reddit: stub('reddit', async () => [item('reddit', 'b', '2024-05-01T12:00:00Z', 'http://shared.test/post')]),
        },
      }),
    );
    expect(all.items.map((i) => i.id)).toEqual(['9']);
  });

  it('reports missing required credentials without calling the connector', async () => {
    let called = false;
    const res = await runSources(
      base({
        credentialsFor: async () => ({ bearer_token: '  ' }),
        connectors: { x: stub('x', async () => ((called = true), []), ['bearer_token']) },
      }),
    );
    expect(called).toBe(false);
    expect(res.by_source.x).toMatchObject({
      status: 'error',
      count: 0,
      error: 'x credentials are missing (bearer_token); add them with PUT /dashboard/api/sources/x {"bearer_token":"…"}',
    });
  });

  it('isolates failures: SourceError message, unexpected errors, credential lookup failures', async () => {
    const res = await runSources(
      base({
        sources: ['x', 'reddit', 'youtube', 'tiktok'],
        credentialsFor: async (s) => {
          if (s === 'tiktok') throw new Error('kms unavailable');
          return {};
        },
        connectors: {
          x: stub('x', async () => {
            throw new SourceError('x rate limited (429); retry after 60 s', 60, true);
          }),
          reddit: stub('reddit', async () => {
            throw new TypeError('cannot read properties of undefined');
          }),
          youtube: stub('youtube', async () => [item('youtube', 'v', '2024-05-06T00:00:00Z')]),
          tiktok: stub('tiktok', async () => []),
        },
      }),
    );
    expect(res.by_source.x).toMatchObject({ status: 'error', error: 'x rate limited (429); retry after 60 s' });
    expect(res.by_source.reddit).toMatchObject({ status: 'error', error: 'reddit failed unexpectedly: cannot read properties of undefined' });
    expect(res.by_source.tiktok).toMatchObject({ status: 'error', error: 'tiktok failed unexpectedly: kms unavailable' });
    expect(res.by_source.youtube).toMatchObject({ status: 'ok', count: 1 });
    expect(res.items).toHaveLength(1);
  });

  it('times out a connector that ignores its signal, and aborts that signal', async () => {
    let seen: AbortSignal | undefined;
    const res = await runSources(
      base({
        sources: ['x', 'reddit'],
        timeoutMs: 50,
        connectors: {
          x: stub('x', (ctx) => {
            seen = ctx.signal;
            return new Promise(() => undefined);
          }),
          reddit: stub('reddit', async () => [item('reddit', 'a', '2024-05-03T00:00:00Z')]),
        },
      }),
    );
    expect(res.by_source.x).toMatchObject({ status: 'error', error: 'x timed out after 50 ms' });
    expect(seen?.aborted).toBe(true);
    expect(res.by_source.reddit.status).toBe('ok');
  });

  it('a Retry-After sleep is cut short by the timeout', async () => {
    const res = await runSources(
      base({
        timeoutMs: 30,
        connectors: {
          x: stub('x', async (ctx) => {
            await ctx.sleep(60_000);
            return [];
          }),
        },
      }),
    );
    expect(res.by_source.x.error).toMatch(/^x timed out after/);
  });

  it('passes context: limit, plan, base URL (override or default), credentials; overwrites item.source', async () => {
    let got: ConnectorContext | undefined;
    const res = await runSources(
      base({
        sources: ['x', 'reddit'],
        limit: 7,
        baseUrlFor: (s) => (s === 'x' ? 'http://127.0.0.1:1' : ''),
        credentialsFor: async (s) => ({ token: `t-${s}` }),
        connectors: {
          x: stub('x', async (ctx) => {
            got = ctx;
            return [{ ...item('x', '1', '2024-05-03T00:00:00Z'), source: 'reddit' }];
          }),
          reddit: stub('reddit', async (ctx) => {
            expect(ctx.baseUrl).toBe('https://reddit.default');
            return [];
          }),
        },
      }),
    );
    expect(got).toMatchObject({ limit: 7, plan, baseUrl: 'http://127.0.0.1:1', credentials: { token: 't-x' } });
    expect(res.items[0].source).toBe('x');
  });

  it('marks sources without a connector as skipped and de-duplicates the source list', async () => {
    const res = await runSources(base({ sources: ['x', 'x', 'linkedin'], connectors: { x: stub('x', async () => []) } }));
    expect(Object.keys(res.by_source)).toEqual(['x', 'linkedin']);
    expect(res.by_source.linkedin).toMatchObject({ status: 'skipped', count: 0 });
  });

  it('the parent signal cancels every source', async () => {
    const ac = new AbortController();
    ac.abort(new SourceError('query cancelled'));
    const res = await runSources(base({ signal: ac.signal, connectors: { x: stub('x', () => new Promise(() => undefined)) } }));
    expect(res.by_source.x).toMatchObject({ status: 'error', error: 'query cancelled' });
  });
});

describe('merge helpers', () => {
  it('normalizeUrl', () => {
    expect(normalizeUrl('https://www.Example.com/a/?utm_source=x&b=2&a=1#f')).toBe('example.com/a?a=1&b=2');
    expect(normalizeUrl('http://example.com/a')).toBe('example.com/a');
    expect(normalizeUrl('https://www.youtube.com/watch?v=abc&t=10s&si=zz')).toBe('youtube.com/watch?v=abc');
    expect(normalizeUrl('https://m.facebook.com/post/1')).toBe('facebook.com/post/1');
    expect(normalizeUrl('http://127.0.0.1:8080/x')).toBe('127.0.0.1:8080/x');
    expect(normalizeUrl('not a url')).toBe('');
  });
  it('compareItems puts unreadable dates last', () => {
    const a = item('x', 'a', 'garbage');
    const b = item('x', 'b', '2020-01-01T00:00:00Z');
    expect([a, b].sort(compareItems).map((i) => i.id)).toEqual(['b', 'a']);
    expect(mergeItems([a, b], 1).map((i) => i.id)).toEqual(['b']);
    expect(mergeItems([item('x', '1', 'garbage', 'nope'), item('x', '2', 'garbage', 'nope')], 5)).toHaveLength(2);
  });
});

describe('registry', () => {
  it('has one connector per source, named after it, with documented credentials', () => {
    expect(Object.keys(connectors).sort()).toEqual([...SOURCE_NAMES].sort());
    for (const s of SOURCE_NAMES) {
      const c = connectors[s];
      expect(c.name).toBe(s);
      expect(c.defaultBaseUrl).toMatch(/^https:\/\//);
      expect(c.credentialFields.some((f) => f.required)).toBe(true);
      expect(c.accessNotes.length).toBeGreaterThan(40);
    }
  });
});
