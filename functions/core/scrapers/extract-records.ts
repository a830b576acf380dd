import { loadHtml } from '../content/load-html.js';
import { extractFields, extractItems, nextPageUrl } from '../engine/extract.js';
import type { FieldSpec, FieldValue } from '../engine/field-spec.js';
import { dropMarkedOverlays } from '../engine/page-capture.js';

/** A page and the tenant's selectors to match on it (css-extract pages, runbook `extract` steps). */
export interface ExtractRecordsInput {
  html: string;
  url: string;
  fields: Record<string, FieldSpec>;
  /** One record per match; absent: one record for the whole page. */
  itemSelector?: string;
  /** Elements removed before matching (css-extract's `change_options.ignore_tags`). */
  remove?: string[];
  /** The next page's link (css-extract's `next_page`). */
  nextPage?: string;
  /** Leave out the overlays a runbook's page view marked (page-capture.ts). */
  markedOverlays?: boolean;
}

export interface ExtractedRecords {
  records: Record<string, FieldValue>[];
  /** The next page's URL when `nextPage` was given and matched a link. */
  next: string | null;
}

/**
 * The tenant's item, field, removal and next-page selectors matched on one page. Plain data in
 * and out, so it runs on a budget thread (limits/budget-pool.ts, task `records.extract`): a
 * hostile selector on a hostile page costs its sender's budget (422 `selector_too_complex`), not
 * the event loop every tenant's work shares.
 */
export function extractRecords(input: ExtractRecordsInput): ExtractedRecords {
  const $ = loadHtml(input.html, input.url);
  if (input.markedOverlays) dropMarkedOverlays($);
  for (const sel of input.remove ?? []) $(sel).remove();
  const records = input.itemSelector ? extractItems($, input.url, input.itemSelector, input.fields) : [extractFields($, input.url, input.fields)];
  return { records, next: input.nextPage ? nextPageUrl($, input.url, input.nextPage) : null };
}
