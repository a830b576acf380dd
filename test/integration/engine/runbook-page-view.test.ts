import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { CONSENT_TEXTS, DYNAMIC_EXPECTED } from '../../fixtures/dynamic/dynamic-routes.js';
import { decodePng, shareNear } from '../../support/png-pixels.js';
import { makeHarness, runSteps, type Harness } from './harness.js';

// A runbook's `content`, `extract` and `screenshot` steps see the page as people do, like a
// scrape (issue 30): consent walls left out, open shadow roots and same-site frames in. Unlike a
// scrape's tab, a runbook's goes on being used, so the page itself is left as it was: a later step
// can still click the banner's own button.
let site: FixtureSite;
let h: Harness;
beforeAll(async () => {
  site = await startFixtureSite();
  // The guard lets the cross-site frame's host through: only the same-site rule keeps it out.
  h = makeHarness({ fixturePort: site.port, allow: [`localhost:${site.port}`] });
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;
const RED: [number, number, number] = [210, 30, 30];
const run = (steps: unknown[]) => runSteps(h.engine, steps);

describe('runbook steps see the page as people see it', () => {
  it('content and screenshot leave a consent wall out, and the wall is still there to click afterwards', async () => {
    const path = '/dynamic/consent-modal-de';
    const res = await run([
      { action: 'goto', url: url(path) },
      { action: 'content', formats: ['markdown', 'text'], only_main_content: false },
      { action: 'screenshot' },
      // Hidden for the screenshot only: a click on it fails if it was left hidden or removed.
      { action: 'click', selector: '.modal button' },
      { action: 'extract', fields: { body: { selector: 'main' } } },
    ]);
    expect(res.error).toBeNull();
    const data = res.items[0]!.data as { markdown: string; text: string };
    for (const t of DYNAMIC_EXPECTED[path]!) expect(data.markdown).toContain(t);
    for (const t of CONSENT_TEXTS[path]!) {
      expect(data.markdown).not.toContain(t);
      expect(data.text).not.toContain(t);
    }
    expect(shareNear(decodePng(res.screenshots[0]!.png), RED)).toBe(0);
    expect(res.log.map((l) => [l.action, l.ok])).toEqual([['goto', true], ['content', true], ['screenshot', true], ['click', true], ['extract', true]]);
  });

  it('a consent banner in a shadow root stays out of content and out of reach of an extract', async () => {
    const path = '/dynamic/consent-shadow';
    const res = await run([
      { action: 'goto', url: url(path) },
      { action: 'content', formats: ['markdown'], only_main_content: false },
      { action: 'extract', fields: { main: { selector: 'main p' }, banner: { selector: 'cmp-banner p' } } },
    ]);
    expect(res.error).toBeNull();
    const content = JSON.stringify(res.items[0]!.data);
    for (const t of DYNAMIC_EXPECTED[path]!) expect(content).toContain(t);
    for (const t of CONSENT_TEXTS[path]!) expect(content).not.toContain(t);
    expect(res.items[1]!.data).toEqual({ main: DYNAMIC_EXPECTED[path]![0], banner: null });
  });

  it('extract selects inside open shadow roots; content includes same-site frames, not a cross-site one', async () => {
    const res = await run([
      { action: 'goto', url: url('/dynamic/shadow') },
      { action: 'extract', fields: { card: { selector: 'tide-card h2' }, note: { selector: 'tide-note p' } } },
      { action: 'goto', url: url('/dynamic/frames') },
      { action: 'content', formats: ['markdown'], only_main_content: false },
    ]);
    expect(res.error).toBeNull();
    expect(res.items[0]!.data).toEqual({ card: 'Shadow card: the tide table for March.', note: 'Nested shadow: low water at 06:12.' });
    const md = (res.items[1]!.data as { markdown: string }).markdown;
    for (const t of DYNAMIC_EXPECTED['/dynamic/frames']!) expect(md).toContain(t);
    expect(md).not.toMatch(/cross-site frame/i);
  });
});
