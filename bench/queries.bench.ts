import { runSources } from '../functions/core/sources/run-sources.js';
import { planFromPrompt } from '../functions/core/queries/rule-planner.js';
import { connectors } from '../functions/core/sources/registry.js';
import { startFakeX } from '../test/fixtures/fake-sources/x.js';
import { startFakeReddit } from '../test/fixtures/fake-sources/reddit.js';
import { startFakeYoutube } from '../test/fixtures/fake-sources/youtube.js';
import { startFakeTiktok } from '../test/fixtures/fake-sources/tiktok.js';
import { percentile, timeEach, type BenchResult } from './stats.js';
import type { SourceName } from '../functions/config.js';

/**
 * A query over N sources against the slowest single source, same fakes, same run: sources run
 * concurrently, so N sources should cost about the slowest one. Target: <= 1.2x.
 */
export async function benchQueries(rounds = 15): Promise<BenchResult[]> {
  // Per-request latency differs per fake; each source pages a few times.
  const [x, reddit, yt, tt] = await Promise.all([
    startFakeX({ delayMs: 20, count: 60 }),
    startFakeReddit({ delayMs: 30, count: 60 }),
    startFakeYoutube({ delayMs: 40, count: 60 }),
    startFakeTiktok({ delayMs: 60, count: 60 }),
  ]);
  const base: Record<string, string> = { x: x.baseUrl, reddit: reddit.baseUrl, youtube: yt.baseUrl, tiktok: tt.baseUrl };
  const creds: Record<string, Record<string, string>> = {
    x: { bearer_token: 'x-test-token' },
    reddit: { client_id: 'reddit-client', client_secret: 'reddit-secret' },
    youtube: { api_key: 'yt-test-key' },
    tiktok: { client_key: 'tt-client-key', client_secret: 'tt-client-secret' },
  };
  const plan = planFromPrompt('acme running shoes', new Date());
  const query = (sources: SourceName[]) =>
    runSources({ sources, plan, limit: 200, credentialsFor: async (s) => creds[s], baseUrlFor: (s) => base[s] ?? connectors[s].defaultBaseUrl, fetch: (u, i) => fetch(u, i) }).then((r) => {
      const bad = Object.entries(r.by_source).filter(([, v]) => v.status !== 'ok');
      if (bad.length) throw new Error(`bench source failed: ${JSON.stringify(bad)}`);
    });
  const singles: Record<string, number> = {};
  for (const s of Object.keys(base) as SourceName[]) singles[s] = percentile(await timeEach(rounds, () => query([s])), 50);
  const slowest = Object.entries(singles).sort((a, b) => b[1] - a[1])[0]!;
  const all = percentile(await timeEach(rounds, () => query(Object.keys(base) as SourceName[])), 50);
  await Promise.all([x.close(), reddit.close(), yt.close(), tt.close()]);
  return [{
    name: `query over ${Object.keys(base).length} sources vs slowest single (${slowest[0]})`,
    measured: `p50 ${all.toFixed(1)} ms`, baseline: `p50 ${slowest[1].toFixed(1)} ms`, ratio: all / slowest[1], target: '<= 1.2', pass: all / slowest[1] <= 1.2,
  }];
}
