import type { CheerioAPI } from 'cheerio';
import { htmlDepth, loadHtml, MAX_HTML_DEPTH } from '../content/load-html.js';
import { showDocument } from '../content/shown-document.js';
import { headTitle } from './head-title.js';
import { extractFields } from './extract.js';
import { needsJs } from './needs-js.js';
import { parsePage, type ParsedPage } from './parse.js';
import type { FieldSpec, FieldValue } from './field-spec.js';
import type { ScrapeFormat } from './types.js';
import { removeStaticOverlays } from '../content/overlays.js';
import { dropMarkedOverlays } from './page-capture.js';
import { extractTyped, typedFormatsOf } from '../typed/extract-typed.js';
import type { TypedData } from '../typed/types.js';

/**
 * The parse and extract stages of one HTML page as plain data in, plain data out, so that they
 * can run on a budget thread (limits/budget-pool.ts) when the request carries the tenant's own
 * selectors: selector matching on a hostile page (`*:has(b)` over a million nested elements, a
 * chain of descendant combinators) costs its sender's budget, not every tenant's event loop.
 */
export interface ShapeSpec {
  url: string;
  formats: ScrapeFormat[];
  /** Decide whether the auto engine needs the browser first (undefined parts when it does). */
  decideAuto: boolean;
  /** Remove consent overlays found without layout (the http engine; the browser removed them live). */
  staticOverlays?: boolean;
  /** Remove the overlays a runbook's page view marked (page-capture.ts; the live page keeps them). */
  markedOverlays?: boolean;
  waitFor?: string;
  onlyMainContent?: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  extract?: Record<string, FieldSpec>;
  /** The model reads the page's markdown (format `json`, or typed formats with `typed_options.model`). */
  modelMarkdown?: boolean;
}

export interface ShapedParts {
  /** Why the auto engine needs the browser (then nothing else was computed), or null. */
  autoReason: string | null;
  parsed?: ParsedPage;
  extracted?: Record<string, FieldValue>;
  /** The typed formats asked for (API.md "Typed data"), each object or null. */
  typed?: TypedData;
}

/** `auto`: does this http result need a browser? */
function browserNeeded(spec: ShapeSpec, $: CheerioAPI): string | null {
  if (spec.formats.includes('screenshot')) return 'screenshot requested';
  if (spec.waitFor) {
    let found: boolean;
    try {
      found = $(spec.waitFor).length > 0;
    } catch {
      found = false;
    }
    if (!found) return `wait_for selector ${spec.waitFor} not in static HTML`;
  }
  const verdict = needsJs($);
  return verdict.needed ? verdict.reason : null;
}

/** Formats whose output comes from the request itself, not from the parsed page (only the title is needed). */
const UNPARSED_FORMATS = new Set<ScrapeFormat>(['html', 'screenshot']);

/**
 * The parts of a page whose formats need nothing parsed but its title (`html`, `screenshot`),
 * when the title can be read without a document tree (head-title.ts); undefined otherwise. The
 * parsed text, markdown, links and metadata are left empty: no format asked for them.
 */
function titleOnly(html: string, spec: ShapeSpec): ShapedParts | undefined {
  if (spec.decideAuto || spec.modelMarkdown || (spec.extract && Object.keys(spec.extract).length)) return undefined;
  if (!spec.formats.every((f) => UNPARSED_FORMATS.has(f))) return undefined;
  // A page loadHtml refuses as too deeply nested is refused the same way by the full parse.
  if (html.length > MAX_HTML_DEPTH * 2 && htmlDepth(html) > MAX_HTML_DEPTH) return undefined;
  const title = headTitle(html);
  if (title === null) return undefined;
  return {
    autoReason: null,
    parsed: {
      title,
      text: '',
      markdown: '',
      links: [],
      metadata: { title, description: null, canonical: null, lang: null, og: {}, author: null, published_at: null, modified_at: null, site_name: null, language: null, image: null, type: null, page_kind: null },
    },
  };
}

/** Parse (and extract from) `html` as `spec` asks. Synchronous: the tree never outlives the call. */
export function shapePage(html: string, spec: ShapeSpec): ShapedParts {
  const quick = titleOnly(html, spec);
  if (quick) return quick;
  const $ = loadHtml(html, spec.url);
  if (spec.decideAuto) {
    const autoReason = browserNeeded(spec, $);
    if (autoReason) return { autoReason };
  }
  // The page as people see it (React's streamed content in place, mojibake put back): typed data,
  // the parse and field extraction all read it so.
  showDocument($);
  if (spec.staticOverlays) removeStaticOverlays($);
  if (spec.markedOverlays) dropMarkedOverlays($);
  const f = new Set(spec.formats);
  // Typed data reads the page as loaded, before main-content cleaning narrows it.
  const typedFormats = typedFormatsOf(f);
  const typed = typedFormats.length ? extractTyped($, spec.url, typedFormats) : undefined;
  const parsed = parsePage($, spec.url, {
    text: f.has('text'),
    markdown: f.has('markdown') || f.has('json') || Boolean(spec.modelMarkdown),
    links: f.has('links'),
    metadata: f.has('metadata'),
    content: {
      onlyMainContent: spec.onlyMainContent ?? true,
      ...(spec.includeTags?.length ? { includeTags: spec.includeTags } : {}),
      ...(spec.excludeTags?.length ? { excludeTags: spec.excludeTags } : {}),
    },
  });
  const extracted = spec.extract && Object.keys(spec.extract).length ? extractFields($, spec.url, spec.extract) : undefined;
  return { autoReason: null, parsed, ...(extracted ? { extracted } : {}), ...(typed ? { typed } : {}) };
}

/** True when `spec` carries selectors the tenant wrote: then the page is shaped under a budget. */
export const hasTenantSelectors = (spec: ShapeSpec): boolean =>
  Boolean(spec.waitFor || spec.includeTags?.length || spec.excludeTags?.length || (spec.extract && Object.keys(spec.extract).length));
