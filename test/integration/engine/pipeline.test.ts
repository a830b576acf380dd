import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, startFixtureSite, type Canary, type FixtureSite } from '../../fixtures/site/server.js';
import type { HostGate } from '../../../functions/core/governance/politeness.js';
import { makeHarness, type Harness } from './harness.js';

let site: FixtureSite;
let canary: Canary;
let h: Harness;

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureSite({ canaryUrl: canary.url });
  h = makeHarness({ fixturePort: site.port });
});

afterAll(async () => {
  await h?.close();
  await site?.close();
  await canary?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;

describe('engine pipeline: content', () => {
  it('reads a static page with the http engine', async () => {
    const r = await h.engine.scrapePage(url('/article'), { engine: 'http' });
    expect(r).toMatchObject({ status_code: 200, engine_used: 'http', title: 'A Long Article', final_url: url('/article') });
    expect(r.markdown).toMatch(/^# The article headline/);
    expect(r.text).toContain('First paragraph with bold');
    expect(r.links).toContain(url('/about'));
    expect(r.metadata).toMatchObject({ lang: 'en-GB', canonical: url('/article'), og: { title: 'Article OG Title' } });
    expect(r.html).toBeUndefined(); // not asked for
    expect(h.logs.at(-1)).toMatchObject({ url: url('/article'), status: 200, engine: 'http', decision: 'fetched' });
    expect(h.logs.at(-1)!.bytes).toBeGreaterThan(500);
  });

  it('reads the same page with the browser engine, same shape', async () => {
    const r = await h.engine.scrapePage(url('/article'), { engine: 'browser', formats: ['markdown', 'html', 'metadata'] });
    expect(r).toMatchObject({ status_code: 200, engine_used: 'browser', title: 'A Long Article' });
    expect(r.markdown).toMatch(/^# The article headline/);
    expect(r.html).toContain('<article>');
    expect(r.text).toBeUndefined();
  });

  it('renders a JavaScript page in the browser and waits for a selector', async () => {
    const r = await h.engine.scrapePage(url('/js-app'), { engine: 'browser', formats: ['html', 'text'], wait_for: '#loaded' });
    expect(r.title).toBe('JS App (rendered)');
    expect(r.text).toContain('This paragraph only exists after the script ran.');
    expect(r.html).toContain('Late content');
  });

  it('auto stays on http for static pages and uses the browser only for the JS page', async () => {
    const before = h.logs.length;
    const stat = await h.engine.scrapePage(url('/pages/3'), { engine: 'auto' });
    const js = await h.engine.scrapePage(url('/js-app'), { engine: 'auto' });
    expect(stat).toMatchObject({ engine_used: 'http', auto_reason: null, title: 'Static page 3' });
    expect(js).toMatchObject({ engine_used: 'browser', auto_reason: 'empty app root #root with script' });
    expect(js.text).toContain('Rendered by JavaScript');
    expect(h.logs.slice(before).map((l) => `${new URL(l.url).pathname}:${l.engine}`)).toEqual([
      '/pages/3:http',
      '/js-app:http',
      '/js-app:browser',
    ]);
  });

  it('auto switches to the browser when a screenshot is asked for', async () => {
    const r = await h.engine.scrapePage(url('/about'), { engine: 'auto', formats: ['screenshot'] });
    expect(r).toMatchObject({ engine_used: 'browser', auto_reason: 'screenshot requested' });
    expect(Buffer.from(r.screenshot!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('extracts fields in the extract stage', async () => {
    const r = await h.engine.scrapePage(url('/products?page=2'), {
      engine: 'http',
      formats: ['metadata'],
      extract: { names: { selector: '.product .name', all: true }, next: { selector: 'a.next', attr: 'href' } },
    });
    expect(r.extracted).toEqual({
      names: ['Product 5', 'Product 6', 'Product 7', 'Product 8'],
      next: url('/products?page=3'),
    });
  });

  it('follows same-site redirects', async () => {
    const r = await h.engine.scrapePage(url('/redirect-local'), { engine: 'http' });
    expect(r).toMatchObject({ url: url('/redirect-local'), final_url: url('/about'), title: 'About the fixture' });
  });
});

describe('engine pipeline: governance', () => {
  it('skips robots-disallowed pages without fetching them, and counts the skip', async () => {
    const skipped = h.engine.stats().robots_skipped;
    const r = await h.engine.scrapePage(url('/private/report'), { engine: 'browser' });
    expect(r).toMatchObject({ skipped: 'robots', status_code: 0, engine_used: null });
    expect(site.hits('/private/report')).toBe(0);
    expect(h.engine.stats().robots_skipped).toBe(skipped + 1);
    expect(h.logs.at(-1)).toMatchObject({ decision: 'robots_skipped', url: url('/private/report') });
  });

  it('refuses a redirect to a non-allowed port (http): target_forbidden, canary untouched', async () => {
    const blocked = h.engine.stats().blocked_requests;
    await expect(h.engine.scrapePage(url('/redirect-canary'), { engine: 'http' })).rejects.toMatchObject({
      code: 'target_forbidden',
    });
    expect(canary.connections()).toBe(0);
    expect(h.engine.stats().blocked_requests).toBe(blocked + 1);
    expect(h.logs.at(-1)).toMatchObject({ decision: 'forbidden', engine: 'http' });
  });

  it('refuses the same redirect in the browser', async () => {
    await expect(h.engine.scrapePage(url('/redirect-canary'), { engine: 'browser' })).rejects.toMatchObject({
      code: 'target_forbidden',
    });
    expect(canary.connections()).toBe(0);
    expect(h.logs.at(-1)).toMatchObject({ decision: 'forbidden', engine: 'browser' });
  });

  it('refuses a direct target on a non-allowed loopback port before any request', async () => {
    await expect(h.engine.scrapePage(canary.url, { engine: 'auto' })).rejects.toMatchObject({ code: 'target_forbidden' });
    expect(canary.connections()).toBe(0);
  });

  it('blocks an image pointing at the canary but still returns the page', async () => {
    const blocked = h.engine.stats().blocked_requests;
    const r = await h.engine.scrapePage(url('/img-canary'), { engine: 'browser' });
    expect(r).toMatchObject({ status_code: 200, title: 'Image canary' });
    expect(canary.connections()).toBe(0);
    expect(h.engine.stats().blocked_requests).toBeGreaterThan(blocked);
    expect((await h.engine.browserSession()).blockedUrls()).toContain(`${canary.url}pixel.png`);
  });

  it('blocks script navigation, fetch and a WebSocket to the canary', async () => {
    const blocked = h.engine.stats().blocked_requests;
    await expect(h.engine.scrapePage(url('/js-canary'), { engine: 'browser' })).rejects.toMatchObject({
      code: 'target_forbidden',
    });
    await new Promise((r) => setTimeout(r, 300)); // let late requests of the tab arrive (they must not)
    expect(canary.connections()).toBe(0);
    expect(h.engine.stats().blocked_requests).toBeGreaterThanOrEqual(blocked + 2);
    const refused = (await h.engine.browserSession()).blockedUrls();
    // The script navigation is a document request: the engine's document admission refuses it
    // with the egress check before it reaches the proxy (issue 19 finding 1).
    expect([...refused, ...h.refused]).toContain(`${canary.url}navigated`);
    expect(refused).toContain(`${canary.url}xhr`);
    // Chromium tunnels ws:// through the proxy with CONNECT, refused by host:port.
    expect(refused).toContain(`127.0.0.1:${canary.port}`);
  });

  it('detects a Cloudflare challenge and does not retry it (not in the browser either)', async () => {
    const challenges = h.engine.stats().challenges;
    const r = await h.engine.scrapePage(url('/challenge'), { engine: 'auto' });
    expect(r).toMatchObject({ status_code: 503, engine_used: 'http', blocked: { kind: 'cloudflare_challenge' } });
    expect(r.markdown).toBeUndefined();
    expect(site.hits('/challenge')).toBe(1);
    expect(h.engine.stats().challenges).toBe(challenges + 1);
    expect(h.logs.at(-1)).toMatchObject({ decision: 'blocked', status: 503 });
    expect(h.engine.stopReason()).toBeNull(); // skip_page policy
  });

  it('detects a reCAPTCHA wall in the browser too', async () => {
    const r = await h.engine.scrapePage(url('/captcha'), { engine: 'browser' });
    expect(r).toMatchObject({ status_code: 403, engine_used: 'browser', blocked: { kind: 'recaptcha' } });
    expect(site.hits('/captcha')).toBe(1);
  });

  it('counts requests and bytes', () => {
    const s = h.engine.stats();
    expect(s.requests).toBeGreaterThan(10);
    expect(s.bytes).toBeGreaterThan(5_000);
    expect(s.errors).toBe(0);
  });
});

describe('engine pipeline: policies', () => {
  it('stop_run records the challenge as the reason to stop and reports it', async () => {
    const encounters: unknown[] = [];
    const hs = makeHarness({ fixturePort: site.port, challengePolicy: 'stop_run' });
    try {
      const r = await hs.engine.scrapePage(url('/captcha'), { engine: 'http' });
      expect(r.blocked?.kind).toBe('recaptcha');
      expect(hs.engine.stopReason()).toMatchObject({ kind: 'recaptcha', url: url('/captcha') });
      encounters.push(hs.engine.stopReason());
    } finally {
      await hs.close();
    }
    expect(encounters).toHaveLength(1);
  });

  it('an allowlist policy refuses other hosts with target_not_authorized', async () => {
    const hs = makeHarness({ fixturePort: site.port, policy: { mode: 'allowlist', domains: ['shop.example'] } });
    try {
      await expect(hs.engine.scrapePage(url('/about'), { engine: 'http' })).rejects.toMatchObject({
        code: 'target_not_authorized',
      });
      expect(hs.logs.at(-1)).toMatchObject({ decision: 'forbidden' });
    } finally {
      await hs.close();
    }
  });

  it('waits on the politeness gate per host with the robots crawl-delay, and releases it', async () => {
    const slow = await startFixtureSite({ crawlDelay: 2 });
    const calls: [string, number | undefined][] = [];
    let released = 0;
    const gate = {
      acquire: async (host: string, delay?: number) => {
        calls.push([host, delay]);
        return async () => {
          released++;
        };
      },
    } as unknown as HostGate;
    const hs = makeHarness({ fixturePort: slow.port, gate });
    try {
      await hs.engine.scrapePage(`${slow.baseUrl}/about`, { engine: 'http' });
      await hs.engine.scrapePage(`${slow.baseUrl}/private/x`, { engine: 'http' }); // robots: no fetch, no slot
      await expect(hs.engine.scrapePage(`${slow.baseUrl}/redirect-canary`, { engine: 'http' })).rejects.toThrow();
      expect(calls).toEqual([
        [`127.0.0.1:${slow.port}`, 2],
        [`127.0.0.1:${slow.port}`, 2],
      ]);
      expect(released).toBe(2); // released on failure too
    } finally {
      await hs.close();
      await slow.close();
    }
  });

  it('never starts a browser for http-only work', async () => {
    let launched = 0;
    const hs = makeHarness({
      fixturePort: site.port,
      launcher: { launch: async () => { launched++; throw new Error('should not launch'); } },
    });
    try {
      await hs.engine.scrapePage(url('/pages/1'), { engine: 'auto' });
      await hs.engine.scrapePage(url('/pages/2'), { engine: 'http' });
      expect(launched).toBe(0);
    } finally {
      await hs.close();
    }
  });
});
