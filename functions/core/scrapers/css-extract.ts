import { runBudgeted } from '../limits/budget-pool.js';
import { extractRecords, type ExtractRecordsInput } from './extract-records.js';
import { normalizeUrl } from './normalize-url.js';
import { cssExtractSpec, type CssExtractInput } from './css-extract-spec.js';
import { halted, type Scraper, type ScraperOutcome } from './types.js';
import { wantsChanges } from '../changes/change-options.js';
import { typedFormatsOf } from '../typed/extract-typed.js';
import { comparableTyped } from '../typed/comparable.js';
import { typedItemFields } from '../typed/typed-options.js';

export type { CssExtractInput } from './css-extract-spec.js';

/** `css-extract`: field selectors on a page, optionally following a next-page link. */
export const cssExtract: Scraper<CssExtractInput> = {
  scraper_id: cssExtractSpec.scraper_id,
  name: cssExtractSpec.name,
  description: cssExtractSpec.description,
  engine: cssExtractSpec.engine,
  builtin: cssExtractSpec.builtin,
  inputSchema: cssExtractSpec.inputSchema,
  get input_schema() {
    return cssExtractSpec.input_schema;
  },
  async run(input, ctx): Promise<ScraperOutcome> {
    const maxPages = input.max_pages ?? (input.next_page ? 10 : 1);
    const seen = new Set<string>();
    let url: string | null = input.url;
    let pages = 0;
    let items = 0;
    const tracking = wantsChanges(input) ? ctx.changes : undefined;
    while (url && pages < maxPages) {
      const stop = halted(ctx);
      if (stop) return { pages_done: pages, items, stopped: stop };
      seen.add(normalizeUrl(url) ?? url);
      ctx.progress({ pages_done: pages, pages_total: input.next_page ? null : maxPages });
      const page = await ctx.engine.scrapePage(url, {
        engine: input.engine,
        formats: ['html', ...typedFormatsOf(input.formats ?? [])],
        wait_for: input.wait_for,
        timeout_ms: input.timeout_ms,
        ...(input.typed_options ? { typed: input.typed_options } : {}),
      });
      const typed = typedItemFields(page);
      pages++;
      if (page.skipped || page.blocked || page.html === undefined) {
        // Not read: `unavailable`, the baseline stays.
        await tracking?.track({ url, fetched_at: page.fetched_at, status_code: page.status_code, unavailable: true, markdown: null, structured: null });
        break;
      }
      // The tenant's selectors are matched on a budget thread (limits/budget-pool.ts), stopped at
      // the page's timeout: a hostile one on a hostile page ends the run as 422
      // selector_too_complex instead of holding the thread every tenant's work shares.
      const job: ExtractRecordsInput = {
        html: page.html,
        url: page.final_url,
        fields: input.fields,
        ...(input.item_selector ? { itemSelector: input.item_selector } : {}),
        ...(input.change_options?.ignore_tags?.length ? { remove: input.change_options.ignore_tags } : {}),
        ...(input.next_page ? { nextPage: input.next_page } : {}),
      };
      const { records, next } = await runBudgeted('selector', 'records.extract', job, { deadlineMs: input.timeout_ms ?? 30_000, owner: ctx.engine.owner, inline: () => extractRecords(job) });
      // The page's records are compared as one value: `/price` for one record, `/0/price` for a list.
      const change = tracking
        ? await tracking.track({ url, fetched_at: page.fetched_at, status_code: page.status_code, markdown: null, structured: cssStructured(input.item_selector ? records : records[0], typed) })
        : undefined;
      for (const data of records) {
        await ctx.emit({ url: page.final_url, fetched_at: page.fetched_at, status_code: page.status_code, data: { ...data, ...typed, ...(change ? { change } : {}) } });
        items++;
      }
      url = next && !seen.has(normalizeUrl(next) ?? next) ? next : null;
    }
    ctx.progress({ pages_done: pages, pages_total: pages });
    return { pages_done: pages, items, stopped: ctx.engine.stopReason() ? 'challenge' : 'done' };
  },
};

/**
 * What css-extract's change tracking compares: the records as before (`/price`, or `/0/price` with
 * item_selector); with typed formats, the typed objects beside them (`/product/price`), the list
 * of records then under `/items`.
 */
function cssStructured(records: unknown, typed: Record<string, unknown>): unknown {
  if (!Object.keys(typed).length) return records;
  const t = comparableTyped(typed);
  return Array.isArray(records) ? { items: records, ...t } : { ...(records as Record<string, unknown>), ...t };
}
