import type { CheerioAPI } from 'cheerio';
import { loadHtml } from '../content/load-html.js';
import { absoluteHttpUrl } from './parse.js';
import type { FieldSpec, FieldValue } from './field-spec.js';

export { fieldSpecSchema, fieldsSchema, type FieldSpec, type FieldValue } from './field-spec.js';

const URL_ATTRS = new Set(['href', 'src', 'action', 'poster', 'data-src']);

function readValue($: CheerioAPI, el: Parameters<CheerioAPI>[0], spec: FieldSpec, base: string): string | null {
  const node = $(el as never);
  if (spec.attr) {
    const v = node.attr(spec.attr);
    if (v === undefined) return null;
    if (URL_ATTRS.has(spec.attr.toLowerCase())) return absoluteHttpUrl(v, base) ?? v;
    return v.trim();
  }
  return node.text().replace(/\s+/g, ' ').trim();
}

/**
 * Extract stage: evaluate each field's selector with cheerio. Invalid selectors are reported
 * as a 400 by the caller's schema; here they yield null rather than failing the page.
 *
 * @param html page HTML or an already loaded document
 * @param url page URL (resolves relative href/src)
 * @param fields field name -> spec
 * @param root optional element to scope selectors to (css-extract's item selector)
 */
export function extractFields(
  html: string | CheerioAPI,
  url: string,
  fields: Record<string, FieldSpec>,
  root?: Parameters<CheerioAPI>[0],
): Record<string, FieldValue> {
  const $ = typeof html === 'string' ? loadHtml(html) : html;
  const out: Record<string, FieldValue> = {};
  const scope = root === undefined ? undefined : $(root as never);
  for (const [name, spec] of Object.entries(fields)) {
    try {
      const matches = scope ? scope.find(spec.selector) : $(spec.selector);
      if (spec.all) {
        const values: string[] = [];
        matches.each((_, el) => {
          const v = readValue($, el as never, spec, url);
          if (v !== null) values.push(v);
        });
        out[name] = values;
      } else {
        out[name] = matches.length ? readValue($, matches.get(0) as never, spec, url) : null;
      }
    } catch {
      out[name] = spec.all ? [] : null;
    }
  }
  return out;
}

/**
 * One record per element matching `itemSelector`, fields scoped to that element
 * (a product list -> one item per product).
 */
export function extractItems(
  html: string | CheerioAPI,
  url: string,
  itemSelector: string,
  fields: Record<string, FieldSpec>,
): Record<string, FieldValue>[] {
  const $ = typeof html === 'string' ? loadHtml(html) : html;
  const items: Record<string, FieldValue>[] = [];
  $(itemSelector).each((_, el) => {
    items.push(extractFields($, url, fields, el as never));
  });
  return items;
}

/** The absolute http(s) URL a "next page" selector points at, or null. */
export function nextPageUrl(html: string | CheerioAPI, url: string, selector: string): string | null {
  const $ = typeof html === 'string' ? loadHtml(html) : html;
  try {
    const el = $(selector).first();
    if (!el.length) return null;
    return absoluteHttpUrl(el.attr('href') ?? el.find('a[href]').first().attr('href'), url);
  } catch {
    return null;
  }
}
