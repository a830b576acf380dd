import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChromiumLauncher } from '../../../functions/adapters/local/chromium-launcher.js';
import { startEgressProxy, type EgressProxy } from '../../../functions/core/governance/egress-proxy.js';
import type { Browser } from '../../../functions/ports/browser.js';
import { startCanary, startFixtureSite, type Canary, type FixtureSite } from '../../fixtures/site/server.js';
import { governance, TEST_UA } from './harness.js';
import { decodePng, shareNear } from '../../support/png-pixels.js';

// The Browser port (functions/ports/browser.ts) on its adapter (adapters/browser): what the
// engine and the runbook interpreter rely on, in Gleaner's own types, checked method by method.
let site: FixtureSite;
let canary: Canary;
let proxy: EgressProxy;
let browser: Browser;
let closeGuard: () => Promise<void>;

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureSite({ canaryUrl: canary.url });
  const { guard } = governance(site.port);
  closeGuard = () => guard.close();
  proxy = await startEgressProxy(guard);
  browser = await new LocalChromiumLauncher().launch({ proxyUrl: proxy.url, userAgent: TEST_UA });
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await closeGuard?.();
  await site?.close();
  await canary?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;

describe('Browser port (puppeteer adapter)', () => {
  it('goto answers plain data: final URL, status, headers, redirect chain and the body', async () => {
    // Arrange
    const tab = await browser.newTab({ timeoutMs: 10_000 });
    try {
      // Act
      const r = await tab.goto(url('/redirect-local'), { waitUntil: 'load', timeoutMs: 10_000 });
      // Assert
      expect(r).toMatchObject({ url: url('/about'), status: 200, redirectChain: [url('/redirect-local')] });
      expect(r!.headers['content-type']).toMatch(/text\/html/);
      expect(new TextDecoder().decode(await r!.body())).toContain('About the fixture');
      expect(tab.url()).toBe(url('/about'));
    } finally {
      await tab.close();
    }
  });

  it('linkHref tells a link, an element that is no link and no element apart', async () => {
    const tab = await browser.newTab({ timeoutMs: 10_000 });
    try {
      await tab.goto(url('/'), { waitUntil: 'load', timeoutMs: 10_000 });
      expect(await tab.linkHref('nav a')).toBe(url('/about'));
      expect(await tab.linkHref('h1')).toBeNull();
      expect(await tab.linkHref('#no-such-element')).toBeUndefined();
    } finally {
      await tab.close();
    }
  });

  it('documentId changes with each document; main-frame navigations are reported until unsubscribed', async () => {
    const tab = await browser.newTab({ timeoutMs: 10_000 });
    try {
      await tab.goto(url('/'), { waitUntil: 'load', timeoutMs: 10_000 });
      const first = await tab.documentId();
      let navigations = 0;
      const stop = tab.onMainFrameNavigation(() => navigations++);
      // Act: a click that navigates, seen by waitForNavigation
      const nav = tab.waitForNavigation({ timeoutMs: 10_000 });
      await tab.click('nav a', { timeoutMs: 10_000 });
      const r = await nav;
      stop();
      await tab.goto(url('/article'), { waitUntil: 'load', timeoutMs: 10_000 });
      // Assert
      expect(r?.url).toBe(url('/about'));
      expect(navigations).toBe(1);
      expect(await tab.documentId()).not.toBe(first);
      expect(await tab.documentId()).toBe(await tab.documentId());
    } finally {
      await tab.close();
    }
  });

  it('fill, evaluate, content and screenshot work on the page; waits time out as TimeoutError', async () => {
    const tab = await browser.newTab({ timeoutMs: 10_000 });
    try {
      await tab.goto(url('/login'), { waitUntil: 'load', timeoutMs: 10_000 });
      await tab.fill('#username', 'ada', { timeoutMs: 5_000 });
      expect(await tab.evaluate(`document.querySelector('#username').value`)).toBe('ada');
      expect(await tab.content()).toContain('id="username"');
      expect(Buffer.from(await tab.screenshot({ fullPage: true }), 'base64').subarray(1, 4).toString()).toBe('PNG');
      const err = await tab.waitForSelector('#never-there', { timeoutMs: 200 }).catch((e: unknown) => e);
      expect((err as Error).name).toBe('TimeoutError');
    } finally {
      await tab.close();
    }
  });

  it('a fetch tab holds images back, screening each one instead of fetching it', async () => {
    // Arrange: a screen that refuses, as the egress guard does for the canary
    const screened: string[] = [];
    const tab = await browser.newFetchTab({
      timeoutMs: 10_000,
      screen: async (u) => {
        screened.push(u);
        throw new Error('refused');
      },
    });
    try {
      await tab.blockAssets(true);
      tab.reset();
      // Act
      await tab.goto(url('/img-canary'), { waitUntil: 'load', timeoutMs: 10_000 });
      await tab.settle({ quietMs: 150, capMs: 3_000 }, Date.now() + 10_000);
      // Assert
      expect(screened).toContain(`${canary.url}pixel.png`);
      expect(canary.connections()).toBe(0);
    } finally {
      await tab.close();
    }
  });

  it('an undrawn fetch tab runs the page exactly as a drawn one, and draws again for a screenshot', async () => {
    // Arrange: a page whose first screen is red, taller than the viewport, and what the page can see of its viewport
    const page = `data:text/html,${encodeURIComponent('<body style="margin:0"><div id="near" style="height:900px;background:rgb(200,30,30)">near</div><div id="far" style="height:400px;margin-top:2000px">far</div></body>')}`;
    const probe = `new Promise((resolve) => {
      const seen = { iw: innerWidth, ih: innerHeight, vv: [visualViewport.width, visualViewport.height, visualViewport.scale], dpr: devicePixelRatio,
        wide: matchMedia('(min-width: 1200px)').matches, at: document.elementFromPoint(640, 450).id, rect: document.getElementById('far').getBoundingClientRect().top };
      const io = (then) => { const hits = []; const o = new IntersectionObserver((es) => { for (const e of es) hits.push(e.target.id + ':' + e.isIntersecting); o.disconnect(); then(hits.sort().join(' ')); }); o.observe(document.getElementById('near')); o.observe(document.getElementById('far')); };
      requestAnimationFrame(() => io((top) => { scrollTo(0, 2500); requestAnimationFrame(() => io((scrolled) => { seen.io = [top, scrolled, scrollY]; scrollTo(0, 0); resolve(seen); })); }));
    })`;
    const tab = await browser.newFetchTab({ timeoutMs: 10_000, screen: async () => {} });
    try {
      const red: [number, number, number] = [200, 30, 30];
      await tab.goto(page, { waitUntil: 'load', timeoutMs: 10_000 });
      const drawn = await tab.evaluate(probe);
      // Act
      await tab.drawPixels(false);
      await tab.goto(page, { waitUntil: 'load', timeoutMs: 10_000 });
      const undrawn = await tab.evaluate(probe);
      const undrawnShot = decodePng(await tab.screenshot());
      await tab.drawPixels(true);
      const redrawnShot = decodePng(await tab.screenshot());
      // Assert: same viewport, media, hit testing, layout, animation frames and intersections
      expect(undrawn).toEqual(drawn);
      expect(drawn).toMatchObject({ iw: 1280, ih: 900, vv: [1280, 900, 1], wide: true, at: 'near', io: ['far:false near:true', 'far:true near:false', 2400] });
      // ...but next to nothing drawn until asked again, then the whole viewport at full size
      expect(shareNear(undrawnShot, red)).toBeLessThan(0.05);
      expect([redrawnShot.width, redrawnShot.height]).toEqual([1280, 900]);
      expect(shareNear(redrawnShot, red)).toBeGreaterThan(0.95);
    } finally {
      await tab.close();
    }
  });

  it('an undrawn fetch tab keeps a mobile profile as it is (size, pixel ratio, media, touch)', async () => {
    // Arrange: a tenant's phone profile
    const profile = { viewport: { width: 390, height: 844 }, device_scale_factor: 3, is_mobile: true, locale: 'en-GB', timezone: 'Europe/London', color_scheme: 'dark' as const };
    const probe = `({ iw: innerWidth, ih: innerHeight, vv: [visualViewport.width, visualViewport.height, visualViewport.scale], dpr: devicePixelRatio,
      narrow: matchMedia('(max-width: 400px)').matches, dark: matchMedia('(prefers-color-scheme: dark)').matches, touch: 'ontouchstart' in window })`;
    const page = `data:text/html,${encodeURIComponent('<meta name="viewport" content="width=device-width"><p>Phone page</p>')}`;
    const tab = await browser.newFetchTab({ timeoutMs: 10_000, profile, screen: async () => {} });
    try {
      await tab.goto(page, { waitUntil: 'load', timeoutMs: 10_000 });
      const drawn = await tab.evaluate(probe);
      // Act
      await tab.drawPixels(false);
      await tab.goto(page, { waitUntil: 'load', timeoutMs: 10_000 });
      const undrawn = await tab.evaluate(probe);
      await tab.drawPixels(true);
      const shot = decodePng(await tab.screenshot());
      // Assert
      expect(undrawn).toEqual(drawn);
      expect(drawn).toEqual({ iw: 390, ih: 844, vv: [390, 844, 1], dpr: 3, narrow: true, dark: true, touch: true });
      expect([shot.width, shot.height]).toEqual([390 * 3, 844 * 3]);
    } finally {
      await tab.close();
    }
  });

  it('close never rejects, reports the close once, and counts tabs', async () => {
    const before = await browser.tabCount();
    const tab = await browser.newTab({ timeoutMs: 10_000 });
    let closed = 0;
    tab.onClose(() => closed++);
    expect(await browser.tabCount()).toBe(before + 1);
    await tab.close();
    await expect(tab.close()).resolves.toBeUndefined();
    expect(tab.isClosed()).toBe(true);
    expect(closed).toBe(1);
    expect(await browser.tabCount()).toBe(before);
    expect(browser.pid).toEqual(expect.any(Number));
  });
});
