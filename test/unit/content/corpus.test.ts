import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { corpusPages } from '../../../bench/extraction/corpus.js';
import { markdownToPlain } from '../../../bench/extraction/plain.js';

// Gleaner's own content corpus (test/fixtures/content-corpus): docs, product, forum, listings,
// non-English pages, pages without <article>/<main>, table pages. For each, the markdown (default
// options: main content only), read as a reader sees it, must hold every must-include snippet and none of the must-exclude
// ones (page furniture: navigation, cookie banners, related links, comments, footers).
const norm = (s: string) => s.replace(/\s+/g, ' ');

describe('main content on the corpus', () => {
  const pages = corpusPages();
  it('has pages of many kinds', () => {
    expect(pages.length).toBeGreaterThanOrEqual(12);
    for (const p of pages) expect(p.expected.length).toBeGreaterThan(50);
  });

  it.each(pages.map((p) => [p.id, p] as const))('%s keeps the content and leaves the furniture out', (_id, page) => {
    // Read as the extraction bench reads it: the markdown's words as a reader sees them (no link
    // targets, emphasis or inline-code markers).
    const md = norm(markdownToPlain(parsePage(load(page.html), page.url, { text: false, links: false }).markdown));
    const missing = (page.include ?? []).filter((s) => !md.includes(norm(s)));
    const leaked = (page.exclude ?? []).filter((s) => md.includes(norm(s)));
    // Gaps known today are written in the manifest (known_gaps): held to exactly those.
    expect({ missing, leaked }).toEqual({ missing: page.knownGaps?.missing ?? [], leaked: page.knownGaps?.leaked ?? [] });
  });

  // Pages of the kinds beyond articles carry the kind a reader would name (manifest `page_kind`).
  const kinded = pages.filter((p) => p.pageKind);
  it('names the kind of pages of every kind', () => {
    expect(new Set(kinded.map((p) => p.pageKind))).toEqual(new Set(['product', 'collection', 'listing', 'forum', 'documentation', 'service']));
  });
  it.each(kinded.map((p) => [p.id, p.pageKind!, p] as const))('%s is a %s page (or the kind its known gap names)', (_id, kind, page) => {
    expect(parsePage(load(page.html), page.url, { text: false, links: false, markdown: false }).metadata.page_kind).toBe(page.knownGaps?.page_kind ?? kind);
  });
});
