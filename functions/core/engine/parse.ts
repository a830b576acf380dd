import { load, type CheerioAPI } from 'cheerio';
import TurndownService from 'turndown';

/** Page metadata (API.md `metadata` format). */
export interface PageMetadata {
  title: string | null;
  description: string | null;
  /** Absolute canonical URL, when the page declares one. */
  canonical: string | null;
  /** `<html lang>` */
  lang: string | null;
  /** `og:*` properties, keyed without the `og:` prefix (`og:title` -> `title`). */
  og: Record<string, string>;
}

/** What the parse stage produces from one HTML document. */
export interface ParsedPage {
  title: string;
  text: string;
  markdown: string;
  links: string[];
  metadata: PageMetadata;
}

/** Which parts to compute; markdown (turndown) is the expensive one. All default to true. */
export interface ParseOptions {
  text?: boolean;
  markdown?: boolean;
  links?: boolean;
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

let turndown: TurndownService | undefined;
function markdownService(): TurndownService {
  if (!turndown) {
    turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    turndown.remove(['script', 'style', 'noscript', 'template', 'iframe']);
  }
  return turndown;
}

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

/** Readable text of a subtree: block elements become line breaks, whitespace collapsed. */
export function readableText($: CheerioAPI, root: ReturnType<CheerioAPI>): string {
  const out: string[] = [];
  const walk = (nodes: ReturnType<CheerioAPI>) => {
    nodes.contents().each((_, node) => {
      if (node.type === 'text') out.push((node as unknown as { data: string }).data);
      else if (node.type === 'tag') {
        const name = (node as unknown as { name: string }).name.toLowerCase();
        if ($(node).is(NON_CONTENT)) return;
        const block = BLOCK.has(name);
        if (block) out.push('\n');
        walk($(node));
        if (block) out.push('\n');
      }
    });
  };
  walk(root);
  return out
    .join('')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Title: `<title>`, else og:title, else the first h1. */
function pageTitle($: CheerioAPI): string {
  const t = $('head > title').first().text() || $('title').first().text();
  const og = $('meta[property="og:title"]').attr('content');
  const h1 = $('h1').first().text();
  return (t || og || h1 || '').replace(/\s+/g, ' ').trim();
}

/** Metadata: description, og:*, canonical (absolute), lang. */
export function pageMetadata($: CheerioAPI, url: string): PageMetadata {
  const og: Record<string, string> = {};
  $('meta[property^="og:"]').each((_, el) => {
    const key = ($(el).attr('property') ?? '').slice(3);
    const content = $(el).attr('content');
    if (key && content !== undefined && !(key in og)) og[key] = content;
  });
  const canonicalHref = $('link[rel="canonical"]').attr('href');
  let canonical: string | null = null;
  if (canonicalHref) {
    try {
      canonical = new URL(canonicalHref, baseUrl($, url)).href;
    } catch {
      canonical = null;
    }
  }
  const title = pageTitle($);
  return {
    title: title || null,
    description: $('meta[name="description" i]').attr('content')?.trim() || null,
    canonical,
    lang: $('html').attr('lang')?.trim() || null,
    og,
  };
}

/** Absolute, de-duplicated http(s) links of the page, in document order, fragments removed. */
export function pageLinks($: CheerioAPI, url: string): string[] {
  const base = baseUrl($, url);
  const seen = new Set<string>();
  $('a[href], area[href]').each((_, el) => {
    const abs = absoluteHttpUrl($(el).attr('href'), base);
    if (abs) seen.add(abs);
  });
  return [...seen];
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
    const abs = absoluteHttpUrl($(el).attr('href'), base);
    if (abs) $(el).attr('href', abs);
  });
  main.find('img[src]').each((_, el) => {
    try {
      $(el).attr('src', new URL($(el).attr('src') ?? '', base).href);
    } catch {
      /* leave it */
    }
  });
  const html = $.html(main);
  return markdownService().turndown(html).trim();
}

/**
 * Parse stage: title, readable text, markdown of the main content, links and metadata.
 * `html` may be an already loaded document (the pipeline loads each page once).
 */
export function parsePage(html: string | CheerioAPI, url: string, opts: ParseOptions = {}): ParsedPage {
  const $ = typeof html === 'string' ? load(html) : html;
  const body = $('body');
  return {
    title: pageTitle($),
    text: opts.text === false ? '' : readableText($, body.length ? body : $.root()),
    markdown: opts.markdown === false ? '' : pageMarkdown($, url),
    links: opts.links === false ? [] : pageLinks($, url),
    metadata: pageMetadata($, url),
  };
}
