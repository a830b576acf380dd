import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, startFixtureSite, type Canary, type FixtureSite } from '../../fixtures/site/server.js';
import { makeHarness, type Harness } from './harness.js';
import { decodePng, shareNear } from '../../support/png-pixels.js';

// The browser engine's cheaper path: reused tabs, assets screened but not loaded, and a readiness
// rule (load + quiet window) that must still return content rendered after `load`.
let site: FixtureSite;
let canary: Canary;
let h: Harness;

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureSite({ xhrLatencyMs: 300, canaryUrl: canary.url });
  h = makeHarness({ fixturePort: site.port });
});

afterAll(async () => {
  await h?.close();
  await site?.close();
  await canary?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;

describe('browser engine: late content', () => {
  it('returns what an XHR started after load renders, without wait_for', async () => {
    // Act: the marker arrives 300 ms after `load`, longer than the quiet window.
    const r = await h.engine.scrapePage(url('/js-rich/7'), { engine: 'browser' });
    // Assess
    expect(r.title).toBe('Rich app 7 (rendered)');
    expect(r.text).toContain('rich-marker-7');
    expect(r.markdown).toContain('- Item 5 of page 7');
    expect(site.hits('/api/rich/7')).toBe(1);
  });

  it('auto picks the browser for the rich page and gets the late content too', async () => {
    const r = await h.engine.scrapePage(url('/js-rich/8'), { engine: 'auto' });
    expect(r.engine_used).toBe('browser');
    expect(r.text).toContain('rich-marker-8');
  });

  it('waits for a timer that renders shortly after the scripts ran', async () => {
    const r = await h.engine.scrapePage(url('/js-app'), { engine: 'browser', formats: ['html'] });
    expect(r.html).toContain('Late content');
  });

  it('returns a page that never goes quiet (bounded by the settle cap, not the timeout)', async () => {
    const r = await h.engine.scrapePage(url('/ticker'), { engine: 'browser', formats: ['text'] });
    expect(r.text).toContain('Ticker');
    expect(Number(/\n(\d+)$/.exec(r.text!)?.[1])).toBeGreaterThan(0);
  });
});

describe('browser engine: subresources', () => {
  it('does not load images and fonts for text formats, but loads styles and scripts', async () => {
    const r = await h.engine.scrapePage(url('/js-rich/11'), { engine: 'browser', formats: ['markdown'] });
    expect(r.markdown).toContain('rich-marker-11');
    expect(site.hits('/assets/img/11-1.png')).toBe(0);
    expect(site.hits('/assets/fixture-sans.woff2')).toBe(0);
    expect(site.hits('/assets/app.js')).toBeGreaterThan(0);
    expect(site.hits('/assets/site.css')).toBeGreaterThan(0);
  });

  it('screens the images it does not load with the egress guard: refused ones are counted, nothing dialled', async () => {
    const blocked = h.engine.stats().blocked_requests;
    const http = await h.engine.scrapePage(url('/img-canary'), { engine: 'browser', formats: ['text'] });
    const https = await h.engine.scrapePage(url('/img-canary-https'), { engine: 'browser', formats: ['text'] });
    expect(http.title).toBe('Image canary');
    expect(https.title).toBe('Image canary');
    const refused = (await h.engine.browserSession()).blockedUrls();
    expect(refused).toContain(`${canary.url}pixel.png`); // by URL, as the proxy refuses plain http
    expect(refused).toContain(`127.0.0.1:${canary.port}`); // by host:port, as a CONNECT would be
    expect(h.engine.stats().blocked_requests).toBe(blocked + 2);
    expect(canary.connections()).toBe(0);
  });

  it('loads images for a screenshot, and draws the whole viewport on a tab that fetched text before', async () => {
    // Arrange: the tab the text fetches above left undrawn (FetchTab.drawPixels)
    await h.engine.scrapePage(url('/js-rich/14'), { engine: 'browser', formats: ['text'] });
    // Act
    const r = await h.engine.scrapePage(url('/js-rich/12'), { engine: 'browser', formats: ['screenshot', 'text'] });
    // Assert: the page's noise background everywhere, not a blank viewport
    expect(r.screenshot).toMatch(/^iVBOR/);
    expect(site.hits('/assets/img/12-1.png')).toBe(1);
    const shot = decodePng(r.screenshot!);
    expect([shot.width, shot.height]).toEqual([1280, 900]);
    expect(shareNear(shot, [255, 255, 255], { x0: 0.1, y0: 0.1, x1: 1, y1: 1 }, 30)).toBeLessThan(0.5);
  });

  it('a reused tab carries nothing of the previous page', async () => {
    // Prepare: sequential fetches reuse the same tab.
    await h.engine.scrapePage(url('/js-rich/13'), { engine: 'browser', formats: ['html'] });
    // Act
    const next = await h.engine.scrapePage(url('/about'), { engine: 'browser', formats: ['html'] });
    // Assess
    expect(next.title).toBe('About the fixture');
    expect(next.html).not.toContain('rich-marker-13');
    expect(next.html).not.toContain('Rich page 13');
  });

  it('keeps a bounded number of tabs over many pages', async () => {
    const urls = Array.from({ length: 24 }, (_, i) => url(`/js-rich/${100 + i}`));
    let i = 0;
    const results = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const out: string[] = [];
        while (i < urls.length) {
          const u = urls[i++];
          const r = await h.engine.scrapePage(u, { engine: 'browser', formats: ['text'] });
          if (r.text?.includes(`rich-marker-${u.split('/').pop()}`)) out.push(u);
        }
        return out;
      }),
    );
    expect(results.flat()).toHaveLength(24);
    const session = await h.engine.browserSession();
    expect(await session.browser.tabCount()).toBeLessThanOrEqual(9);
  });
});
