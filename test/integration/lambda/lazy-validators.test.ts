import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../../lib/gleaner-function.js';
import { cdkBundle } from '../../../bench/cdk-bundle.js';
import { verdicts } from '../../fixtures/bundled-validators.js';

// Selector, URL-pattern and cron validation load cheerio, re2js and cron-parser on first use: in a bundle through
// esbuild's lazy initialiser of a bundled module, from source through Node's require (see
// input-fields.ts, url-patterns.ts, cron.ts). Both paths must give the same verdicts; this runs the
// bundled one (as CDK bundles a function) beside the source one.
const SELECTORS = ['h1', 'div > p', 'a[href^="https://"]', 'li:eq(2)', 'a:first', 'p:not(.x)', 'a[', '>>', 'div:nosuchpseudo', ''];
const PATTERNS = ['/blog/**', '*.pdf', 'https://example.com/a/*', '/^https://example\\.com/(a|b)$/i', '/(a)\\1/', '/(?=x)/', '/(/'];
const CRONS = ['0 8 * * *', '*/15 9-17 * * 1-5', '0 0 31 2 *', '61 * * * *', 'nonsense'];
const URLS = ['https://example.com/blog/x/y', 'https://example.com/f.pdf', 'https://example.com/a/z', 'https://EXAMPLE.com/b', 'https://example.com/c'];

let dir: string;
let bundled: typeof verdicts;
beforeAll(async () => {
  dir = mkdtempSync(join(REPO_ROOT, '.tmp-lazy-validators-'));
  const b = await cdkBundle('test/fixtures/bundled-validators.ts', dir);
  ({ verdicts: bundled } = (await import(pathToFileURL(b.file).href)) as { verdicts: typeof verdicts });
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('selector, URL-pattern and cron checks loaded on first use', () => {
  it('give the same verdicts bundled as from source', () => {
    const fromSource = verdicts(SELECTORS, PATTERNS, URLS, CRONS);
    expect(fromSource.selectors).toEqual([true, true, true, true, true, true, false, false, false, false]);
    expect(fromSource.patterns.filter((p) => p !== null)).toHaveLength(3);
    expect(fromSource.crons.slice(0, 2)).toEqual(['2026-01-01T08:00:00.000Z', '2026-01-01T09:00:00.000Z']);
    expect(fromSource.crons.slice(3).every((c) => c.startsWith('invalid'))).toBe(true);
    expect(bundled(SELECTORS, PATTERNS, URLS, CRONS)).toEqual(fromSource);
  });
});
