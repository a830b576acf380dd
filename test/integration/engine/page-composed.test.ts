import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { CROSS_SITE_TEXT, DYNAMIC_EXPECTED } from '../../fixtures/dynamic/dynamic-routes.js';
import { BROWSER_BINARIES } from '../../support/browser-binaries.js';
import { makeHarness, type Harness } from './harness.js';

// Open shadow roots and same-site iframes are part of the page's markdown and text in the browser
// engine; cross-site iframes stay out unless the tenant's target policy allowlists their host
// (issue 30). The cross-site frame is served by the same fixture as http://localhost:<port>.
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;

describe.each(BROWSER_BINARIES)('shadow DOM and iframes ($name Chromium)', ({ launcher }) => {
  let open: Harness;
  let allowlisted: Harness;
  beforeAll(() => {
    // The guard lets the second "site" through in both: only the target policy decides here.
    open = makeHarness({ fixturePort: site.port, launcher: launcher(), allow: [`localhost:${site.port}`] });
    allowlisted = makeHarness({ fixturePort: site.port, launcher: launcher(), allow: [`localhost:${site.port}`], policy: { mode: 'allowlist', domains: ['127.0.0.1', 'localhost'] } });
  });
  afterAll(async () => {
    await open?.close();
    await allowlisted?.close();
  });

  it('content inside open shadow roots (nested, slotted) is in markdown and text', async () => {
    for (const only_main_content of [true, false]) {
      const page = await open.engine.scrapePage(url('/dynamic/shadow'), { engine: 'browser', formats: ['markdown', 'text'], only_main_content });
      for (const t of DYNAMIC_EXPECTED['/dynamic/shadow']!) {
        expect(page.markdown).toContain(t);
        expect(page.text).toContain(t);
      }
      // The slotted text appears once, where the slot put it.
      expect(page.text!.split('Slotted light text').length).toBe(2);
    }
  });

  it('same-site iframes (nested too) are in markdown and text; a cross-site iframe is not', async () => {
    const page = await open.engine.scrapePage(url('/dynamic/frames'), { engine: 'browser', formats: ['markdown', 'text'], only_main_content: false });
    for (const t of DYNAMIC_EXPECTED['/dynamic/frames']!) {
      expect(page.markdown).toContain(t);
      expect(page.text).toContain(t);
    }
    expect(page.markdown).not.toContain(CROSS_SITE_TEXT);
    expect(page.text).not.toContain(CROSS_SITE_TEXT);
  });

  it("a cross-site iframe whose host the tenant's target policy allowlists is in the page", async () => {
    const page = await allowlisted.engine.scrapePage(url('/dynamic/frames'), { engine: 'browser', formats: ['text'], only_main_content: false });
    expect(page.text).toContain(CROSS_SITE_TEXT);
    expect(page.text).toContain(DYNAMIC_EXPECTED['/dynamic/frames']![0]);
  });
});
