import * as z from 'zod';
import { cssSelector, engineChoice, httpUrl, timeoutMs, toInputJsonSchema } from './input-fields.js';
import { halted, type Scraper, type ScrapeItem } from './types.js';
import { pageFormats, runFormats } from './run-formats.js';
import { checkJsonFormat, jsonItemFields, jsonOptionsSchema } from '../extraction/json-options.js';
import { contentOptionsOf, contentOptionsShape } from '../content/content-options.js';
import { changeOptionsShape, checkChangesFormat, wantsChanges, withIgnoredTags } from '../changes/change-options.js';
import { structuredOf } from '../changes/structured-data.js';
import { unavailablePage } from '../changes/unavailable-page.js';
import { pageActionsSchema } from './page-actions-schema.js';
import { maxAgeField } from '../freshness/max-age.js';
import { checkTypedFormat, typedItemFields, typedOptionsShape } from '../typed/typed-options.js';

const inputSchema = z.strictObject({
  url: httpUrl.describe('Page or PDF document to read'),
  engine: engineChoice.default('auto').describe('auto = http first, browser only when the page needs JavaScript'),
  wait_for: cssSelector.optional().describe('Browser: wait for this selector before reading the page'),
  timeout_ms: timeoutMs.optional(),
  formats: runFormats.optional(),
  json_options: jsonOptionsSchema.optional().describe('Model extraction (formats includes "json"): JSON Schema of the object, and an optional prompt'),
  actions: pageActionsSchema.optional(),
  ...contentOptionsShape,
  ...changeOptionsShape,
  ...typedOptionsShape,
  max_age: maxAgeField,
}).superRefine((v, ctx) => {
  checkJsonFormat(v, ctx);
  checkChangesFormat(v, ctx);
  checkTypedFormat(v, ctx);
});

/** Input of {@link pageContent}. */
export type PageContentInput = z.infer<typeof inputSchema>;

/** `page-content`: one URL -> title, text, markdown, links, metadata. */
export const pageContent: Scraper<PageContentInput> = {
  scraper_id: 'page-content',
  name: 'Page content',
  description:
    'Reads one page (HTML or PDF) and returns its title, readable text, markdown of the main content, links, metadata (incl. author, dates, site name, language, image) and content type.',
  engine: 'auto',
  builtin: true,
  inputSchema,
  get input_schema() {
    return toInputJsonSchema(inputSchema);
  },
  async run(input, ctx) {
    const stop = halted(ctx);
    if (stop) return { pages_done: 0, items: 0, stopped: stop };
    ctx.progress({ pages_done: 0, pages_total: 1 });
    // max_age: this tenant's earlier item for the same input; no request to the site, no page billed.
    const hit = await ctx.answers?.read<ScrapeItem>('page-content', input);
    if (hit) {
      await ctx.emit({ ...hit.value, fetched_at: hit.fetched_at, cached: true });
      return { pages_done: 0, items: 1, stopped: 'done' };
    }
    const tracking = wantsChanges(input) ? ctx.changes : undefined;
    const unreadable = { ...unavailablePage(input.url, new Date().toISOString()), engine: input.engine };
    let page;
    try {
      page = await ctx.engine.scrapePage(input.url, {
        engine: input.engine,
        formats: pageFormats(input),
        wait_for: input.wait_for,
        timeout_ms: input.timeout_ms,
        json: input.json_options,
        ...(input.typed_options ? { typed: input.typed_options } : {}),
        ...(input.actions?.length ? { actions: input.actions } : {}),
        ...withIgnoredTags(contentOptionsOf(input), input.change_options),
      });
    } catch (err) {
      // A page that could not be read is `unavailable`: its baseline stays.
      await tracking?.track(unreadable);
      throw err;
    }
    ctx.progress({ pages_done: 1, pages_total: 1 });
    if (page.skipped || page.blocked) {
      await tracking?.track({ ...unreadable, fetched_at: page.fetched_at, status_code: page.status_code });
      return { pages_done: 1, items: 0, stopped: ctx.engine.stopReason() ? 'challenge' : 'done' };
    }
    const change = tracking ? await tracking.track({ url: input.url, engine: input.engine, fetched_at: page.fetched_at, status_code: page.status_code, markdown: page.markdown ?? '', structured: structuredOf(page) }) : undefined;
    const item: ScrapeItem = {
      url: page.final_url,
      fetched_at: page.fetched_at,
      status_code: page.status_code,
      data: {
        title: page.title ?? '',
        text: page.text ?? '',
        markdown: page.markdown ?? '',
        links: page.links ?? [],
        metadata: page.metadata ?? null,
        content_type: page.content_type ?? null,
        engine_used: page.engine_used,
        ...(page.actions ? { actions: page.actions } : {}),
        ...jsonItemFields(page),
        ...typedItemFields(page),
        ...(change ? { change } : {}),
      },
    };
    await ctx.emit(item);
    if (page.status_code >= 200 && page.status_code < 300) await ctx.answers?.keep('page-content', input, item, page.fetched_at);
    return { pages_done: 1, items: 1, stopped: 'done' };
  },
};
