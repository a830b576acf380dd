import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { classifyX, buildXQuery, xConnector } from '../../../functions/core/sources/x.js';
import { classifyYoutube, youtubeUnitsEstimate } from '../../../functions/core/sources/youtube.js';
import { classifyTiktok } from '../../../functions/core/sources/tiktok.js';
import { classifyLinkedIn } from '../../../functions/core/sources/linkedin.js';
import { redditConnector, redditUserAgent } from '../../../functions/core/sources/reddit.js';
import { appSecretProof, graphClassify, graphNextUrl, graphPaceMs, withAppSecretProof } from '../../../functions/core/sources/graph-api.js';
import { DEFAULT_GRAPH_API_VERSION, GRAPH_VERSIONS, graphVersionStatus } from '../../../functions/core/sources/graph-versions.js';
import { nextPacificMidnight, pacificDay } from '../../../functions/core/sources/source-ledger.js';
import { queryLengthProblems } from '../../../functions/core/sources/query-length.js';
import { connectors } from '../../../functions/core/sources/registry.js';
import { loadConfig } from '../../../functions/config.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const h = (o: Record<string, string> = {}) => new Headers(o);
const google = (code: number, reason: string, message = 'm') => ({ error: { code, message, errors: [{ message, domain: 'youtube.quota', reason }], status: 'X' } });

describe('X classification (docs.x.com response codes, rate limits, post cap)', () => {
  it('a 429 usage-capped is a quota (not a short rate limit) naming the cap', () => {
    const v = classifyX(429, { title: 'UsageCapExceeded', detail: 'Usage cap exceeded: Monthly product cap', type: 'https://api.twitter.com/2/problems/usage-capped', period: 'Monthly', scope: 'Product' }, h({ 'x-rate-limit-remaining': '39999' }), NOW);
    expect(v).toMatchObject({ kind: 'quota', temporary: false, quota: { name: 'X monthly product usage cap' } });
  });
  it('a 429 with the 24-hour app limit at 0 is a quota with its reset time', () => {
    const reset = Math.floor(NOW / 1000) + 7200;
    const v = classifyX(429, { title: 'Too Many Requests' }, h({ 'x-app-limit-24hour-remaining': '0', 'x-app-limit-24hour-reset': String(reset) }), NOW);
    expect(v).toMatchObject({ kind: 'quota', quota: { resetsAt: new Date(reset * 1000) } });
  });
  it('a plain 429 waits until x-rate-limit-reset', () => {
    const v = classifyX(429, { title: 'Too Many Requests' }, h({ 'x-rate-limit-reset': String(Math.floor(NOW / 1000) + 12) }), NOW);
    expect(v).toMatchObject({ kind: 'rate', temporary: true, waitSeconds: 12 });
  });
  it('a 403 client-not-enrolled is a permission error about the access tier, not bad credentials', () => {
    const v = classifyX(403, { title: 'Forbidden', reason: 'client-not-enrolled', type: 'https://api.twitter.com/2/problems/client-forbidden', detail: 'subset' }, h(), NOW);
    expect(v).toMatchObject({ kind: 'permission' });
    expect(v?.hint).toMatch(/Basic or higher/);
  });
});

describe('YouTube classification (developers.google.com/youtube/v3/docs/errors)', () => {
  it('tells quota, rate, access and key problems apart', () => {
    const quota = classifyYoutube(403, google(403, 'quotaExceeded'), h(), NOW);
    expect(quota).toMatchObject({ kind: 'quota', temporary: false });
    expect(quota?.quota?.resetsAt).toEqual(nextPacificMidnight(new Date(NOW)));
    expect(classifyYoutube(403, google(403, 'rateLimitExceeded'), h(), NOW)).toMatchObject({ kind: 'rate', temporary: true });
    expect(classifyYoutube(403, google(403, 'accessNotConfigured'), h(), NOW)).toMatchObject({ kind: 'permission' });
    expect(classifyYoutube(403, google(403, 'ipRefererBlocked'), h(), NOW)).toMatchObject({ kind: 'permission' });
    expect(classifyYoutube(400, google(400, 'keyInvalid'), h(), NOW)).toMatchObject({ kind: 'credentials' });
  });
  it('estimates a 1,000-result query at 20 search pages + 20 videos.list calls', () => {
    expect(youtubeUnitsEstimate(1000)).toBe(2020);
    expect(youtubeUnitsEstimate(50)).toBe(101);
  });
  it('resets at midnight Pacific, in winter (PST) and summer (PDT)', () => {
    expect(nextPacificMidnight(new Date('2026-11-23T12:00:00Z')).toISOString()).toBe('2026-11-24T08:00:00.000Z');
    expect(nextPacificMidnight(new Date('2026-07-01T12:00:00Z')).toISOString()).toBe('2026-07-02T07:00:00.000Z');
    expect(pacificDay(new Date('2026-11-24T07:59:00Z'))).toBe('2026-11-23');
  });
});

describe('Graph classification (graph-api/guides/error-handling)', () => {
  const c = graphClassify({ token: 'T', permission: 'P' });
  const g = (code: number, extra: Record<string, unknown> = {}) => ({ error: { message: 'm', type: 'OAuthException', code, fbtrace_id: 'f', ...extra } });
  it('retries the temporary codes 1, 2, 341 and is_transient; throttling codes are rate limits', () => {
    for (const code of [1, 2, 341]) expect(c(400, g(code), h(), NOW)).toMatchObject({ kind: 'platform_down', temporary: true });
    expect(c(400, g(9007, { is_transient: true }), h(), NOW)).toMatchObject({ kind: 'platform_down', temporary: true });
    const buc = JSON.stringify({ '123': [{ type: 'pages', call_count: 100, total_cputime: 30, total_time: 40, estimated_time_to_regain_access: 2 }] });
    expect(c(403, g(32), h({ 'x-business-use-case-usage': buc }), NOW)).toMatchObject({ kind: 'rate', waitSeconds: 120 });
    expect(c(400, g(190), h(), NOW)).toMatchObject({ kind: 'credentials', hint: 'T' });
    expect(c(403, g(200), h(), NOW)).toMatchObject({ kind: 'permission', hint: 'P' });
    expect(c(400, g(100), h(), NOW)).toMatchObject({ kind: 'invalid_query' });
  });
  it('slows down as usage nears 100% (X-App-Usage / X-Business-Use-Case-Usage)', () => {
    expect(graphPaceMs(h({ 'x-app-usage': JSON.stringify({ call_count: 40, total_cputime: 10, total_time: 20 }) }))).toBe(0);
    expect(graphPaceMs(h({ 'x-app-usage': JSON.stringify({ call_count: 95, total_cputime: 10, total_time: 20 }) }))).toBe(8000);
    const buc = JSON.stringify({ '1': [{ call_count: 80, total_cputime: 5, total_time: 5, estimated_time_to_regain_access: 0 }] });
    expect(graphPaceMs(h({ 'x-business-use-case-usage': buc }))).toBe(2000);
  });
  it('signs calls with appsecret_proof = HMAC-SHA256(token, app secret) when a secret is configured', () => {
    const expected = createHmac('sha256', 'sec').update('tok').digest('hex');
    expect(appSecretProof('tok', 'sec')).toBe(expected);
    expect(new URL(withAppSecretProof('https://g/v26.0/me?access_token=tok', 'sec')).searchParams.get('appsecret_proof')).toBe(expected);
    expect(withAppSecretProof('https://g/v26.0/me?access_token=tok', undefined)).toBe('https://g/v26.0/me?access_token=tok');
  });
  it('follows paging.next on the same origin only, and never the same page twice', () => {
    const seen = new Set<string>();
    const cur = 'https://g/v26.0/1/recent_media?a=1';
    expect(graphNextUrl(cur, { next: 'https://g/v26.0/1/recent_media?after=X' }, seen)).toBe('https://g/v26.0/1/recent_media?after=X');
    expect(graphNextUrl(cur, { next: 'https://g/v26.0/1/recent_media?after=X' }, seen)).toBeUndefined();
    expect(graphNextUrl(cur, { next: 'https://evil.example/v26.0/1?after=Y' }, seen)).toBeUndefined();
    expect(graphNextUrl(cur, { cursors: { after: 'Z' } }, seen)).toBeUndefined();
  });
});

describe('Graph API version', () => {
  it('defaults to the newest stable version and is configurable per deployment', () => {
    expect(DEFAULT_GRAPH_API_VERSION).toBe(GRAPH_VERSIONS[0].version);
    expect(loadConfig({}).graphApiVersion).toBe(DEFAULT_GRAPH_API_VERSION);
    expect(loadConfig({ GLEANER_GRAPH_API_VERSION: 'v24.0' }).graphApiVersion).toBe('v24.0');
    expect(() => loadConfig({ GLEANER_GRAPH_API_VERSION: '24' })).toThrow(/GLEANER_GRAPH_API_VERSION/);
  });
  it('warns as retirement approaches, and after it', () => {
    expect(graphVersionStatus('v21.0', new Date('2026-06-01T00:00:00Z'))).toMatchObject({ state: 'ok', warning: null });
    const soon = graphVersionStatus('v21.0', new Date('2026-12-01T00:00:00Z'));
    expect(soon.state).toBe('retiring');
    expect(soon.warning).toMatch(/retires on 2027-01-21/);
    expect(graphVersionStatus('v20.0', new Date('2026-11-23T00:00:00Z')).state).toBe('retired');
    expect(graphVersionStatus('v99.0', new Date()).state).toBe('unknown');
  });
});

describe('TikTok and LinkedIn classification', () => {
  const tt = (code: string) => ({ error: { code, message: 'm', log_id: 'l' } });
  it('TikTok: error.code decides', () => {
    expect(classifyTiktok(401, tt('access_token_invalid'), h(), NOW)).toMatchObject({ kind: 'credentials' });
    expect(classifyTiktok(401, tt('scope_not_authorized'), h(), NOW)).toMatchObject({ kind: 'permission' });
    expect(classifyTiktok(400, tt('invalid_params'), h(), NOW)).toMatchObject({ kind: 'invalid_query' });
    expect(classifyTiktok(429, tt('rate_limit_exceeded'), h(), NOW)).toMatchObject({ kind: 'rate', temporary: true });
    expect(classifyTiktok(429, tt('daily_quota_limit_exceeded'), h(), NOW)).toMatchObject({ kind: 'quota', quota: { resetsAt: new Date('2026-11-24T00:00:00Z') } });
    expect(classifyTiktok(500, tt('internal_error'), h(), NOW)).toMatchObject({ kind: 'platform_down', temporary: true });
  });
  it('LinkedIn: 429 is the daily limit (quota, reset at midnight UTC)', () => {
    expect(classifyLinkedIn(429, { message: 'Resource level throttle limit' }, h(), NOW)).toMatchObject({ kind: 'quota', quota: { resetsAt: new Date('2026-11-24T00:00:00Z') } });
    expect(classifyLinkedIn(403, { message: 'no' }, h(), NOW)).toMatchObject({ kind: 'permission' });
  });
});

describe('Reddit identity and query length', () => {
  it('builds the User-Agent Reddit asks for from the tenant’s app id and username', () => {
    expect(redditUserAgent('com.example.brand', 'alice')).toBe('web:com.example.brand:v1.0 (by /u/alice)');
    expect(redditUserAgent('com.example.brand', '/u/alice', 'v2.1')).toBe('web:com.example.brand:v2.1 (by /u/alice)');
    expect(redditConnector.credentialFields.filter((f) => f.required).map((f) => f.name)).toEqual(['client_id', 'client_secret', 'app_id', 'username']);
  });
  it('finds the sources whose search text would be too long (X and Reddit: 512)', () => {
    const plan = { keywords: Array.from({ length: 60 }, (_, i) => `keyword${i}`), phrases: [], hashtags: [], mentions: [], exclude: [], since: '2026-11-20T00:00:00Z', until: '2026-11-23T00:00:00Z' };
    expect(buildXQuery(plan).length).toBeGreaterThan(512);
    expect(xConnector.maxQueryLength).toBe(512);
    const problems = queryLengthProblems(['x', 'reddit', 'youtube'], plan, connectors);
    expect(problems.map((p) => [p.source, p.max])).toEqual([
      ['x', 512],
      ['reddit', 512],
    ]);
  });
});
