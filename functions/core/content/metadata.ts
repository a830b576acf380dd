import { squash, type DomNode } from './dom.js';
import { pageKind, type PageKind } from './page-kind.js';

/**
 * Article metadata of a page (API.md "Content options", `metadata` format): author, dates, site
 * name, language, lead image and type. Sources in order of trust: JSON-LD (schema.org, including
 * `@graph` documents), Open Graph, other `<meta>` tags (Dublin Core, itemprop, common CMS names),
 * then the visible page (`<time datetime>`, `[itemprop=author]`, `rel=author`, `.byline`). A field
 * no source states is `null`; dates are ISO 8601 or `null`.
 */
export interface ArticleMetadata {
  author: string | null;
  /** ISO 8601: a date (`2026-04-01`) when the page gives only a date, else a UTC date-time. */
  published_at: string | null;
  modified_at: string | null;
  site_name: string | null;
  /** BCP 47 language tag (`en`, `pt-BR`). */
  language: string | null;
  /** Absolute URL of the lead image. */
  image: string | null;
  /** schema.org `@type` (`NewsArticle`, `Product`…) or `og:type` (`article`, `website`…). */
  type: string | null;
  /** What kind of page it is, from its structure (page-kind.ts); `null` for documents that are not HTML. */
  page_kind?: PageKind | null;
}

/** The slice of a domhandler node this module reads. */
interface Node {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: Node[];
}

/** What one walk over the document collects. */
interface Signals {
  htmlLang: string | null;
  jsonLd: string[];
  /** `<meta>` content by lowercased name, property, itemprop or http-equiv (first wins). */
  meta: Map<string, string>;
  /** `<link rel=… href>` by lowercased itemprop (schema.org microdata image/url). */
  itemLinks: Map<string, string>;
  time: string | null;
  publishedTime: string | null;
  itempropAuthor: string | null;
  relAuthor: string | null;
  byline: string | null;
}

const SKIP = new Set(['style', 'svg', 'template', 'noscript', 'iframe', 'canvas', 'math']);
const BYLINE_CLASS = /(?:^|\s)(?:byline|by-line|author|author-name|authorname|post-author|entry-author|article-author|c-byline)(?:\s|$|__|-name)/i;

function textOf(node: Node, out: string[] = [], budget = { left: 400 }): string {
  for (const c of node.children ?? []) {
    if (budget.left <= 0) break;
    if (c.type === 'text') {
      out.push(c.data ?? '');
      budget.left -= (c.data ?? '').length;
    } else if (c.type === 'tag' && !SKIP.has(c.name ?? '') && c.name !== 'script') textOf(c, out, budget);
  }
  return out.join(' ');
}


function collect(root: Node): Signals {
  const s: Signals = { htmlLang: null, jsonLd: [], meta: new Map(), itemLinks: new Map(), time: null, publishedTime: null, itempropAuthor: null, relAuthor: null, byline: null };
  const visit = (nodes: Node[] | undefined) => {
    if (!nodes) return;
    for (const node of nodes) {
      if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
      const name = node.name ?? '';
      const a = node.attribs ?? {};
      if (name === 'script') {
        if (/^\s*application\/ld\+json\s*$/i.test(a.type ?? '')) s.jsonLd.push((node.children ?? []).map((c) => c.data ?? '').join(''));
        continue;
      }
      if (SKIP.has(name)) continue;
      switch (name) {
        case 'html':
          if (s.htmlLang === null && a.lang?.trim()) s.htmlLang = a.lang.trim();
          break;
        case 'meta': {
          const content = a.content?.trim();
          if (content) {
            for (const key of [a.property, a.name, a.itemprop, a['http-equiv']]) {
              const k = key?.trim().toLowerCase();
              if (k && !s.meta.has(k)) s.meta.set(k, content);
            }
          }
          continue;
        }
        case 'link': {
          const ip = a.itemprop?.trim().toLowerCase();
          if (ip && a.href && !s.itemLinks.has(ip)) s.itemLinks.set(ip, a.href);
          continue;
        }
        case 'time': {
          const dt = a.datetime?.trim();
          if (dt) {
            s.time ??= dt;
            if (s.publishedTime === null && ('pubdate' in a || /datepublished/i.test(a.itemprop ?? '') || /publish|posted/i.test(a.class ?? ''))) s.publishedTime = dt;
          }
          break;
        }
        case 'a':
          if (s.relAuthor === null && /(?:^|\s)author(?:\s|$)/i.test(a.rel ?? '')) s.relAuthor = squash(textOf(node));
          break;
      }
      if (s.itempropAuthor === null && /(?:^|\s)(?:author|creator)(?:\s|$)/i.test(a.itemprop ?? '')) {
        // <span itemprop="author" itemscope><span itemprop="name">…</span></span> or plain text.
        s.itempropAuthor = squash(findItemprop(node, 'name') ?? textOf(node)) || null;
      }
      if (s.byline === null && a.class && BYLINE_CLASS.test(a.class)) s.byline = squash(textOf(node)) || null;
      visit(node.children);
    }
  };
  visit(root.children);
  return s;
}

function findItemprop(node: Node, prop: string): string | null {
  for (const c of node.children ?? []) {
    if (c.type !== 'tag') continue;
    if ((c.attribs?.itemprop ?? '').split(/\s+/).includes(prop)) return c.attribs?.content ?? textOf(c);
    const deeper = findItemprop(c, prop);
    if (deeper !== null) return deeper;
  }
  return null;
}

// ---------------------------------------------------------------- JSON-LD

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: Json | undefined): Json[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const typesOf = (o: JsonObject): string[] => asArray(o['@type']).filter((t): t is string => typeof t === 'string');

/** Every object node of the JSON-LD blocks: top-level objects, arrays and `@graph` members. */
function jsonLdNodes(blocks: string[]): JsonObject[] {
  const nodes: JsonObject[] = [];
  const add = (v: Json, depth: number) => {
    if (depth > 3) return;
    for (const item of asArray(v)) {
      if (!isObject(item)) continue;
      nodes.push(item);
      if (item['@graph']) add(item['@graph'], depth + 1);
    }
  };
  for (const raw of blocks) {
    // CMSs wrap blocks in comments or CDATA, and some leave control characters in strings.
    const text = raw.replace(/^\s*(?:<!--|\/\/\s*<!\[CDATA\[)/, '').replace(/(?:-->|\/\/\s*\]\]>)\s*$/, '').replace(/[\n\r\t\f\v]+/g, ' ');
    if (!text.trim() || text.length > 1_000_000) continue;
    try {
      add(JSON.parse(text) as Json, 0);
    } catch {
      /* a broken block says nothing */
    }
  }
  return nodes;
}

const ARTICLE_TYPES = /^(?:Article|NewsArticle|BlogPosting|Blog|Report|TechArticle|ScholarlyArticle|AnalysisNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|LiveBlogPosting|SocialMediaPosting|DiscussionForumPosting|Review|Recipe|HowTo|VideoObject|PodcastEpisode|Product|Event|Course|Book|Movie|JobPosting|QAPage|FAQPage)$/;
const PAGE_TYPES = /^(?:WebPage|ItemPage|AboutPage|CollectionPage|ProfilePage|SearchResultsPage|ContactPage)$/;

/** The node describing the page's content: an article-like (or product…) node, else a WebPage node. */
function mainNode(nodes: JsonObject[]): JsonObject | null {
  return nodes.find((n) => typesOf(n).some((t) => ARTICLE_TYPES.test(t))) ?? nodes.find((n) => typesOf(n).some((t) => PAGE_TYPES.test(t))) ?? null;
}

/** Follow an `{"@id": …}` reference into the graph. */
function deref(v: Json | undefined, byId: Map<string, JsonObject>): Json | undefined {
  if (isObject(v) && typeof v['@id'] === 'string' && Object.keys(v).length === 1) return byId.get(v['@id']) ?? v;
  return v;
}

function personNames(v: Json | undefined, byId: Map<string, JsonObject>): string[] {
  const names: string[] = [];
  for (const item of asArray(v)) {
    const p = deref(item, byId);
    if (typeof p === 'string') names.push(p);
    else if (isObject(p)) {
      const n = p.name ?? p.alternateName;
      if (typeof n === 'string') names.push(n);
      else if (typeof p.givenName === 'string') names.push(`${p.givenName} ${typeof p.familyName === 'string' ? p.familyName : ''}`);
    }
  }
  return names.map(squash).filter((n) => n && !/^https?:\/\//i.test(n));
}

function firstUrl(v: Json | undefined, byId: Map<string, JsonObject>): string | null {
  for (const item of asArray(v)) {
    const x = deref(item, byId);
    if (typeof x === 'string' && x.trim()) return x.trim();
    if (isObject(x)) {
      const u = x.url ?? x.contentUrl;
      if (typeof u === 'string' && u.trim()) return u.trim();
    }
  }
  return null;
}

const str = (v: Json | undefined): string | null => (typeof v === 'string' && v.trim() ? squash(v) : null);

interface LdFields {
  author: string | null;
  published: string | null;
  modified: string | null;
  siteName: string | null;
  language: string | null;
  image: string | null;
  type: string | null;
}

function fromJsonLd(blocks: string[]): LdFields {
  const none: LdFields = { author: null, published: null, modified: null, siteName: null, language: null, image: null, type: null };
  if (!blocks.length) return none;
  const nodes = jsonLdNodes(blocks);
  const byId = new Map<string, JsonObject>();
  for (const n of nodes) if (typeof n['@id'] === 'string') byId.set(n['@id'], n);
  const main = mainNode(nodes);
  const website = nodes.find((n) => typesOf(n).includes('WebSite'));
  const publisher = main ? deref(main.publisher, byId) : undefined;
  const authors = main ? personNames(main.author ?? main.creator, byId) : [];
  return {
    author: authors.length ? [...new Set(authors)].join(', ') : null,
    published: main ? str(main.datePublished) ?? str(main.dateCreated) ?? str(main.uploadDate) : null,
    modified: main ? str(main.dateModified) : null,
    siteName: str(website?.name) ?? (isObject(publisher) ? str(publisher.name) : null),
    language: main ? str(main.inLanguage) : str(website?.inLanguage),
    image: main ? firstUrl(main.image ?? main.thumbnailUrl, byId) : null,
    type: main ? typesOf(main)[0] ?? null : null,
  };
}

// ---------------------------------------------------------------- normalisation

/**
 * A date as ISO 8601: date-only stays date-only; a date-time becomes UTC (`Z`), one without an
 * offset is read as UTC. Unparseable or implausible (before 1970, more than a year ahead) -> null.
 */
export function normalizeDate(raw: string | null | undefined, now = Date.now()): string | null {
  const v = raw?.trim();
  if (!v || v.length > 64) return null;
  let m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(v);
  if (m) {
    const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
    return plausible(d, now) && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]! ? `${m[1]}-${m[2]}-${m[3]}` : null;
  }
  m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2}|[+-]\d{2})?$/i.exec(v);
  let d: Date;
  if (m) {
    let zone = m[3] ?? 'Z';
    if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
    if (/^[+-]\d{2}$/.test(zone)) zone = `${zone}:00`;
    d = new Date(`${m[1]}T${m[2]!.replace(',', '.')}${zone.toUpperCase()}`);
  } else {
    // RFC 2822 and the long forms the JavaScript parser knows ("March 5, 2024 10:00 GMT").
    // Only with an English month name: the parser reads almost any text with a number as some date.
    if (!/\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\b/i.test(v) || !/\b\d{4}\b/.test(v)) return null;
    d = new Date(v);
  }
  return plausible(d, now) ? d.toISOString() : null;
}

const plausible = (d: Date, now: number) => !Number.isNaN(d.getTime()) && d.getTime() >= 0 && d.getTime() <= now + 366 * 86_400_000;

/** A language tag: `en_US` -> `en-US`; anything that is not a tag -> null. */
export function normalizeLanguage(raw: string | null | undefined): string | null {
  const v = raw?.split(',')[0]?.trim().replace(/_/g, '-');
  return v && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(v) ? v : null;
}

function absolute(raw: string | null | undefined, base: string): string | null {
  if (!raw?.trim()) return null;
  try {
    const u = new URL(raw.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** A byline as a name: "By Jo Park" -> "Jo Park"; too long to be a name -> null. */
function cleanAuthor(raw: string | null | undefined): string | null {
  if (!raw) return null;
  // A byline often goes on with the date or a role: "By Jo Park | March 3, 2026".
  const v = squash(raw.split(/\s[|•·—–]\s|\n/)[0]!)
    .replace(/^(?:by|von|par|por|door|di|av)\s*:?\s+/i, '')
    .replace(/^(?:written|posted|published)\s+by\s+/i, '')
    .replace(/\s*[|•·,]\s*$/, '')
    .trim();
  if (!v || v.length > 100 || /^https?:\/\//i.test(v) || /^@/.test(v)) return null;
  return v;
}

const firstOf = (...values: (string | null | undefined)[]): string | null => {
  for (const v of values) if (v?.trim()) return v.trim();
  return null;
};

/**
 * Article metadata from a parsed document (the cheerio/domhandler root node).
 *
 * @param root the document node (`$.root().get(0)`)
 * @param baseUrl the document's base URL (resolves the image URL)
 * @param pageUrl the page's own URL, whose path tells its kind (`page_kind`)
 */
export function articleMetadata(root: unknown, baseUrl: string, pageUrl: string): ArticleMetadata {
  const s = collect(root as Node);
  const ld = fromJsonLd(s.jsonLd);
  const m = (k: string) => s.meta.get(k);
  const ogAuthor = m('article:author');
  return {
    author:
      cleanAuthor(ld.author) ??
      cleanAuthor(ogAuthor && !/^https?:/i.test(ogAuthor) ? ogAuthor : null) ??
      cleanAuthor(firstOf(m('author'), m('dc.creator'), m('dcterms.creator'), m('citation_author'), m('parsely-author'), m('sailthru.author'), m('byl'))) ??
      cleanAuthor(s.itempropAuthor) ??
      cleanAuthor(s.relAuthor) ??
      cleanAuthor(s.byline),
    published_at:
      normalizeDate(ld.published) ??
      normalizeDate(m('article:published_time')) ??
      normalizeDate(
        firstOf(m('datepublished'), m('date'), m('dc.date'), m('dc.date.issued'), m('dcterms.created'), m('dcterms.issued'), m('citation_publication_date'), m('pubdate'), m('publishdate'), m('publish-date'), m('parsely-pub-date'), m('sailthru.date')),
      ) ??
      normalizeDate(s.publishedTime ?? s.time),
    modified_at:
      normalizeDate(ld.modified) ??
      normalizeDate(firstOf(m('article:modified_time'), m('og:updated_time'))) ??
      normalizeDate(firstOf(m('datemodified'), m('dc.date.modified'), m('dcterms.modified'), m('last-modified'))),
    site_name: firstOf(ld.siteName, m('og:site_name'), m('application-name'), m('apple-mobile-web-app-title')),
    language: normalizeLanguage(s.htmlLang) ?? normalizeLanguage(ld.language) ?? normalizeLanguage(m('content-language')) ?? normalizeLanguage(m('og:locale')) ?? normalizeLanguage(m('dc.language')),
    image: absolute(firstOf(ld.image, m('og:image'), m('og:image:url'), m('og:image:secure_url'), m('twitter:image'), m('twitter:image:src'), m('image'), s.itemLinks.get('image')), baseUrl),
    type: firstOf(ld.type, m('og:type')),
    // The kind by the page's own URL, not its <base href> (main-content.ts ContentOptions.url).
    page_kind: pageKind(root as DomNode, { url: pageUrl }),
  };
}
