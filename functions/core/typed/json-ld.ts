import type { CheerioAPI } from 'cheerio';
import { jsonJoin, type SchemaNode } from './schema-node.js';

/** Longest JSON-LD block read (a page's structured data is kilobytes; a megabyte is a dump, not a description). */
const MAX_BLOCK = 1_000_000;

/** A block's text as JSON: HTML comments and CDATA wrappers some CMSs leave are stripped first. */
function parseBlock(raw: string): unknown {
  const s = raw.trim().replace(/^<!--|-->$/g, '').replace(/^\/\*<!\[CDATA\[\*\/|\/\*\]\]>\*\/$/g, '').trim();
  if (!s || s.length > MAX_BLOCK) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    // Raw newlines and tabs inside strings are the commonest hand-written mistake.
    try {
      return JSON.parse(s.replace(/[\n\r\t]+/g, ' '));
    } catch {
      return undefined;
    }
  }
}

/**
 * Every top-level JSON-LD item of the page: each `<script type="application/ld+json">`, arrays
 * and `@graph` unrolled, `mainEntity` of a WebPage lifted beside it. Items in properties stay
 * nested (a related product in `isRelatedTo` is not the page's own). Unparseable blocks are skipped
 * and counted in `warnings`.
 */
export function readJsonLd($: CheerioAPI): { nodes: SchemaNode[]; warnings: string[] } {
  const nodes: SchemaNode[] = [];
  const warnings: string[] = [];
  $('script[type="application/ld+json" i]').each((i, el) => {
    const data = parseBlock($(el).text());
    if (data === undefined) {
      warnings.push(`JSON-LD block ${i} is not valid JSON; skipped`);
      return;
    }
    const visit = (v: unknown, path: string) => {
      if (Array.isArray(v)) return v.forEach((x, j) => visit(x, `${path}[${j}]`));
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (Array.isArray(o['@graph'])) (o['@graph'] as unknown[]).forEach((x, j) => visit(x, `${path}["@graph"][${j}]`));
      if (o['@type'] !== undefined) nodes.push({ value: o, source: 'json-ld', path, join: jsonJoin });
      const main = o.mainEntity ?? o.mainEntityOfPage;
      if (main && typeof main === 'object' && (main as Record<string, unknown>)['@type'] !== undefined) visit(main, jsonJoin(path, o.mainEntity ? 'mainEntity' : 'mainEntityOfPage'));
    };
    visit(data, `ld[${i}]`);
  });
  const byId = new Map<string, Record<string, unknown>>();
  for (const n of nodes) if (typeof n.value['@id'] === 'string' && Object.keys(n.value).length > 1) byId.set(n.value['@id'] as string, n.value);
  const resolve = (v: unknown): unknown => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return typeof o['@id'] === 'string' && Object.keys(o).length === 1 ? (byId.get(o['@id']) ?? v) : v;
  };
  for (const n of nodes) n.resolve = resolve;
  return { nodes, warnings };
}
