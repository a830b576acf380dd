import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { CONSENT_TEXTS, DYNAMIC_EXPECTED } from '../../fixtures/dynamic/dynamic-routes.js';
import { decodePng, shareNear } from '../../support/png-pixels.js';
import { BROWSER_BINARIES } from '../../support/browser-binaries.js';
import { makeHarness, type Harness } from './harness.js';

// Consent banners, cookie walls and sign-up modals (issue 30): left out of markdown, text and
// screenshots, never accepted. Each fixture wall is red (rgb 210,30,30) over a green main column.
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;
const RED: [number, number, number] = [210, 30, 30];
const GREEN: [number, number, number] = [40, 160, 90];
const WALLS = Object.keys(CONSENT_TEXTS);

describe.each(BROWSER_BINARIES)('overlays in the browser engine ($name Chromium)', ({ launcher }) => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness({ fixturePort: site.port, launcher: launcher() });
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(WALLS)('%s: the wall is out of markdown and text (whole page too), the content and the page chrome stay', async (path) => {
    for (const only_main_content of [true, false]) {
      const page = await h.engine.scrapePage(url(path), { engine: 'browser', formats: ['markdown', 'text'], only_main_content });
      for (const t of DYNAMIC_EXPECTED[path]!) {
        expect(page.markdown).toContain(t);
        expect(page.text).toContain(t);
      }
      for (const t of CONSENT_TEXTS[path]!) {
        expect(page.markdown).not.toContain(t);
        expect(page.text).not.toContain(t);
      }
      // Not everything fixed or about cookies goes: the sticky header and the footer's policy link stay.
      if (!only_main_content) expect(page.markdown).toMatch(/Home[\s\S]*Cookie policy/);
    }
  });

  it.each(WALLS)('%s: screenshots show the content, not the wall', async (path) => {
    const page = await h.engine.scrapePage(url(path), { engine: 'browser', formats: ['markdown', 'screenshot'], actions: [{ type: 'screenshot' }] });
    for (const png of [page.screenshot!, page.actions!.screenshots[0]!]) {
      const px = decodePng(png);
      expect(shareNear(px, RED)).toBe(0);
      // The green main column fills most of the lower viewport where the walls were.
      expect(shareNear(px, GREEN, { x0: 0, y0: 0.3, x1: 1, y1: 1 })).toBeGreaterThan(0.5);
    }
  });

  it('lifts the scroll lock a wall set, so a full-page screenshot is the whole page', async () => {
    const page = await h.engine.scrapePage(url('/dynamic/consent-modal-de'), { engine: 'browser', actions: [{ type: 'screenshot', full_page: true }] });
    expect(decodePng(page.actions!.screenshots[0]!).height).toBeGreaterThan(1400);
  });
});

describe('overlays in the http engine (no layout: consent containers it can name)', () => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness({ fixturePort: site.port });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("removes a consent platform's banner from markdown and text, keeps the page", async () => {
    const page = await h.engine.scrapePage(url('/dynamic/consent-platform'), { engine: 'http', formats: ['markdown', 'text'], only_main_content: false });
    expect(page.engine_used).toBe('http');
    expect(page.markdown).toContain(DYNAMIC_EXPECTED['/dynamic/consent-platform']![0]);
    expect(page.markdown).toMatch(/Cookie policy/);
    for (const t of CONSENT_TEXTS['/dynamic/consent-platform']!) {
      expect(page.markdown).not.toContain(t);
      expect(page.text).not.toContain(t);
    }
  });
});
