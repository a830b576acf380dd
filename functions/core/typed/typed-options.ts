import * as z from 'zod';
import { TYPED_FORMATS } from './types.js';

// `typed_options` of POST /v1/scrape, page-content, site-crawl and css-extract (API.md "Typed data").

export const typedOptionsSchema = z
  .strictObject({
    model: z.boolean().optional().describe('Fill fields the page left empty with the configured model (governed as the json format); never overrides a value found in the page. Default false'),
  })
  .describe('Typed data options (formats includes "product", "product_list", "article" or "job_posting")');
export type TypedOptions = z.infer<typeof typedOptionsSchema>;

/** The fields every input with typed formats adds. */
export const typedOptionsShape = { typed_options: typedOptionsSchema.optional() };

/** Does this input ask for a typed format? */
export const wantsTyped = (v: { formats?: readonly string[] }): boolean => (v.formats ?? []).some((f) => (TYPED_FORMATS as readonly string[]).includes(f));

/** typed_options without a typed format is an error (a 400 naming `formats`). */
export function checkTypedFormat(v: { formats?: readonly string[]; typed_options?: unknown }, ctx: z.RefinementCtx): void {
  if (v.typed_options !== undefined && !wantsTyped(v))
    ctx.addIssue({ code: 'custom', path: ['formats'], message: 'typed_options is given but formats includes none of "product", "product_list", "article", "job_posting"' });
}

/** The typed objects of a page result, for an item's `data` (each present key, null included). */
export function typedItemFields(page: Partial<Record<(typeof TYPED_FORMATS)[number], unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const t of TYPED_FORMATS) if (page[t] !== undefined) out[t] = page[t];
  return out;
}
