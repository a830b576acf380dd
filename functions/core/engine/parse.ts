import { load, type CheerioAPI } from 'cheerio';
import { htmlToMarkdown } from '../content/markdown.js';
import { articleMetadata, type ArticleMetadata } from '../content/metadata.js';

/** Page metadata (API.md `metadata` format): the fields below plus author, dates, site name… */
export interface PageMetadata extends ArticleMetadata {
  title: string | null;
  description: string | null;
  /** Absolute canonical URL, when the page declares one. */
  canonical: string | null;
  /** `<html lang>` */
  lang: string | null;
  /** `og:*` properties, keyed without the `og:` prefix (`og:title` -> `title`). */
  og: Record<string, string>;
  /** Documents (PDF) only: their page count. */
  pages?: number;
}

/** What the parse stage produces from one HTML document. */
export interface ParsedPage {
  title: string;
  text: string;
  markdown: string;
  links: string[];
  metadata: PageMetadata;
}

/** Which parts to compute; markdown is the expensive one. All default to true. */
export interface ParseOptions {
  text?: boolean;
  markdown?: boolean;
  links?: boolean;
  /** Article metadata (author, dates, …: a second walk over the document); null fields when false. */
  metadata?: boolean;
  /** What `markdown` is made of (API.md "Content options"); text and links ignore it. */
  content?: { onlyMainContent?: boolean; includeTags?: string[]; excludeTags?: string[] };
}

// Elements whose text is never content.
const NON_CONTENT = 'script, style, noscript, template, svg, iframe, object, embed, canvas';
// Navigation is never main content; header/footer/forms only count as chrome when we fell back to <body>.
const NAVIGATION = 'nav, aside, [role="navigation"], [aria-hidden="true"]';
const BODY_CHROME = 'header, footer, form, [role="banner"], [role="contentinfo"]';
const MAIN_CANDIDATES = ['main', 'article', '[role="main"]', '#content', '#main', '.content', '.post', '.article'];
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav',
  'ol', 'p', 'pre', 'section', 'table', 'tr', 'td', 'th', 'ul', 'title', 'option',
]);

/** Resolve `href` against `base`; only absolute http(s) URLs, without fragment. */
export function absoluteHttpUrl(href: string | undefined, base: string): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  if (!trimmed || trimmed.startsWith('#')) return null;
  try {
    const u = new URL(trimmed, base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/** `#fragment` of an href ('' when none). */
const fragmentOf = (href: string | undefined) => {
  const i = href?.indexOf('#') ?? -1;
  return i >= 0 && href!.length > i + 1 ? href!.slice(i) : '';
};

/** The document's base URL: `<base href>` when present, else the page URL. */
function baseUrl($: CheerioAPI, url: string): string {
  const href = $('base[href]').first().attr('href');
  if (!href) return url;
  try {
    return new URL(href, url).href;
  } catch {
    return url;
  }
}

/** The slice of a domhandler node the text walk reads (avoids a cheerio wrapper per node). */
interface RawNode {
  type: string;
  name?: string;
  data?: string;
  children?: RawNode[];
}

const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'embed', 'canvas', 'head']);

function collectText(nodes: RawNode[] | undefined, out: string[]): void {
  if (!nodes) return;
  for (const node of nodes) {
    if (node.type === 'text') out.push(node.data ?? '');
    else if (node.type === 'tag') {
      const name = node.name ?? ''; // the HTML parser lowercases tag names
      if (SKIP_TAGS.has(name)) continue;
      const block = BLOCK.has(name);
      if (block) out.push('\n');
      collectText(node.children, out);
      if (block) out.push('\n');
    }
    // script/style/comment/directive nodes carry no readable text
  }
}

/** Readable text of a subtree: block elements become line breaks, whitespace collapsed. */
export function readableText(root: ReturnType<CheerioAPI>): string {
  return linesOf(root.get().map((el) => el as unknown as RawNode));
}

function linesOf(roots: RawNode[]): string {
  const out: string[] = [];
  for (const r of roots) collectText(r.children, out);
  // Collapse runs of non-newline whitespace, then make every line break (with the blank space
  // around it) a single newline: one line per block, no empty lines.
  return out
    .join('')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n\s*/g, '\n')
    .trim();
}

/** Attribute map of a domhandler element. */
type RawElement = RawNode & { attribs?: Record<string, string> };

/**
 * What one walk over the document collects for title, metadata and links. A single pass is
 * several times cheaper than one CSS query per item (cheerio compiles every selector it runs).
 */
interface DocumentScan {
  title: string | null;
  h1: RawNode | null;
  lang: string | null;
  baseHref: string | null;
  canonicalHref: string | null;
  description: string | null;
  og: Record<string, string>;
  hrefs: string[];
  body: RawNode | null;
}

function rawText(node: RawNode): string {
  const out: string[] = [];
  collectText([node], out);
  return out.join('');
}

function scanDocument($: CheerioAPI): DocumentScan {
  const scan: DocumentScan = { title: null, h1: null, lang: null, baseHref: null, canonicalHref: null, description: null, og: {}, hrefs: [], body: null };
  const visit = (nodes: RawNode[] | undefined) => {
    if (!nodes) return;
    for (const node of nodes as RawElement[]) {
      if (node.type !== 'tag' && node.type !== 'root') continue;
      const name = (node.name ?? '').toLowerCase();
      const a = node.attribs ?? {};
      switch (name) {
        case 'html':
          if (scan.lang === null && a.lang?.trim()) scan.lang = a.lang.trim();
          break;
        case 'title':
          // <title> inside <svg> is a tooltip, not the document title.
          if (scan.title === null) scan.title = (node.children ?? []).map((c) => c.data ?? '').join('');
          continue;
        case 'base':
          if (scan.baseHref === null && a.href) scan.baseHref = a.href;
          break;
        case 'link':
          if (scan.canonicalHref === null && a.href && /(^|\s)canonical(\s|$)/i.test(a.rel ?? '')) scan.canonicalHref = a.href;
          break;
        case 'meta': {
          const prop = a.property ?? '';
          if (prop.startsWith('og:') && a.content !== undefined && !(prop.slice(3) in scan.og) && prop.length > 3) {
            scan.og[prop.slice(3)] = a.content;
          } else if (scan.description === null && (a.name ?? '').toLowerCase() === 'description' && a.content?.trim()) {
            scan.description = a.content.trim();
          }
          break;
        }
        case 'h1':
          scan.h1 ??= node;
          break;
        case 'body':
          scan.body ??= node;
          break;
        case 'a':
        case 'area':
          if (a.href !== undefined) scan.hrefs.push(a.href);
          break;
        case 'svg':
        case 'script':
        case 'style':
        case 'template':
          continue;
      }
      visit(node.children);
    }
  };
  visit(($.root().get(0) as unknown as RawNode).children);
  return scan;
}

/** The document's base URL from a scan: `<base href>` when present, else the page URL. */
function scanBase(scan: DocumentScan, url: string): string {
  if (!scan.baseHref) return url;
  try {
    return new URL(scan.baseHref, url).href;
  } catch {
    return url;
  }
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Title: `<title>`, else og:title, else the first h1. */
function scanTitle(scan: DocumentScan): string {
  return squash(scan.title || scan.og.title || (scan.h1 ? rawText(scan.h1) : '') || '');
}

const NO_ARTICLE: ArticleMetadata = { author: null, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null };

function scanMetadata(scan: DocumentScan, url: string, root: RawNode | null): PageMetadata {
  let canonical: string | null = null;
  if (scan.canonicalHref) {
    try {
      canonical = new URL(scan.canonicalHref, scanBase(scan, url)).href;
    } catch {
      canonical = null;
    }
  }
  const title = scanTitle(scan);
  const article = root ? articleMetadata(root, scanBase(scan, url)) : NO_ARTICLE;
  return { title: title || null, description: scan.description, canonical, lang: scan.lang, og: { ...scan.og }, ...article };
}

function scanLinks(scan: DocumentScan, url: string): string[] {
  const base = scanBase(scan, url);
  const seen = new Set<string>();
  for (const href of scan.hrefs) {
    const abs = absoluteHttpUrl(href, base);
    if (abs) seen.add(abs);
  }
  return [...seen];
}

/** Metadata: description, og:*, canonical (absolute), lang. */
export function pageMetadata($: CheerioAPI, url: string): PageMetadata {
  return scanMetadata(scanDocument($), url, $.root().get(0) as unknown as RawNode);
}

/** Absolute, de-duplicated http(s) links of the page, in document order, fragments removed. */
export function pageLinks($: CheerioAPI, url: string): string[] {
  return scanLinks(scanDocument($), url);
}

/** The main content element: the first non-trivial main/article candidate, else body. */
function mainContent($: CheerioAPI): ReturnType<CheerioAPI> {
  for (const sel of MAIN_CANDIDATES) {
    const el = $(sel).first();
    if (el.length && el.text().trim().length > 40) return el;
  }
  const body = $('body');
  return body.length ? body : $.root();
}

/** Markdown of the main content, with absolute link and image URLs. */
export function pageMarkdown($: CheerioAPI, url: string): string {
  const base = baseUrl($, url);
  const main = mainContent($).clone();
  main.find(NON_CONTENT).remove();
  main.find(NAVIGATION).remove();
  if (main.is('body')) main.find(BODY_CHROME).remove();
  main.find('a[href]').each((_, el) => {
    // Unlike the links format, markdown keeps the fragment: it is part of where the text points.
    const abs = absoluteHttpUrl($(el).attr('href'), base);
    if (abs) $(el).attr('href', abs + fragmentOf($(el).attr('href')));
  });
  main.find('img[src]').each((_, el) => {
    try {
      $(el).attr('src', new URL($(el).attr('src') ?? '', base).href);
    } catch {
      /* leave it */
    }
  });
  const html = $.html(main);
  return htmlToMarkdown(html, base);
}

/**
 * Parse stage: title, readable text, markdown of the main content, links and metadata.
 * `html` may be an already loaded document (the pipeline loads each page once).
 */
export function parsePage(html: string | CheerioAPI, url: string, opts: ParseOptions = {}): ParsedPage {
  const $ = typeof html === 'string' ? load(html) : html;
  const scan = scanDocument($);
  return {
    title: scanTitle(scan),
    text: opts.text === false ? '' : linesOf([scan.body ?? ($.root().get(0) as unknown as RawNode)]),
    markdown: opts.markdown === false ? '' : pageMarkdown($, url),
    links: opts.links === false ? [] : scanLinks(scan, url),
    metadata: scanMetadata(scan, url, opts.metadata === false ? null : ($.root().get(0) as unknown as RawNode)),
  };
}
