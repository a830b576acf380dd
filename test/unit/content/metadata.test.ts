import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { articleMetadata, normalizeDate, normalizeLanguage } from '../../../functions/core/content/metadata.js';
import { parsePage } from '../../../functions/core/engine/parse.js';

const meta = (html: string, url = 'https://news.example.test/2026/03/story') => articleMetadata(load(html).root().get(0), url, url);

// Heads modelled on real publishers: a news site with a Yoast-style @graph, a blog with only Open
// Graph and Dublin Core, a product page, a page with only visible bylines.
const NEWS = `<!doctype html><html lang="en-US"><head>
<meta charset="utf-8"><title>Council approves budget – Example Gazette</title>
<meta property="og:site_name" content="Gazette (OG)">
<meta property="og:type" content="article">
<meta property="og:image" content="https://cdn.example.test/og.jpg">
<meta property="article:published_time" content="2026-03-01T00:00:00+00:00">
<meta name="author" content="Meta Author">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
  {"@type":"WebSite","@id":"https://news.example.test/#website","name":"Example Gazette","inLanguage":"en-US"},
  {"@type":"Organization","@id":"https://news.example.test/#org","name":"Gazette Media Group"},
  {"@type":"Person","@id":"https://news.example.test/#/person/1","name":"Ana Lima"},
  {"@type":"WebPage","@id":"https://news.example.test/2026/03/story","name":"Council approves budget"},
  {"@type":["NewsArticle","Article"],"headline":"Council approves budget","datePublished":"2026-03-04T09:30:00-05:00","dateModified":"2026-03-05T08:00:00Z",
   "author":[{"@id":"https://news.example.test/#/person/1"},{"@type":"Person","name":"Raj Patel"}],
   "publisher":{"@id":"https://news.example.test/#org"},
   "image":{"@type":"ImageObject","url":"/images/council.jpg"}}
]}</script>
</head><body><article><h1>Council approves budget</h1><p class="byline">By Someone Else</p><time datetime="2020-01-01">old</time></article></body></html>`;

describe('article metadata', () => {
  it('trusts JSON-LD first: @graph, @id references, author arrays, dates, image objects', () => {
    expect(meta(NEWS)).toEqual({
      author: 'Ana Lima, Raj Patel',
      published_at: '2026-03-04T14:30:00.000Z',
      modified_at: '2026-03-05T08:00:00.000Z',
      site_name: 'Example Gazette',
      language: 'en-US',
      image: 'https://news.example.test/images/council.jpg',
      type: 'NewsArticle',
      page_kind: 'article',
    });
  });

  it('falls back to Open Graph, then <meta> (Dublin Core, itemprop), with og:locale as the language', () => {
    const html = `<html><head>
      <meta property="og:site_name" content="Field Notes">
      <meta property="og:type" content="article">
      <meta property="og:locale" content="pt_BR">
      <meta property="og:image" content="/img/lead.png">
      <meta property="article:author" content="https://facebook.example/jo">
      <meta property="article:modified_time" content="2026-02-10T12:00:00+01:00">
      <meta name="DC.creator" content="Jo Park">
      <meta name="DC.date.issued" content="2026-02-09">
      <script type="application/ld+json">{ this is not json }</script>
    </head><body><p>text</p></body></html>`;
    expect(meta(html, 'https://blog.example.test/posts/1')).toEqual({
      author: 'Jo Park', // article:author is a profile URL, not a name
      published_at: '2026-02-09',
      modified_at: '2026-02-10T11:00:00.000Z',
      site_name: 'Field Notes',
      language: 'pt-BR',
      image: 'https://blog.example.test/img/lead.png',
      type: 'article',
      page_kind: 'article',
    });
  });

  it('reads a product page: Product type, brand-less publisher, image arrays, content-language', () => {
    const html = `<html><head><meta http-equiv="content-language" content="de-DE">
      <script type="application/ld+json">[{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[]},
      {"@context":"https://schema.org","@type":"Product","name":"Trail shoe","image":["https://shop.example.test/a.jpg","https://shop.example.test/b.jpg"],"offers":{"price":"89.00"}}]</script>
    </head><body></body></html>`;
    expect(meta(html, 'https://shop.example.test/p/1')).toMatchObject({ type: 'Product', image: 'https://shop.example.test/a.jpg', language: 'de-DE', author: null, published_at: null, site_name: null });
  });

  it('falls back to the visible page: itemprop author, <time datetime>, rel=author, .byline', () => {
    expect(meta(`<html><body><article><span itemprop="author" itemscope><span itemprop="name">Mia Chen</span></span><time pubdate datetime="2025-12-24T18:00">Dec 24</time></article></body></html>`)).toMatchObject({
      author: 'Mia Chen',
      published_at: '2025-12-24T18:00:00.000Z',
    });
    expect(meta(`<html><body><p>Posted by <a rel="author" href="/u/tom">Tom Ode</a></p><time datetime="2025-11-02">Nov 2</time></body></html>`)).toMatchObject({ author: 'Tom Ode', published_at: '2025-11-02' });
    expect(meta(`<html><body><div class="byline">By Lee Wong | March 3, 2026</div></body></html>`)).toMatchObject({ author: 'Lee Wong' });
  });

  it('is all null for a page that says nothing', () => {
    expect(meta('<html><body><p>Hello</p></body></html>')).toEqual({ author: null, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null, page_kind: 'article' }); // the kind from the URL: a dated story path
  });

  it('ignores a JSON-LD block with a broken date and an author that is a URL', () => {
    const html = `<html><head><script type="application/ld+json"><!--
      {"@type":"BlogPosting","datePublished":"not a date","author":"https://example.test/me"}
    --></script><meta property="article:published_time" content="2026-01-02T03:04:05Z"></head></html>`;
    expect(meta(html)).toMatchObject({ type: 'BlogPosting', author: null, published_at: '2026-01-02T03:04:05.000Z' });
  });

  it('comes out of parsePage beside the existing fields', () => {
    const md = parsePage(NEWS, 'https://news.example.test/2026/03/story').metadata;
    expect(md).toMatchObject({ title: 'Council approves budget – Example Gazette', lang: 'en-US', og: { site_name: 'Gazette (OG)' }, author: 'Ana Lima, Raj Patel', type: 'NewsArticle' });
    // Not asked for (the metadata format not requested): the second walk is skipped.
    expect(parsePage(NEWS, 'https://news.example.test/', { metadata: false }).metadata.author).toBeNull();
  });
});

describe('normalizeDate', () => {
  const now = Date.parse('2026-11-25T00:00:00Z');
  it.each([
    ['2026-03-04', '2026-03-04'],
    ['20260304', '2026-03-04'],
    ['2026-03-04T09:30:00-05:00', '2026-03-04T14:30:00.000Z'],
    ['2026-03-04T09:30:00+0530', '2026-03-04T04:00:00.000Z'],
    ['2026-03-04 09:30', '2026-03-04T09:30:00.000Z'],
    ['2026-03-04T09:30:00.123Z', '2026-03-04T09:30:00.123Z'],
    ['Wed, 04 Mar 2026 09:30:00 GMT', '2026-03-04T09:30:00.000Z'],
    ['March 4, 2026 09:30 UTC', '2026-03-04T09:30:00.000Z'],
  ])('%s -> %s', (raw, iso) => expect(normalizeDate(raw, now)).toBe(iso));
  it.each(['', 'yesterday', '2026-02-30', '2026-13-01', '1234', 'not a date 2026', '2031-01-01', '1960-01-01T00:00:00Z'])('%j -> null', (raw) =>
    expect(normalizeDate(raw, now)).toBeNull(),
  );
});

describe('normalizeLanguage', () => {
  it.each([
    ['en', 'en'],
    ['en_US', 'en-US'],
    ['de-DE, en', 'de-DE'],
    ['zh-Hant-TW', 'zh-Hant-TW'],
    ['not a language', null],
    ['', null],
  ])('%j -> %j', (raw, tag) => expect(normalizeLanguage(raw)).toBe(tag));
});
