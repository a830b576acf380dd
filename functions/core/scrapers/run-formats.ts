import * as z from 'zod';
import type { ScrapeFormat } from '../engine/types.js';
import { TYPED_FORMATS } from '../typed/types.js';

/**
 * `formats` of the page-content and site-crawl inputs. Their items always carry title, markdown,
 * text, links and metadata (as before `formats` existed); `json` adds model extraction with
 * `json_options` (API.md "Model extraction"). The other names are accepted so one `formats` list
 * reads the same in POST /v1/scrape and in a run input.
 */
export const RUN_FORMATS = ['markdown', 'text', 'links', 'metadata', 'json', 'changes', ...TYPED_FORMATS] as const;
export const runFormats = z
  .array(z.enum(RUN_FORMATS))
  .min(1)
  .max(RUN_FORMATS.length)
  .describe('Include "json" (with json_options) to extract an object with a model, "changes" (with change_options) to compare each page with its last snapshot, "product", "product_list", "article" or "job_posting" (with optional typed_options) for typed data without a schema; the other fields are always returned');

/** What the engine fetches for a run page: the fields every item carries, plus json and the typed formats when asked. */
export function pageFormats(input: { formats?: readonly string[] }): ScrapeFormat[] {
  const base: ScrapeFormat[] = ['markdown', 'text', 'links', 'metadata'];
  const typed = TYPED_FORMATS.filter((t) => input.formats?.includes(t));
  return [...base, ...(input.formats?.includes('json') ? (['json'] as const) : []), ...typed];
}
