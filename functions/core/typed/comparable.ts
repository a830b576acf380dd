import { TYPED_FORMATS } from './types.js';

/**
 * Typed objects as change tracking compares them: provenance and warnings left out (a change of
 * confidence is no change of the page), `product_list.products` keyed by URL so that an added or
 * removed product is one field change (`/product_list/products/<url>`) instead of every later
 * index moving. Products without a URL keep their place (`#0`, `#1`, …).
 */
export function comparableTyped(page: Partial<Record<(typeof TYPED_FORMATS)[number], unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const t of TYPED_FORMATS) {
    const v = page[t];
    if (v === undefined) continue;
    if (v === null || typeof v !== 'object') {
      out[t] = null;
      continue;
    }
    const { provenance: _p, warnings: _w, ...fields } = v as Record<string, unknown>;
    if (t === 'product_list' && Array.isArray(fields.products)) {
      const byUrl: Record<string, unknown> = {};
      (fields.products as Record<string, unknown>[]).forEach((p, i) => {
        const key = typeof p?.url === 'string' && p.url ? p.url : `#${i}`;
        if (!(key in byUrl)) byUrl[key] = p;
      });
      fields.products = byUrl;
    }
    out[t] = fields;
  }
  return out;
}
