import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { instagramConnector } from '../../../functions/core/sources/instagram.js';
import { facebookConnector } from '../../../functions/core/sources/facebook.js';
import { mergeItems } from '../../../functions/core/sources/run-sources.js';
import { tableLedger, IG_HASHTAG_LIMIT } from '../../../functions/core/sources/source-ledger.js';
import { catchSourceError, testContext, type TestContext } from '../../fixtures/fake-sources/server.js';
import { FB_USER_TOKEN, graphErrors, startFakeFacebook, type GraphFakeApi } from '../../fixtures/fake-sources/facebook.js';
import { IG_HASHTAG_IDS, IG_MEDIA, IG_NEWEST, IG_TOKEN, IG_USER_ID, startFakeInstagram } from '../../fixtures/fake-sources/instagram.js';
import type { QueryPlan } from '../../../functions/core/sources/types.js';
import { memoryStores } from '../foundation/stores.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

/** Contract tests of the Meta connectors against the Graph fakes on bad days (issue 13). */

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const igPlan = (over: Partial<QueryPlan> = {}): QueryPlan => ({
  keywords: [], phrases: [], hashtags: ['acme'], mentions: [], exclude: [], since: iso(IG_NEWEST - 24 * HOUR), until: iso(IG_NEWEST + HOUR), ...over,
});
const fbPlan = (): QueryPlan => ({ keywords: [], phrases: [], hashtags: [], mentions: [], exclude: [], since: iso(IG_NEWEST - 48 * HOUR), until: iso(IG_NEWEST + HOUR) });
const IG = { access_token: IG_TOKEN, ig_user_id: IG_USER_ID };
const acmeMedia = IG_MEDIA.filter((m) => m.tags.includes('acme')).map((m) => m.id).sort();

let api: GraphFakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
let stores: EmbeddedStores;
let table: DynamoTable;
beforeAll(async () => {
  ({ stores, table } = await memoryStores());
});
afterAll(async () => {
  await stores?.close();
});

const ig = (over: Partial<TestContext> = {}) => testContext({ baseUrl: api!.baseUrl, plan: igPlan(), credentials: IG, ...over });

describe('instagram on bad days', () => {
  it('unordered pages, overlapping pages, a repeating last cursor and missing permalinks: every media once, none lost', async () => {
    api = await startFakeInstagram({ duplicateAcrossPages: true, repeatLastCursor: true, noPermalink: ['18000000000000003', '18000000000000005'] });
    const items = await instagramConnector.search(ig());
    expect(items.map((i) => i.id).sort()).toEqual(acmeMedia);
    // follows paging.next as sent; the repeated cursor ends the list (4 pages: 3 + the repeat refused)
    const media = api.requests.filter((r) => r.path.includes('/recent_media'));
    expect(media).toHaveLength(3);
    // Items without a permalink share the site root URL, but stay distinct after the cross-source merge.
    const merged = mergeItems(items, 100);
    expect(merged.map((i) => i.id).sort()).toEqual(acmeMedia);
  });

  it('sends appsecret_proof when an app secret is configured (apps with "Require App Secret")', async () => {
    api = await startFakeInstagram({ appSecret: 'shh' });
    const without = await catchSourceError(instagramConnector.search(ig()));
    expect(without.message).toMatch(/appsecret_proof/);
    const items = await instagramConnector.search(ig({ credentials: { ...IG, app_secret: 'shh' } }));
    expect(items.map((i) => i.id).sort()).toEqual(acmeMedia);
  });

  it('uses the deployment’s Graph API version', async () => {
    api = await startFakeInstagram();
    await instagramConnector.search(ig({ graphApiVersion: 'v24.0' }));
    expect(new Set(api.graph.versions)).toEqual(new Set(['v24.0']));
  });

  it('retries Graph’s temporary codes (1, 2, 341 / is_transient) with backoff', async () => {
    api = await startFakeInstagram({
      incidents: [
        { status: 500, body: graphErrors.service() },
        { status: 400, body: graphErrors.applicationLimit() },
        { status: 400, body: graphErrors.unknown() },
      ],
    });
    const ctx = ig();
    expect((await instagramConnector.search(ctx)).length).toBe(acmeMedia.length);
    expect(ctx.sleeps).toEqual([1000, 2000, 4000]);
  });

  it('slows down as X-App-Usage nears 100%, before Meta throttles', async () => {
    api = await startFakeInstagram({ usage: (i) => (i === 0 ? 95 : 10) });
    const ctx = ig();
    await instagramConnector.search(ctx);
    expect(ctx.sleeps).toEqual([8000]); // after the 95% answer, before the next request
  });

  it('counts hashtags per account over a rolling 7 days, shared by every query, and says when the budget is spent', async () => {
    api = await startFakeInstagram();
    const ledger = tableLedger(table, 'ten_ig');
    const now = Date.now();
    // 30 other hashtags were searched this week by earlier queries and jobs of the tenant.
    await ledger.reserveHashtags(IG_USER_ID, Array.from({ length: IG_HASHTAG_LIMIT }, (_, i) => `old${i}`), new Date(now - 2 * 86_400_000));
    const err = await catchSourceError(instagramConnector.search(ig({ ledger })));
    expect(err.kind).toBe('quota');
    expect(err.message).toMatch(/hashtag budget of account 17841400000000001 \(30 unique hashtags per rolling 7 days\) is spent, so #acme cannot be searched; the next hashtag frees up at .* \(in 5 days?/);
    expect(api.requests).toHaveLength(0);
    // A hashtag already counted this week costs nothing.
    const items = await instagramConnector.search(ig({ ledger, plan: igPlan({ hashtags: ['old3'] }) }));
    expect(items).toEqual([]);
    expect(api.requests.some((r) => r.path.includes('ig_hashtag_search'))).toBe(true);
  });

  it('another account of the same tenant has its own budget; the first query of a tag counts it', async () => {
    api = await startFakeInstagram();
    const ledger = tableLedger(table, 'ten_ig2');
    await instagramConnector.search(ig({ ledger }));
    const counted = await ledger.hashtagsInWindow(IG_USER_ID, new Date());
    expect(counted.map((c) => c.tag)).toEqual(['acme']);
    expect(await ledger.hashtagsInWindow('other-account', new Date())).toEqual([]);
    expect(Object.keys(IG_HASHTAG_IDS)).toContain('acme');
  });
});

describe('facebook on bad days', () => {
  it('retries is_transient errors and signs every call when an app secret is set', async () => {
    api = await startFakeFacebook({ appSecret: 'fb-secret', incidents: [{ status: 400, body: graphErrors.transient() }] });
    const ctx = testContext({ baseUrl: api.baseUrl, plan: fbPlan(), credentials: { access_token: FB_USER_TOKEN, app_secret: 'fb-secret' } });
    const items = await facebookConnector.search(ctx);
    expect(items.length).toBeGreaterThan(0);
    expect(ctx.sleeps).toEqual([1000]);
    expect(api.requests.slice(1).every((r) => new URL(r.path, 'http://x').searchParams.has('appsecret_proof'))).toBe(true);
  });

  it('a Page-level throttle (code 32) waits for the estimated time to regain access when it is short', async () => {
    const buc = JSON.stringify({ '1001': [{ type: 'pages', call_count: 100, total_cputime: 10, total_time: 10, estimated_time_to_regain_access: 0.25 }] });
    api = await startFakeFacebook({ incidents: [{ status: 403, body: graphErrors.pageThrottle(), headers: { 'x-business-use-case-usage': buc } }] });
    const ctx = testContext({ baseUrl: api.baseUrl, plan: fbPlan(), credentials: { access_token: FB_USER_TOKEN } });
    await facebookConnector.search(ctx);
    expect(ctx.sleeps[0]).toBe(15_000);
  });
});
