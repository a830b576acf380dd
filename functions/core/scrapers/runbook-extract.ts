import { loadHtml } from '../content/load-html.js';
import { extractFields, extractItems } from '../engine/extract.js';
import type { FieldSpec, FieldValue } from '../engine/field-spec.js';
import { dropMarkedOverlays } from '../engine/page-capture.js';

/** What a runbook `extract` step reads: the page as the steps see it, and the tenant's selectors. */
export interface RunbookExtractInput {
  /** The composed page (session.view: shadow roots and same-site frames in, overlays marked). */
  html: string;
  url: string;
  fields: Record<string, FieldSpec>;
  /** One record per match (`item_selector`); absent: one record for the whole page. */
  itemSelector?: string;
}

/**
 * A runbook `extract` step's records: overlays the view marked left out, then the tenant's item
 * and field selectors matched. Plain data in and out, so that it runs on a budget thread
 * (limits/budget-pool.ts) like a scrape's `extract.fields`: matching a hostile selector on a
 * hostile page costs its sender's budget (422 `selector_too_complex`), not every tenant's event loop.
 */
export function runbookExtract(input: RunbookExtractInput): Record<string, FieldValue>[] {
  const $ = loadHtml(input.html, input.url);
  dropMarkedOverlays($);
  return input.itemSelector ? extractItems($, input.url, input.itemSelector, input.fields) : [extractFields($, input.url, input.fields)];
}
