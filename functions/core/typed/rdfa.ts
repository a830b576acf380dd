import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { propValue } from './microdata.js';
import { addValue, attrJoin, type SchemaNode } from './schema-node.js';

const MAX_ITEMS = 2_000;

/** Prefixes a property may carry (`schema:price`, `og:title` is the meta reader's). */
const localName = (p: string) => p.split(/[/#:]/).pop() ?? p;

/**
 * RDFa (Lite) items: elements with `typeof`, their `property` descendants up to the next
 * `typeof`, `content`/`resource`/`href`/`src` values. Only schema.org-style vocabularies are
 * read; Open Graph's `property="og:…"` meta tags are the meta reader's.
 */
export function readRdfa($: CheerioAPI): SchemaNode[] {
  const scopes = $('[typeof]').slice(0, MAX_ITEMS).toArray() as Element[];
  if (!scopes.length) return [];
  const join = attrJoin('property');
  const read = (scope: Element, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = { '@type': scope.attribs.typeof.trim().split(/\s+/).map(localName) };
    if (scope.attribs.resource) out['@id'] = scope.attribs.resource;
    const walk = (n: AnyNode) => {
      for (const c of (n as Element).children ?? []) {
        if (c.type !== 'tag') continue;
        const el = c as Element;
        const props = (el.attribs.property ?? el.attribs.rel ?? '').trim().split(/\s+/).filter((p) => p && !/^(og|fb|twitter|article|product):/.test(p));
        const isScope = el.attribs.typeof !== undefined;
        if (props.length) {
          const raw = el.attribs.content ?? el.attribs.resource ?? (el.attribs.href && el.name !== 'a' ? el.attribs.href : undefined);
          const v = isScope ? (depth < 8 ? read(el, depth + 1) : {}) : (raw ?? propValue($, el, null)).replace(/\s+/g, ' ').trim();
          for (const p of props) addValue(out, localName(p), v);
        }
        if (!isScope) walk(el);
      }
    };
    walk(scope);
    return out;
  };
  const nodes: SchemaNode[] = [];
  for (const el of scopes) {
    if (el.attribs.property !== undefined || el.attribs.rel !== undefined) continue;

    nodes.push({ value: read(el, 0), source: 'rdfa', path: `[typeof~="${el.attribs.typeof.trim().split(/\s+/)[0]}"]`, join });
  }

  return nodes;
}
