/**
 * A product page's description from its JSON-LD, for the main content when the document does not
 * show it (a description rendered by a script, or kept in a tab the markup leaves empty). Read
 * from the tree the pipeline parsed: each `<script type="application/ld+json">` is parsed as JSON
 * (never evaluated), arrays and `@graph` unrolled; the first item typed `Product` (or
 * `ProductGroup`, `IndividualProduct`) with a `description` string gives it.
 */
import { isElement, type DomNode } from './dom.js';

/** Longest JSON-LD block read (a page's structured data is kilobytes). */
const MAX_BLOCK = 1_000_000;
/** Longest description taken (a product description is a few paragraphs). */
const MAX_DESCRIPTION = 20_000;
const PRODUCT_TYPES = /^(?:https?:\/\/schema\.org\/)?(?:Product|ProductGroup|IndividualProduct|ProductModel)$/;

function scripts(root: DomNode, out: DomNode[] = []): DomNode[] {
  for (const c of root.children ?? []) {
    if (!isElement(c)) continue;
    if (c.name === 'script') {
      if (/ld\+json/i.test(c.attribs?.type ?? '')) out.push(c);
    } else scripts(c, out);
  }
  return out;
}

function typed(o: Record<string, unknown>): boolean {
  const t = o['@type'];
  return Array.isArray(t) ? t.some((x) => typeof x === 'string' && PRODUCT_TYPES.test(x)) : typeof t === 'string' && PRODUCT_TYPES.test(t);
}

function findDescription(v: unknown, depth: number): string | undefined {
  if (depth > 4 || !v || typeof v !== 'object') return undefined;
  if (Array.isArray(v)) {
    for (const x of v) {
      const d = findDescription(x, depth + 1);
      if (d) return d;
    }
    return undefined;
  }
  const o = v as Record<string, unknown>;
  if (typed(o) && typeof o.description === 'string' && o.description.trim()) return o.description;
  return findDescription(o['@graph'], depth + 1) ?? findDescription(o.mainEntity, depth + 1);
}

/** The page's JSON-LD product description as plain text (tags stripped, entities as written), if any. */
export function ldProductDescription(root: DomNode): string | undefined {
  let top = root;
  while (top.parent) top = top.parent;
  for (const s of scripts(top)) {
    const raw = (s.children ?? []).map((c) => c.data ?? '').join('').trim();
    if (!raw || raw.length > MAX_BLOCK) continue;
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      continue;
    }
    const d = findDescription(data, 0);
    // Descriptions often carry markup of their own: its text only.
    if (d) return decodeEntities(percentDecoded(d.slice(0, MAX_DESCRIPTION * 2))).replace(/<[^>]{0,500}>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_DESCRIPTION) || undefined;
  }
  return undefined;
}

/**
 * A description a CMS wrote URL-encoded ("An%20elegant%20sofa%20…"): no space, and its spaces as
 * `%20`. Decoded; one that fails to decode (a stray `%`) stays as written.
 */
function percentDecoded(s: string): string {
  if (/\s/.test(s) || (s.match(/%20/g)?.length ?? 0) < 3) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The common entities a CMS leaves in a JSON string (`&amp;`, `&lt;p&gt;`, `&#39;`, `&#x2019;`). */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,5});/gi, (m, e: string) => {
    if (e[0] !== '#') return NAMED[e.toLowerCase()] ?? m;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Whether most of `description`'s words (three in four) are already in `text`. */
export function alreadyShown(description: string, text: string): boolean {
  const have = new Set(text.toLowerCase().match(WORD) ?? []);
  const words = description.toLowerCase().match(WORD) ?? [];
  if (!words.length) return true;
  let found = 0;
  for (const w of words) if (have.has(w)) found++;
  return found >= words.length * 0.75;
}
