import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../functions/core/errors.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { decodePng } from '../../support/png-pixels.js';
import { BROWSER_BINARIES } from '../../support/browser-binaries.js';
import { makeHarness, type Harness } from './harness.js';

// Page actions of one scrape (issue 30), run by the interpreter runbook steps use, on every
// Chromium binary present (the Lambda one always).
let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe.each(BROWSER_BINARIES)('page actions ($name Chromium)', ({ launcher }) => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness({ fixturePort: site.port, launcher: launcher() });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('click-to-load: the content a click fetches is in markdown and text; auto becomes browser', async () => {
    const without = await h.engine.scrapePage(url('/dynamic/click-load'), { engine: 'browser', formats: ['markdown'] });
    expect(without.markdown).not.toContain('hidden chapter tells');
    const page = await h.engine.scrapePage(url('/dynamic/click-load'), {
      engine: 'auto',
      formats: ['markdown', 'text'],
      actions: [{ type: 'click', selector: '#more' }, { type: 'wait', selector: '#chapter p', ms: 5_000 }],
    });
    expect(page).toMatchObject({ engine_used: 'browser', auto_reason: 'actions requested' });
    expect(page.markdown).toContain('The hidden chapter tells how the river flooded the lower town in the spring of 1911.');
    expect(page.text).toContain('The hidden chapter tells');
  });

  it('infinite scroll: scrolling to the bottom loads every entry', async () => {
    const without = await h.engine.scrapePage(url('/dynamic/infinite'), { engine: 'browser', formats: ['text'] });
    expect(without.text).not.toContain('Entry 20 of the logbook');
    const page = await h.engine.scrapePage(url('/dynamic/infinite'), { engine: 'browser', formats: ['text'], actions: [{ type: 'scroll', amount: 'bottom' }] });
    for (const n of [1, 8, 13, 20]) expect(page.text).toContain(`Entry ${n} of the logbook`);
  });

  it('write + press: types into a field and submits the form with Enter (the navigation is followed)', async () => {
    const page = await h.engine.scrapePage(url('/dynamic/search'), {
      engine: 'browser',
      formats: ['markdown'],
      actions: [{ type: 'write', selector: '#q', text: 'harbour maps' }, { type: 'press', key: 'Enter' }],
    });
    expect(page.final_url).toBe(url('/dynamic/results?q=harbour+maps'));
    expect(page.markdown).toContain('Results for harbour maps: three maps and a diary.');
  });

  it('a failed action is 422 action_failed naming its index and reason', async () => {
    const err = await failure(
      h.engine.scrapePage(url('/dynamic/click-load'), {
        engine: 'browser',
        timeout_ms: 3_000,
        actions: [{ type: 'click', selector: '#more' }, { type: 'click', selector: '#no-such-button' }],
      }),
    );
    expect(err).toMatchObject({ status: 422, code: 'action_failed', details: [{ path: 'actions.1' }] });
    expect(err.message).toMatch(/^Action 1 \(click\) failed: timeout/);
  });

  it('waits are bounded by the time left: three 10 s pauses under timeout_ms 3000 fail as a timeout (issue 37 finding 10)', async () => {
    const err = await failure(
      h.engine.scrapePage(url('/dynamic/click-load'), {
        engine: 'browser',
        timeout_ms: 3_000,
        actions: [{ type: 'wait', ms: 10_000 }, { type: 'wait', ms: 10_000 }, { type: 'wait', ms: 10_000 }],
      }),
    );
    expect(err).toMatchObject({ status: 422, code: 'action_failed', details: [{ path: 'actions.0' }] });
    expect(err.message).toMatch(/^Action 0 \(wait\) failed: timeout: waiting 10000 ms: only \d+ ms were left/);
  });

  it('a click that navigates to a forbidden target is refused before any connection', async () => {
    const before = site.hits('/dynamic/elsewhere');
    const err = await failure(h.engine.scrapePage(url('/dynamic/leave'), { engine: 'browser', actions: [{ type: 'click', selector: '#out' }] }));
    expect(err.code).toBe('target_forbidden');
    expect(err.message).toMatch(/^Action 0 \(click\)/);
    expect(site.hits('/dynamic/elsewhere')).toBe(before);
  });

  it('a click that navigates to a page robots.txt disallows ends as a robots skip, never fetched', async () => {
    const before = site.hits('/private/secret');
    const page = await h.engine.scrapePage(url('/dynamic/leave'), { engine: 'browser', actions: [{ type: 'click', selector: '#private' }] });
    expect(page.skipped).toBe('robots');
    expect(site.hits('/private/secret')).toBe(before);
  });

  it('a target=_blank link or form opens no popup: nothing is fetched past robots.txt (issue 37 finding 8)', async () => {
    const before = site.hits('/private/popup') + site.hits('/private/popup-form');
    const page = await h.engine.scrapePage(url('/dynamic/leave'), {
      engine: 'browser',
      formats: ['markdown'],
      actions: [{ type: 'click', selector: '#popup' }, { type: 'click', selector: '#popup-submit' }, { type: 'wait', ms: 500 }],
    });
    expect(page.final_url).toBe(url('/dynamic/leave'));
    expect(page.markdown).toContain('A private page in a new window');
    expect(site.hits('/private/popup') + site.hits('/private/popup-form')).toBe(before);
  });

  it('screenshot actions return PNGs of the page in results.actions', async () => {
    const page = await h.engine.scrapePage(url('/dynamic/click-load'), {
      engine: 'browser',
      formats: ['markdown'],
      actions: [{ type: 'screenshot' }, { type: 'click', selector: '#more' }, { type: 'wait', ms: 300 }, { type: 'screenshot', full_page: true }],
    });
    expect(page.actions?.screenshots).toHaveLength(2);
    const [first, full] = page.actions!.screenshots.map(decodePng);
    expect(first!.width).toBeGreaterThan(100);
    expect(full!.height).toBeGreaterThan(first!.height); // the whole page is taller than the viewport
  });
});
