import { describe, expect, it } from 'vitest';
import { parsePage, absoluteHttpUrl } from '../../../functions/core/engine/parse.js';
import { articlePage, homePage, jsAppPage } from '../../fixtures/site/pages.js';

const BASE = 'http://127.0.0.1:4100';

describe('parsePage', () => {
  it('reads title, metadata (description, og:*, canonical, lang)', () => {
    // Prepare
    const html = articlePage(BASE);
    // Act
    const p = parsePage(html, `${BASE}/article`);
    // Assess
    expect(p.title).toBe('A Long Article');
    expect(p.metadata).toEqual({
      title: 'A Long Article',
      description: 'An article with a clear main content area.',
      canonical: `${BASE}/article`,
      lang: 'en-GB',
      og: { title: 'Article OG Title', description: 'Article OG description', type: 'article' },
      // Article metadata (test/unit/content/metadata.test.ts): what this page states, null otherwise.
      author: null,
      published_at: null,
      modified_at: null,
      site_name: null,
      language: 'en-GB',
      image: null,
      type: 'article',
      page_kind: 'article',
    });
  });

  it('produces readable text without scripts or styles, block elements on their own lines', () => {
    const p = parsePage(articlePage(BASE), `${BASE}/article`);
    expect(p.text).toContain('The article headline\nFirst paragraph with bold and a relative link.');
    expect(p.text).not.toMatch(/console\.log|display: none|font-family/);
    expect(p.text.split('\n')).toContain('Item one');
  });

  it('converts the main content to markdown with absolute links, leaving navigation and sidebars out', () => {
    const p = parsePage(articlePage(BASE), `${BASE}/article`);
    expect(p.markdown).toMatch(/^# The article headline/);
    expect(p.markdown).toContain('## Second section');
    expect(p.markdown).toContain(`[a relative link](${BASE}/about)`);
    expect(p.markdown).toContain('**bold**');
    expect(p.markdown).not.toContain('Sidebar noise');
    expect(p.markdown).not.toContain('Footer text');
    expect(p.markdown).not.toContain('script text must not leak');
  });

  it('lists links absolute, de-duplicated, http(s) only, without fragments', () => {
    const p = parsePage(homePage(BASE), `${BASE}/`);
    expect(p.links).toEqual([
      `${BASE}/about`,
      `${BASE}/article`,
      `${BASE}/products?page=1`,
      'https://external.example/somewhere',
    ]);
  });

  it('honours <base href> when resolving links', () => {
    const html = '<html><head><base href="https://cdn.example/docs/"></head><body><a href="guide">g</a><a href="/root">r</a></body></html>';
    expect(parsePage(html, 'https://site.example/x').links).toEqual(['https://cdn.example/docs/guide', 'https://cdn.example/root']);
  });

  it('falls back to og:title then h1 when there is no <title>, and to body for markdown', () => {
    const html = '<html><body><nav>menu</nav><h1>Heading only</h1><p>Body text.</p></body></html>';
    const p = parsePage(html, 'https://site.example/');
    expect(p.title).toBe('Heading only');
    expect(p.markdown).toBe('# Heading only\n\nBody text.');
    expect(p.metadata).toMatchObject({ description: null, canonical: null, lang: null, og: {} });
  });

  it('skips the expensive parts when asked', () => {
    const p = parsePage(articlePage(BASE), `${BASE}/article`, { markdown: false, text: false, links: false });
    expect(p).toMatchObject({ markdown: '', text: '', links: [], title: 'A Long Article' });
  });

  it('sees an empty body on a JS-rendered page (the browser fills it)', () => {
    const p = parsePage(jsAppPage(), `${BASE}/js-app`);
    expect(p.text).toBe('');
    expect(p.title).toBe('JS App');
  });
});

describe('absoluteHttpUrl', () => {
  it.each([
    ['/a#frag', `${BASE}/a`],
    ['https://x.example/p?q=1', 'https://x.example/p?q=1'],
    ['mailto:a@b.c', null],
    ['javascript:void(0)', null],
    ['#top', null],
    ['', null],
    ['ftp://x.example/', null],
  ])('%s -> %s', (href, expected) => {
    expect(absoluteHttpUrl(href, `${BASE}/`)).toBe(expected);
  });
});
