import type { CheerioAPI } from 'cheerio';
import { loadHtml } from '../content/load-html.js';
import { showDocument } from '../content/shown-document.js';
import { htmlToMarkdown } from '../content/markdown.js';
import { articleMetadata, type ArticleMetadata } from '../content/metadata.js';
import { AppError } from '../errors.js';
import { extractMainContent, outermost, wholeContent, type DomNode } from '../content/main-content.js';
import { squash } from '../content/dom.js';

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
  /** What `markdown` holds (text and html are always the whole page; API.md "Content options"). */
  content?: ContentParseOptions;
}

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


/** Title: `<title>`, else og:title, else the first h1. */
function scanTitle(scan: DocumentScan): string {
  return squash(scan.title || scan.og.title || (scan.h1 ? rawText(scan.h1) : '') || '');
}

const NO_ARTICLE: ArticleMetadata = { author: null, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null, page_kind: null };

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
  const article = root ? articleMetadata(root, scanBase(scan, url), url) : NO_ARTICLE;
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

/** Absolute, de-duplicated http(s) links of the page, in document order, fragments removed. */
export function pageLinks($: CheerioAPI, url: string): string[] {
  return scanLinks(scanDocument($), url);
}

/** Content options (API.md "Content options"): what `markdown` holds. */
export interface ContentParseOptions {
  /** Default true: markdown is the page's main content; false: the whole body. */
  onlyMainContent?: boolean;
  /** CSS selectors: only these elements become markdown (document order). */
  includeTags?: string[];
  /** CSS selectors: these elements are removed before anything else. */
  excludeTags?: string[];
}

/**
 * Elements matching `selectors`, in document order when `ordered` (several selectors' matches
 * interleave); an invalid selector is a 400, not a 500.
 */
function selectAll($: CheerioAPI, selectors: string[], option: string, ordered: boolean): DomNode[] {
  const out: DomNode[] = [];
  for (const sel of selectors) {
    if (typeof sel !== 'string' || !sel.trim()) continue;
    try {
      for (const el of $(sel).get()) out.push(el as unknown as DomNode);
    } catch {
      throw new AppError(400, 'invalid_input', `${option}: "${sel}" is not a valid CSS selector`, [{ path: option, message: `invalid CSS selector: ${sel}` }]);
    }
  }
  if (!ordered || selectors.length < 2) return out;
  // Several selectors: back into document order (one walk), each element once.
  const wanted = new Set(out);
  const inOrder: DomNode[] = [];
  const visit = (n: DomNode) => {
    for (const c of n.children ?? []) {
      if (wanted.has(c)) inOrder.push(c);
      visit(c);
    }
  };
  visit($.root().get(0) as unknown as DomNode);
  return inOrder;
}

/**
 * The HTML `markdown` is made of: the main content (functions/core/content), the whole body, or
 * the `includeTags` elements; `excludeTags` elements left out of all three. Links and images
 * absolute against the document's base URL.
 */
function contentHtml($: CheerioAPI, url: string, content: ContentParseOptions = {}, scan: DocumentScan = scanDocument($)): { html: string; base: string } {
  const base = scanBase(scan, url);
  const excluded = content.excludeTags?.length ? new Set(selectAll($, content.excludeTags, 'exclude_tags', false)) : undefined;
  const root = scan.body ?? ($.root().get(0) as unknown as DomNode);
  const opts = { base, url, excluded };
  if (isExcluded(root, excluded)) return { html: '', base };
  if (content.includeTags?.length) {
    const picked = outermost(selectAll($, content.includeTags, 'include_tags', true).filter((n) => !isExcluded(n, excluded)));
    return { html: wholeContent(picked, opts).html, base };
  }
  if (content.onlyMainContent === false) return { html: wholeContent(root.children ?? [], opts).html, base };
  return { html: extractMainContent(root, opts).html, base };
}

/** Whether `n` is inside (or is) an excluded element. */
function isExcluded(n: DomNode, excluded: Set<DomNode> | undefined): boolean {
  if (!excluded) return false;
  for (let p: DomNode | null | undefined = n; p; p = p.parent) if (excluded.has(p)) return true;
  return false;
}

/** Markdown of the main content (or what the content options ask for), with absolute link and image URLs. */
export function pageMarkdown($: CheerioAPI, url: string, content?: ContentParseOptions, scan?: DocumentScan): string {
  const { html, base } = contentHtml($, url, content, scan);
  return htmlToMarkdown(html, base);
}

/**
 * Parse stage: title, readable text, markdown of the main content, links and metadata.
 * `html` may be an already loaded document (the pipeline loads each page once).
 */
export function parsePage(html: string | CheerioAPI, url: string, opts: ParseOptions = {}): ParsedPage {
  try {
    return parseLoaded(typeof html === 'string' ? loadHtml(html, url) : html, url, opts);
  } catch (e) {
    // The tree walks recurse per level: a page nesting elements thousands deep (broken markup
    // that never closes a tag) overflows the stack. A clear 422, not a 500.
    if (e instanceof RangeError) throw new AppError(422, 'document_too_complex', `${url}: the page nests its elements too deeply to read`);
    throw e;
  }
}

function parseLoaded($: CheerioAPI, url: string, opts: ParseOptions): ParsedPage {
  // The document as people see it: streamed content in place, mojibake put back (once a document).
  showDocument($);
  const scan = scanDocument($);
  return {
    title: scanTitle(scan),
    text: opts.text === false ? '' : linesOf([scan.body ?? ($.root().get(0) as unknown as RawNode)]),
    markdown: opts.markdown === false ? '' : pageMarkdown($, url, opts.content, scan),
    links: opts.links === false ? [] : scanLinks(scan, url),
    metadata: scanMetadata(scan, url, opts.metadata === false ? null : ($.root().get(0) as unknown as RawNode)),
  };
}
