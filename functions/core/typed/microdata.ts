import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { addValue, attrJoin, type SchemaNode } from './schema-node.js';

/** Items read per page at most (a listing of 10,000 microdata items is read as its first 2,000). */
const MAX_ITEMS = 2_000;

/** An element's property value by the HTML microdata rules (content, src, href, datetime, value, text). */
export function propValue($: CheerioAPI, el: Element, valueAttr: 'content' | null = 'content'): string {
  const a = el.attribs;
  if (valueAttr && a[valueAttr] !== undefined) return a[valueAttr];
  switch (el.name) {
    case 'meta':
      return a.content ?? '';
    case 'img': case 'audio': case 'video': case 'source': case 'embed': case 'iframe': case 'track':
      return a.src ?? '';
    case 'a': case 'link': case 'area':
      return a.href ?? '';
    case 'object':
      return a.data ?? '';
    case 'data': case 'meter':
      return a.value ?? '';
    case 'time':
      return a.datetime ?? $(el).text();
    default:
      return $(el).text();
  }
}

/**
 * Microdata items (`itemscope`/`itemtype`/`itemprop`) as JSON-LD-like objects. Top-level items
 * (not the value of another item's property) are the page's candidates; nested ones stay inside
 * their parent. Paths are CSS selectors.
 */
export function readMicrodata($: CheerioAPI): SchemaNode[] {
  const scopes = $('[itemscope]').slice(0, MAX_ITEMS).toArray() as Element[];
  if (!scopes.length) return [];
  const join = attrJoin('itemprop');
  const read = (scope: Element, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const t = scope.attribs.itemtype?.trim();
    if (t) out['@type'] = t.split(/\s+/);
    if (scope.attribs.itemid) out['@id'] = scope.attribs.itemid;
    const walk = (n: AnyNode) => {
      for (const c of (n as Element).children ?? []) {
        if (c.type !== 'tag' && c.type !== 'script' && c.type !== 'style') continue;
        const el = c as Element;
        const props = el.attribs.itemprop?.trim().split(/\s+/) ?? [];
        const isScope = el.attribs.itemscope !== undefined;
        if (props.length) {
          const v = isScope ? (depth < 8 ? read(el, depth + 1) : {}) : propValue($, el).replace(/\s+/g, ' ').trim();
          for (const p of props) addValue(out, p.split(/[/#]/).pop() ?? p, v);
        }
        if (!isScope) walk(el);
      }
    };
    walk(scope);
    return out;
  };
  const nodes: SchemaNode[] = [];
  const counts = new Map<string, number>();
  for (const el of scopes) {
    if (el.attribs.itemprop !== undefined) continue;
    const type = (el.attribs.itemtype ?? '').split(/\s+/)[0]?.split(/[/#]/).pop() ?? '';
    const n = counts.get(type) ?? 0;
    counts.set(type, n + 1);
    nodes.push({ value: read(el, 0), source: 'microdata', path: `[itemtype$="/${type}"]${n ? `:eq(${n})` : ''}`, join });
  }
  return nodes;
}
