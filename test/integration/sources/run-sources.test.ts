import { afterEach, describe, expect, it } from 'vitest';
import type { SourceName } from '../../../functions/config.js';
import { runSources, type RunSourcesOptions } from '../../../functions/core/sources/run-sources.js';
import type { FetchFn } from '../../../functions/core/sources/types.js';
import type { FakeApi, FakeApiOptions } from '../../fixtures/fake-sources/server.js';
import { testPlan } from '../../fixtures/fake-sources/server.js';
import { startFakeReddit } from '../../fixtures/fake-sources/reddit.js';
import { startFakeTiktok } from '../../fixtures/fake-sources/tiktok.js';
import { startFakeX } from '../../fixtures/fake-sources/x.js';
import { startFakeYoutube } from '../../fixtures/fake-sources/youtube.js';

type Four = 'x' | 'reddit' | 'youtube' | 'tiktok';
const FOUR: Four[] = ['x', 'reddit', 'youtube', 'tiktok'];

const CREDS: Record<Four, Record<string, string>> = {
  x: { bearer_token: 'x-test-token' },
  reddit: { client_id: 'reddit-client', client_secret: 'reddit-secret', app_id: 'com.example.brandwatch', username: 'brand_dev' },
  youtube: { api_key: 'yt-test-key' },
  tiktok: { client_key: 'tt-client-key', client_secret: 'tt-client-secret' },
};

let fakes: Partial<Record<Four, FakeApi>> = {};
afterEach(async () => {
  await Promise.all(Object.values(fakes).map((f) => f?.close()));
  fakes = {};
});

async function startAll(opts: Partial<Record<Four, FakeApiOptions>> = {}): Promise<Record<Four, FakeApi>> {
  const [x, reddit, youtube, tiktok] = await Promise.all([
    startFakeX({ count: 12, ...opts.x }),
    startFakeReddit({ count: 12, ...opts.reddit }),
    startFakeYoutube({ count: 12, ...opts.youtube }),
    startFakeTiktok({ count: 12, ...opts.tiktok }),
  ]);
  fakes = { x, reddit, youtube, tiktok };
  return { x, reddit, youtube, tiktok };
}

function options(all: Record<Four, FakeApi>, over: Partial<RunSourcesOptions> = {}): RunSourcesOptions & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sources: FOUR,
    plan: testPlan(),
    limit: 100,
    credentialsFor: async (s: SourceName) => CREDS[s as Four],
    baseUrlFor: (s: SourceName) => all[s as Four].baseUrl,
    fetch: (url, init) => fetch(url, init),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    timeoutMs: 20_000,
    ...over,
    sleeps,
  };
}

describe('runSources against the fake platform APIs', () => {
  it('runs the sources concurrently: every source has a request in flight at the same time', async () => {
    // Each fake holds its first request until all four fakes have one. Run one after the other,
    // the first source would wait forever (the safety valve then releases it and the assertion fails).
    const arrived = new Set<Four>();
    let release!: () => void;
    const allArrived = new Promise<void>((r) => (release = r));
    let releasedByArrival = false;
    const valve = setTimeout(release, 10_000);
    const hold = (s: Four): FakeApiOptions => ({
      onRequest: async () => {
        arrived.add(s);
        if (arrived.size === FOUR.length) {
          releasedByArrival = true;
          release();
        }
        await allArrived;
      },
    });
    const all = await startAll({ x: hold('x'), reddit: hold('reddit'), youtube: hold('youtube'), tiktok: hold('tiktok') });
    let inFlight = 0;
    let maxInFlight = 0;
    const counting: FetchFn = async (url, init) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await fetch(url, init);
      } finally {
        inFlight--;
      }
    };

    const res = await runSources(options(all, { fetch: counting }));
    clearTimeout(valve);

    expect(releasedByArrival).toBe(true);
    expect(maxInFlight).toBeGreaterThanOrEqual(4);
    for (const s of FOUR) expect(res.by_source[s]).toMatchObject({ status: 'ok', count: 12 });
    expect(res.items).toHaveLength(48);
  });

  it('merges items newest first across sources, cut to the limit', async () => {
    const all = await startAll();
    const res = await runSources(options(all, { limit: 30 }));
    expect(res.items).toHaveLength(30);
    const times = res.items.map((i) => Date.parse(i.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(new Set(res.items.map((i) => i.source)).size).toBeGreaterThan(1);
    for (const s of FOUR) expect(res.by_source[s].status).toBe('ok');
  });

  it('one source down → it is an error, the others are ok', async () => {
    const all = await startAll({ youtube: { down: true } });
    const o = options(all, { random: () => 0 });
    const res = await runSources(o);
    expect(res.by_source.youtube).toMatchObject({ status: 'error', count: 0 });
    expect(res.by_source.youtube.error).toMatch(/^youtube is unavailable \(platform down\) \(500\)/);
    for (const s of ['x', 'reddit', 'tiktok'] as const) expect(res.by_source[s]).toMatchObject({ status: 'ok', count: 12 });
    expect(res.items).toHaveLength(36);
    expect(res.items.some((i) => i.source === 'youtube')).toBe(false);
    expect(o.sleeps).toEqual([500, 1000, 2000]); // youtube's backoff (jitter 0 → half steps), through the injected sleep
  });

  it('missing or rejected credentials are per-source errors that say how to fix them', async () => {
    const all = await startAll();
    const res = await runSources(
      options(all, {
        credentialsFor: async (s) => (s === 'tiktok' ? undefined : s === 'x' ? { bearer_token: 'revoked' } : CREDS[s as Four]),
      }),
    );
    expect(res.by_source.tiktok).toMatchObject({
      status: 'error',
      count: 0,
      error:
        'tiktok credentials are missing (client_key, client_secret); add them with PUT /dashboard/api/sources/tiktok {"client_key":"…","client_secret":"…"}',
    });
    expect(all.tiktok.requests).toHaveLength(0);
    expect(res.by_source.x.error).toBe('x rejected the credentials (401): Unauthorized; update them with PUT /dashboard/api/sources/x');
    expect(res.by_source.reddit.status).toBe('ok');
    expect(res.by_source.youtube.status).toBe('ok');
  });

  it('a hanging source times out on its own budget; the others finish', async () => {
    const all = await startAll({ reddit: { onRequest: () => new Promise<void>(() => undefined) } });
    const res = await runSources(options(all, { timeoutMs: 1500 }));
    expect(res.by_source.reddit).toMatchObject({ status: 'error', count: 0, error: 'reddit timed out after 1.5 s' });
    for (const s of ['x', 'youtube', 'tiktok'] as const) expect(res.by_source[s].status).toBe('ok');
  });

  it('retries a rate-limited source through the injected sleep', async () => {
    const all = await startAll({ x: { rateLimitFirst: 1, retryAfter: '5' } });
    const o = options(all, { sources: ['x'] });
    const res = await runSources(o);
    expect(res.by_source.x).toMatchObject({ status: 'ok', count: 12 });
    expect(o.sleeps).toEqual([5000]);
  });
});
