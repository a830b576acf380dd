import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { CONSENT_TEXTS, CROSS_SITE_TEXT, DYNAMIC_EXPECTED } from '../../fixtures/dynamic/dynamic-routes.js';
import { BROWSER_BINARIES } from '../../support/browser-binaries.js';
import { decodePng, shareNear } from '../../support/png-pixels.js';

// Issue 30 from outside: page actions, overlays, shadow DOM and iframes through POST /v1/scrape
// and page-content runs of the local service, on each Chromium binary present (GLEANER_CHROMIUM).
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const SECRET = 'harbour-secret-42';

describe.each(BROWSER_BINARIES)('scrape actions through the local service ($name Chromium)', ({ name }) => {
  let svc: TestService;
  const url = (p: string) => `${site.baseUrl}${p}`;
  const scrape = (json: unknown, key?: string) => svc.call('/v1/scrape', { method: 'POST', json, ...(key ? { key } : {}) });

  beforeAll(async () => {
    svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port}`, GLEANER_CHROMIUM: name });
    expect((await svc.call('/dashboard/api/secrets/search_pw', { method: 'PUT', json: { value: SECRET, domains: ['127.0.0.1'] } })).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await svc?.destroy();
  });

  it('click-to-load and a screenshot: 200 with the loaded text and actions.screenshots', async () => {
    const r = await scrape({ url: url('/dynamic/click-load'), formats: ['markdown'], actions: [{ type: 'click', selector: '#more' }, { type: 'wait', selector: '#chapter p' }, { type: 'screenshot' }] });
    expect(r.status, r.text).toBe(200);
    expect(r.body.engine_used).toBe('browser');
    expect(r.body.markdown).toContain(DYNAMIC_EXPECTED['/dynamic/click-load']![1]);
    expect(r.body.actions.screenshots).toHaveLength(1);
    expect(decodePng(r.body.actions.screenshots[0]).width).toBeGreaterThan(100);
  });

  it('infinite scroll and write + press', async () => {
    const scroll = await scrape({ url: url('/dynamic/infinite'), formats: ['text'], actions: [{ type: 'scroll', amount: 'bottom' }] });
    expect(scroll.status, scroll.text).toBe(200);
    expect(scroll.body.text).toContain('Entry 20 of the logbook');
    const search = await scrape({ url: url('/dynamic/search'), formats: ['markdown'], actions: [{ type: 'write', selector: '#q', text: 'old maps' }, { type: 'press', key: 'Enter' }] });
    expect(search.status, search.text).toBe(200);
    expect(search.body.markdown).toContain('Results for old maps');
  });

  it('a failed action is 422 action_failed naming its index; a click to a forbidden target is refused', async () => {
    const failed = await scrape({ url: url('/dynamic/click-load'), actions: [{ type: 'click', selector: '#more' }, { type: 'wait', selector: '#nope', ms: 1000 }] });
    expect(failed.status).toBe(422);
    expect(failed.body).toMatchObject({ code: 'action_failed', details: [{ path: 'actions.1' }] });
    expect(failed.body.details[0].message).toMatch(/^wait: timeout/);
    expect(failed.body.message).toMatch(/^Action 1 \(wait\) failed/);
    const before = site.hits('/dynamic/elsewhere');
    const out = await scrape({ url: url('/dynamic/leave'), actions: [{ type: 'click', selector: '#out' }] });
    expect(out.body.code).toBe('target_forbidden');
    expect(site.hits('/dynamic/elsewhere')).toBe(before);
  });

  it('consent walls are out of markdown and the screenshot; shadow and same-site frame content is in, cross-site is not', async () => {
    const wall = await scrape({ url: url('/dynamic/consent-modal-de'), engine: 'browser', formats: ['markdown', 'screenshot'], only_main_content: false });
    expect(wall.status, wall.text).toBe(200);
    expect(wall.body.markdown).toContain(DYNAMIC_EXPECTED['/dynamic/consent-modal-de']![0]);
    for (const t of CONSENT_TEXTS['/dynamic/consent-modal-de']!) expect(wall.body.markdown).not.toContain(t);
    expect(shareNear(decodePng(wall.body.screenshot), [210, 30, 30])).toBe(0);
    const shadow = await scrape({ url: url('/dynamic/shadow'), engine: 'browser', formats: ['markdown'] });
    for (const t of DYNAMIC_EXPECTED['/dynamic/shadow']!) expect(shadow.body.markdown).toContain(t);
    const frames = await scrape({ url: url('/dynamic/frames'), engine: 'browser', formats: ['text'], only_main_content: false });
    for (const t of DYNAMIC_EXPECTED['/dynamic/frames']!) expect(frames.body.text).toContain(t);
    expect(frames.body.text).not.toContain(CROSS_SITE_TEXT);
  });

  it('validation errors are 400 naming the field', async () => {
    const tooMany = await scrape({ url: url('/dynamic/click-load'), actions: Array.from({ length: 21 }, () => ({ type: 'wait', ms: 1 })) });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body.details)).toContain('actions');
    const noSelector = await scrape({ url: url('/dynamic/click-load'), actions: [{ type: 'click' }] });
    expect(noSelector.status).toBe(400);
    expect(JSON.stringify(noSelector.body.details)).toMatch(/actions\.0\.selector/);
    const badWait = await scrape({ url: url('/dynamic/click-load'), actions: [{ type: 'wait', ms: 60_000 }] });
    expect(badWait.status).toBe(400);
    expect(JSON.stringify(badWait.body.details)).toMatch(/actions\.0\.ms/);
  });

  it('write may type a tenant secret: secrets:use needed, allowlisted host only, never returned', async () => {
    const key = (await svc.call('/dashboard/api/keys', { method: 'POST', json: { scopes: ['scrape:write'] } })).body.api_key as string;
    const actions = [{ type: 'write', selector: '#q', text: { secret: 'search_pw' } }, { type: 'press', key: 'Enter' }];
    const noScope = await scrape({ url: url('/dynamic/search'), actions }, key);
    expect(noScope.status).toBe(403);
    const notAllowlisted = await scrape({ url: url('/dynamic/search'), actions });
    expect(notAllowlisted.status).toBe(422);
    expect(notAllowlisted.body.details[0]).toMatchObject({ path: 'actions.0' });
    expect(notAllowlisted.body.details[0].message).toMatch(/target_not_authorized/);
    expect((await svc.call('/dashboard/api/settings/target-policy', { method: 'PUT', json: { mode: 'allowlist', domains: ['127.0.0.1'] } })).status).toBe(200);
    try {
      const ok = await scrape({ url: url('/dynamic/search'), formats: ['markdown', 'html'], actions });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.markdown).toContain('Results for [secret]');
      expect(ok.text).not.toContain(SECRET);
    } finally {
      await svc.call('/dashboard/api/settings/target-policy', { method: 'PUT', json: { mode: 'open', domains: [] } });
    }
  });

  it('a secret a write action typed reaches neither a 422 message nor a run log (issue 37 finding 3)', async () => {
    const actions = [{ type: 'write', selector: '#q', text: { secret: 'search_pw' } }, { type: 'press', key: 'Enter' }];
    expect((await svc.call('/dashboard/api/settings/target-policy', { method: 'PUT', json: { mode: 'allowlist', domains: ['127.0.0.1'] } })).status).toBe(200);
    try {
      // The form leads to /private/search?q=<secret>, which robots.txt disallows.
      const skipped = await scrape({ url: url('/dynamic/search-private'), actions });
      expect(skipped.status, skipped.text).toBe(422);
      expect(skipped.body.code).toBe('robots_disallowed');
      expect(skipped.body.message).toContain('q=[secret]');
      expect(skipped.text).not.toContain(SECRET);
      const started = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input: { url: url('/dynamic/search'), actions } } });
      expect(started.status, started.text).toBe(201);
      let run: { status: string } = { status: 'queued' };
      for (let i = 0; i < 300 && !['succeeded', 'failed', 'timed_out', 'blocked'].includes(run.status); i++) {
        await new Promise((r) => setTimeout(r, 200));
        run = (await svc.call(`/v1/runs/${started.body.id}`)).body;
      }
      expect(run.status, JSON.stringify(run)).toBe('succeeded');
      const log = await svc.call(`/v1/runs/${started.body.id}/log`);
      expect(log.status).toBe(200);
      expect(log.text).toContain('q=[secret]');
      expect(log.text).not.toContain(SECRET);
      expect((await svc.call(`/v1/runs/${started.body.id}/results`)).text).not.toContain(SECRET);
    } finally {
      await svc.call('/dashboard/api/settings/target-policy', { method: 'PUT', json: { mode: 'open', domains: [] } });
    }
  });

  it('page-content runs take actions too', async () => {
    const started = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input: { url: url('/dynamic/click-load'), actions: [{ type: 'click', selector: '#more' }, { type: 'wait', selector: '#chapter p' }] } } });
    expect(started.status, started.text).toBe(201);
    let run: { status: string } = { status: 'queued' };
    for (let i = 0; i < 300 && !['succeeded', 'failed', 'timed_out', 'blocked'].includes(run.status); i++) {
      await new Promise((r) => setTimeout(r, 200));
      run = (await svc.call(`/v1/runs/${started.body.id}`)).body;
    }
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const items = await svc.call(`/v1/runs/${started.body.id}/results`);
    expect(JSON.stringify(items.body)).toContain(DYNAMIC_EXPECTED['/dynamic/click-load']![1]);
  });
});
