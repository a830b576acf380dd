import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../../lib/gleaner-function.js';
import { cdkBundle } from '../../../bench/cdk-bundle.js';
import { verdicts } from '../../fixtures/bundled-validators.js';

// Selector and URL-pattern validation load cheerio and re2js on first use: in a bundle through
// esbuild's lazy initialiser of a bundled module, from source through Node's require (see
// input-fields.ts and url-patterns.ts). Both paths must give the same verdicts; this runs the
// bundled one (as CDK bundles a function) beside the source one.
const SELECTORS = ['h1', 'div > p', 'a[href^="https://"]', 'li:eq(2)', 'a:first', 'p:not(.x)', 'a[', '>>', 'div:nosuchpseudo', ''];
const PATTERNS = ['/blog/**', '*.pdf', 'https://example.com/a/*', '/^https://example\\.com/(a|b)$/i', '/(a)\\1/', '/(?=x)/', '/(/'];
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

describe('selector and URL-pattern checks loaded on first use', () => {
  it('give the same verdicts bundled as from source', () => {
    const fromSource = verdicts(SELECTORS, PATTERNS, URLS);
    expect(fromSource.selectors).toEqual([true, true, true, true, true, true, false, false, false, false]);
    expect(fromSource.patterns.filter((p) => p !== null)).toHaveLength(3);
    expect(bundled(SELECTORS, PATTERNS, URLS)).toEqual(fromSource);
  });
});
