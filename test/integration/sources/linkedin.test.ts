import { afterEach, describe, expect, it } from 'vitest';
import { defaultLinkedInVersion, linkedinConnector, littleTextToPlain } from '../../../functions/core/sources/linkedin.js';
import { SourceError, type QueryPlan } from '../../../functions/core/sources/types.js';
import { catchSourceError, fakeContext } from '../../fixtures/fake-sources/server.js';
import type { FakeApi } from '../../fixtures/fake-sources/server.js';
import { LI_NEWEST, LINKEDIN_TOKEN, startFakeLinkedIn } from '../../fixtures/fake-sources/linkedin.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const ORG1 = 'urn:li:organization:1001';

function plan(over: Partial<QueryPlan> = {}): QueryPlan {
  return {
    keywords: ['acme', 'shoes'],
    phrases: [],
    hashtags: [],
    mentions: [],
    exclude: [],
    since: iso(LI_NEWEST - 30 * 24 * HOUR),
    until: iso(LI_NEWEST + HOUR),
    ...over,
  };
}

const makeCtx = (api: FakeApi, over: { plan?: Partial<QueryPlan>; limit?: number; credentials?: Record<string, string> | undefined } = {}) =>
  fakeContext(api, plan(over.plan), { access_token: LINKEDIN_TOKEN }, over);

const catchErr = catchSourceError;

const postRequests = (api: FakeApi, org: string) =>
  api.requests.filter((r) => r.path.startsWith('/rest/posts') && new URL(r.path, 'http://x').searchParams.get('author') === org);
const socialRequests = (api: FakeApi) => api.requests.filter((r) => r.path.startsWith('/rest/socialActions/'));

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('linkedin connector', () => {
  it('declares its credentials and access notes', () => {
    expect(linkedinConnector.name).toBe('linkedin');
    expect(linkedinConnector.defaultBaseUrl).toBe('https://api.linkedin.com');
    expect(linkedinConnector.credentialFields.map((f) => [f.name, f.required])).toEqual([
      ['access_token', true],
      ['organization_urns', false],
      ['api_version', false],
    ]);
    expect(linkedinConnector.accessNotes).toMatch(/r_organization_social/);
    expect(linkedinConnector.accessNotes).toMatch(/Community Management API/);
  });

  it('converts little-text commentary and picks a supported version', () => {
    expect(littleTextToPlain('Hi @[Acme Labs](urn:li:organization:1002) {hashtag|\\#|acme} \\(x\\)')).toBe('Hi @Acme Labs #acme (x)');
    expect(defaultLinkedInVersion(new Date(Date.UTC(2026, 10, 22)))).toBe('202609');
    expect(defaultLinkedInVersion(new Date(Date.UTC(2026, 0, 5)))).toBe('202511');
  });

  it('discovers administered organizations, pages through their posts and maps them with metrics', async () => {
    api = await startFakeLinkedIn();
    const items = await linkedinConnector.search(makeCtx(api).ctx);

    expect(items.map((i) => i.id)).toEqual([
      'urn:li:share:70000000000000100',
      'urn:li:ugcPost:7000000000000210',
      'urn:li:share:70000000000000101',
      'urn:li:share:70000000000000103',
      'urn:li:share:70000000000000104',
      'urn:li:ugcPost:7000000000000212',
      'urn:li:share:70000000000000106',
    ]);
    expect(items[0]).toEqual({
      source: 'linkedin',
      id: 'urn:li:share:70000000000000100',
      url: 'https://www.linkedin.com/feed/update/urn:li:share:70000000000000100',
      author: 'Acme Corp',
      text: 'Launching the new Acme rocket shoes today! #acme',
      created_at: iso(LI_NEWEST),
      metrics: { likes: 10, comments: 0 },
    });
    expect(items[1].author).toBe('Acme Labs');
    expect(items[1].metrics).toEqual({ likes: 100, comments: 20 });
    expect(items.find((i) => i.id.endsWith('104'))?.text).toBe('Behind the scenes at Acme: how our shoes are made (part 1)');
    expect(items.map((i) => i.id)).not.toContain('urn:li:share:7000000000000099'); // draft

    // Discovery, then posts by start/count, with the required headers everywhere.
    expect(api.requests[0].path).toBe('/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED&count=100&start=0');
    const org1 = postRequests(api, ORG1).map((r) => new URL(r.path, 'http://x').searchParams);
    expect(org1.map((q) => q.get('start'))).toEqual(['0', '3', '6']); // 8 posts, 3 per page
    expect(org1[0].get('q')).toBe('author');
    expect(org1[0].get('count')).toBe('100');
    expect(org1[0].get('sortBy')).toBe('LAST_MODIFIED');
    expect(postRequests(api, ORG1)[0].path).toContain('author=urn%3Ali%3Aorganization%3A1001');
    for (const r of api.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${LINKEDIN_TOKEN}`);
      expect(r.headers['linkedin-version']).toMatch(/^\d{6}$/);
      expect(r.headers['x-restli-protocol-version']).toBe('2.0.0');
    }
    expect(socialRequests(api)).toHaveLength(7);
    expect(socialRequests(api)[0].path).toMatch(/^\/rest\/socialActions\/urn%3Ali%3A/);
  });

  it('reads only organization_urns when given, and sends api_version', async () => {
    api = await startFakeLinkedIn();
    const items = await linkedinConnector.search(
      makeCtx(api, { credentials: { access_token: LINKEDIN_TOKEN, organization_urns: ' 1002 ', api_version: '202507' } }).ctx,
    );
    expect(items.map((i) => i.author)).toEqual(['Acme Labs', 'Acme Labs']);
    expect(api.requests.some((r) => r.path.startsWith('/rest/organizationAcls'))).toBe(false);
    expect(postRequests(api, ORG1)).toHaveLength(0);
    expect(api.requests.every((r) => r.headers['linkedin-version'] === '202507')).toBe(true);
  });

  it('rejects malformed organization_urns and api_version with a fix', async () => {
    api = await startFakeLinkedIn();
    const bad = await catchErr(linkedinConnector.search(makeCtx(api, { credentials: { access_token: LINKEDIN_TOKEN, organization_urns: 'acme-corp' } }).ctx));
    expect(bad.message).toMatch(/urn:li:organization:123.*acme-corp.*PUT \/dashboard\/api\/sources\/linkedin/);
    const ver = await catchErr(linkedinConnector.search(makeCtx(api, { credentials: { access_token: LINKEDIN_TOKEN, api_version: 'latest' } }).ctx));
    expect(ver.message).toMatch(/YYYYMM/);
    expect(api.requests).toHaveLength(0);
  });

  it('filters keywords, mentions and exclusions client-side', async () => {
    api = await startFakeLinkedIn();
    const excl = await linkedinConnector.search(makeCtx(api, { plan: { exclude: ['sale'] } }).ctx);
    expect(excl.map((i) => i.id)).not.toContain('urn:li:share:70000000000000103');
    expect(excl).toHaveLength(6);

    const mention = await linkedinConnector.search(makeCtx(api, { plan: { keywords: ['zzz'], mentions: ['Acme Labs'] } }).ctx);
    // "@Acme Labs" in a post of Acme Corp, and posts of Acme Labs naming it
    expect(mention.map((i) => i.id)).toEqual(['urn:li:ugcPost:7000000000000210', 'urn:li:share:70000000000000101']);
  });

  it('respects the limit: fewer pages and one socialActions call per returned post', async () => {
    api = await startFakeLinkedIn();
    const items = await linkedinConnector.search(makeCtx(api, { limit: 2 }).ctx);
    expect(items).toHaveLength(2);
    expect(postRequests(api, ORG1)).toHaveLength(1);
    expect(socialRequests(api)).toHaveLength(2);
  });

  it('applies the time window and stops paging once posts were last modified before since', async () => {
    api = await startFakeLinkedIn({ pageSize: 2 });
    const { ctx } = makeCtx(api, { plan: { keywords: [], since: iso(LI_NEWEST - 2.5 * HOUR), until: iso(LI_NEWEST - 0.75 * HOUR) } });
    const items = await linkedinConnector.search(ctx);
    expect(items.map((i) => i.id)).toEqual(['urn:li:share:70000000000000101', 'urn:li:share:70000000000000102', 'urn:li:ugcPost:7000000000000211']);
    // org 1001 pages: [draft, p0] [p1, p2] [p3, p4] ← all before since: stop; [p5, p6] never read
    expect(postRequests(api, ORG1).map((r) => new URL(r.path, 'http://x').searchParams.get('start'))).toEqual(['0', '2', '4']);
  });

  it('retries a 429 honouring Retry-After', async () => {
    api = await startFakeLinkedIn({ rateLimitFirst: 1, retryAfter: '3' });
    const { ctx, sleeps } = makeCtx(api);
    const items = await linkedinConnector.search(ctx);
    expect(items).toHaveLength(7);
    expect(sleeps).toEqual([3000]);
  });

  it('keeps posts without metrics when socialActions stays rate limited', async () => {
    api = await startFakeLinkedIn({ rateLimitFirst: 1000, retryAfter: '1', rateLimitWhen: (r) => r.path.startsWith('/rest/socialActions/') });
    const { ctx, sleeps } = makeCtx(api);
    const items = await linkedinConnector.search(ctx);
    expect(items).toHaveLength(7);
    expect(items.every((i) => Object.keys(i.metrics).length === 0)).toBe(true);
    expect(sleeps.every((ms) => ms === 1000)).toBe(true);
    // after the first exhausted call the remaining posts are not asked for (4 parallel calls × 4 attempts at most)
    expect(socialRequests(api).length).toBeLessThanOrEqual(16);
  });

  it('lets an abort through instead of swallowing it in best-effort metrics', async () => {
    const ac = new AbortController();
    api = await startFakeLinkedIn({
      onRequest: (r) => {
        if (r.path.startsWith('/rest/socialActions/')) ac.abort(new DOMException('query deadline', 'TimeoutError'));
      },
    });
    const { ctx } = makeCtx(api);
    ctx.signal = ac.signal;
    const err = await linkedinConnector.search(ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).not.toBeInstanceOf(SourceError);
    expect((err as Error).name).toBe('TimeoutError');
  });

  it('explains how to fix a rejected token (401)', async () => {
    api = await startFakeLinkedIn();
    const err = await catchErr(linkedinConnector.search(makeCtx(api, { credentials: { access_token: 'expired' } }).ctx));
    expect(err.message).toContain('linkedin rejected the credentials (401): Invalid access token');
    expect(err.message).toMatch(/re-authorize the app/);
    expect(err.message).toContain('r_organization_social');
    expect(err.message).toContain('PUT /dashboard/api/sources/linkedin');
    expect(err.retryable).toBe(false);
  });

  it('names the missing credential and how to add it', async () => {
    api = await startFakeLinkedIn();
    for (const credentials of [undefined, { organization_urns: '1001' }]) {
      const err = await catchErr(linkedinConnector.search(makeCtx(api, { credentials }).ctx));
      expect(err.message).toContain('access_token');
      expect(err.message).toContain('PUT /dashboard/api/sources/linkedin');
    }
    expect(api.requests).toHaveLength(0);
  });

  it('reports a platform outage as a retryable error after retries', async () => {
    api = await startFakeLinkedIn({ down: true });
    const { ctx, sleeps } = makeCtx(api);
    const err = await catchErr(linkedinConnector.search(ctx));
    expect(err.message).toMatch(/linkedin organization list is unavailable \(platform down\) \(500\): Internal Server Error/);
    expect(err.retryable).toBe(true);
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });

  it('says so when the member administers no organization', async () => {
    api = await startFakeLinkedIn({ adminOf: [] });
    const err = await catchErr(linkedinConnector.search(makeCtx(api).ctx));
    expect(err.message).toMatch(/administers no organization/);
    expect(err.message).toContain('PUT /dashboard/api/sources/linkedin');
  });
});
