import { comparableTyped } from '../typed/comparable.js';

/**
 * The structured data of a page result that change tracking compares by JSON pointer: `json`,
 * `extracted` and the typed objects (`product`, `product_list`, `article`, `job_posting`), when
 * present. Typed objects are compared without their provenance and warnings, and a list's
 * products by URL (typed/comparable.ts), so `/product/price` and `/product_list/products/<url>`
 * are the pointers a change names.
 */
export function structuredOf(page: { json?: unknown; extracted?: unknown; product?: unknown; product_list?: unknown; article?: unknown; job_posting?: unknown }): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  if (page.json !== undefined) out.json = page.json;
  if (page.extracted !== undefined) out.extracted = page.extracted;
  Object.assign(out, comparableTyped(page));
  return Object.keys(out).length ? out : null;
}
