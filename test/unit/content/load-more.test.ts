import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// Issue 38's defect: after actions (click "Load more", scroll to the bottom) the scroll-loaded
// paragraph sits inside the same <article>, past the button and a tall empty spacer, in a wrapper
// of its own. It was in `html` and in whole-page markdown but not in the main content: the sibling
// step judged the wrapper by its own text (none) instead of by the one paragraph inside it.
describe('a paragraph loaded past a "Load more" button and an empty spacer', () => {
  const html = readFileSync(new URL('../../fixtures/content-kinds/load-more-after-scroll.html', import.meta.url), 'utf8');
  const url = 'https://river.example/logbook';

  it('is in the default (main-content) markdown, after the entries above it', () => {
    const md = parsePage(load(html), url, { text: false, links: false, metadata: false }).markdown;
    expect(md).toContain('The river rose a hand');
    expect(md).toContain('The smith came a day early');
    expect(md.indexOf('The lower paddles')).toBeLessThan(md.indexOf('The smith came'));
    // The page chrome stays out.
    expect(md).not.toMatch(/From the archive|The flood of 1911|Privacy|Load more/);
  });

  it('is in the whole-page markdown too (it was there before the fix)', () => {
    const md = parsePage(load(html), url, { text: false, links: false, metadata: false, content: { onlyMainContent: false } }).markdown;
    expect(md).toContain('The smith came a day early');
  });
});
