import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../functions/core/errors.js';
import { SecretRedactor } from '../../../functions/core/scrapers/secret-redactor.js';
import type { JsonExtractionInput } from '../../../functions/core/extraction/types.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { BROWSER_BINARIES } from '../../support/browser-binaries.js';
import { makeHarness, type Harness } from './harness.js';

// Issue 37 finding 3: a secret typed by a `write` action reached the model (the page echoes the
// search), the raw log (final_url with q=…, a robots skip's hop URL) and the task's error. One
// redactor per task now knows every secret its actions typed and masks everything the engine
// hands out. A GET form puts the value in the URL, a results page shows it: the worst case.
const SECRET = 'tide-table-7731';
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

describe('secrets typed by actions never leave the engine', () => {
  let h: Harness;
  const modelSaw: JsonExtractionInput[] = [];
  const redactor = new SecretRedactor();
  const url = (p: string) => `${site.baseUrl}${p}`;
  const write = [{ type: 'write' as const, selector: '#q', text: { secret: 'archive_pw' } }, { type: 'press' as const, key: 'Enter' }];

  beforeAll(() => {
    h = makeHarness({
      fixturePort: site.port,
      launcher: BROWSER_BINARIES[0]!.launcher(),
      policy: { mode: 'allowlist', domains: ['127.0.0.1'] },
      deps: {
        redactor,
        resolveSecret: async () => ({ value: SECRET, domains: ['127.0.0.1'] }),
        // A model that repeats what it read, as models do.
        extractJson: async (input) => {
          modelSaw.push(input);
          return { json: { query: /Results for ([^:]*):/.exec(input.markdown)?.[1] ?? null, summary: input.markdown.slice(0, 200) } };
        },
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('json: the model gets the page masked, and its answer is masked too', async () => {
    const page = await h.engine.scrapePage(url('/dynamic/search'), { engine: 'browser', formats: ['markdown', 'json'], json: { schema: { type: 'object' } }, actions: write });
    expect(page.markdown).toContain('Results for [secret]');
    expect(modelSaw.at(-1)!.markdown).toContain('Results for [secret]');
    expect(JSON.stringify(modelSaw)).not.toContain(SECRET);
    expect(page.json).toMatchObject({ query: '[secret]' });
    expect(JSON.stringify(page)).not.toContain(SECRET);
    // The task's redactor (its errors, snapshots, webhooks) knows the secret too.
    expect(redactor.text(`q=${SECRET}`)).toBe('q=[secret]');
  });

  it('the raw log: final_url of the page the form led to and a robots skip of its hop are masked', async () => {
    const before = h.logs.length;
    const page = await h.engine.scrapePage(url('/dynamic/search-private'), { engine: 'browser', formats: ['markdown'], actions: write });
    // robots.txt disallows /private/: the page ends as a robots skip at the hop the form led to.
    expect(page.skipped).toBe('robots');
    expect(page.final_url).toContain('/private/search?q=[secret]');
    const lines = h.logs.slice(before);
    expect(lines.some((l) => l.decision === 'robots_skipped')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    const searched = await h.engine.scrapePage(url('/dynamic/search'), { engine: 'browser', formats: ['markdown'], actions: write });
    expect(searched.final_url).toBe(url('/dynamic/results?q=[secret]'));
    expect(JSON.stringify(h.logs)).not.toContain(SECRET);
  });

  it('an error after the secret was typed is masked (message and details)', async () => {
    const err = await h.engine
      .scrapePage(url('/dynamic/search'), { engine: 'browser', timeout_ms: 20_000, actions: [...write, { type: 'wait', selector: `a[href*="${SECRET}"]`, ms: 1_500 }] })
      .then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('action_failed');
    expect(JSON.stringify({ message: (err as AppError).message, details: (err as AppError).details })).not.toContain(SECRET);
    expect((err as AppError).message).toMatch(/^Action 2 \(wait\) failed: timeout: .*\[secret\]/);
  });
});
