import type { TypedSource } from './types.js';

/**
 * A schema.org item as the structured readers (JSON-LD, microdata, RDFa) all hand it over: a
 * JSON-LD-like object (`@type`, properties, nested items as objects), where it was found, and how
 * a property's path is written in that syntax (a JSON path for JSON-LD, a CSS selector for the
 * attribute syntaxes). One mapper per item type then reads all three the same way.
 */
export interface SchemaNode {
  value: Record<string, unknown>;
  source: TypedSource;
  path: string;
  /** The path of property `key` (at `index` when it has several values) below `path`. */
  join: (path: string, key: string, index?: number) => string;
  /** True for items nested in another item's property (not the page's own top-level items). */
  nested?: boolean;
  /** JSON-LD: an `{ "@id" }` reference resolved to the item of that id elsewhere on the page. */
  resolve?: (v: unknown) => unknown;
}

/** The `@type` of a node as short names (`https://schema.org/Product` → `Product`). */
export function typesOf(v: unknown): string[] {
  if (!v || typeof v !== 'object') return [];
  const t = (v as Record<string, unknown>)['@type'];
  const list = Array.isArray(t) ? t : t === undefined ? [] : [t];
  return list.filter((x): x is string => typeof x === 'string').map((x) => x.split(/[/#:]/).pop() ?? x);
}

export const hasType = (v: unknown, names: readonly string[]): boolean => typesOf(v).some((t) => names.includes(t));

/** A property's values as a list (absent → []). */
export function values(node: Record<string, unknown>, key: string): unknown[] {
  const v = node[key] ?? node[`schema:${key}`];
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** A value as text: strings trimmed, numbers as written, JSON-LD `@value` objects unwrapped. */
export function text(v: unknown): string | undefined {
  if (typeof v === 'string') {
    const t = v.replace(/\s+/g, ' ').trim();
    return t || undefined;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('@value' in o) return text(o['@value']);
    if (typeof o.name === 'string') return text(o.name);
  }
  return undefined;
}

/** The first text value of a property. */
export const firstText = (node: Record<string, unknown>, key: string): string | undefined => {
  for (const v of values(node, key)) {
    const t = text(v);
    if (t) return t;
  }
  return undefined;
};

/** A URL value (string, `@id` or `url` of an object), absolute against `base`. */
export function urlOf(v: unknown, base: string): string | undefined {
  let s: unknown = v;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    s = o.url ?? o.contentUrl ?? o['@id'];
    if (Array.isArray(s)) s = s[0];
  }
  if (typeof s !== 'string' || !s.trim()) return undefined;
  try {
    const u = new URL(s.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** JSON path joiner: `$[0].offers[1].price`. */
export const jsonJoin = (path: string, key: string, index?: number): string =>
  `${path}${/^[A-Za-z_@][\w@]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}${index === undefined ? '' : `[${index}]`}`;

/** CSS joiner for attribute syntaxes: `[itemtype$="/Product"] [itemprop~="offers"]`. */
export const attrJoin = (attr: string) => (path: string, key: string): string => `${path} [${attr}~="${key}"]`;

/** One more value of a property (microdata, RDFa): a second value makes it a list, in document order. */
export function addValue(out: Record<string, unknown>, key: string, v: unknown): void {
  const prev = out[key];
  if (prev === undefined) out[key] = v;
  else if (Array.isArray(prev)) prev.push(v);
  else out[key] = [prev, v];
}
