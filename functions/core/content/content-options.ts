import * as z from 'zod';
import { cssSelector } from '../scrapers/input-fields.js';
import { refineSelectorComplexity, selectorComplexityProblem } from '../limits/selector-limits.js';

// The content options of POST /v1/scrape, page-content, site-crawl and runbook markdown steps
// (API.md "Content options"). Kept apart from the engine so that API handlers validate them
// without bundling an HTML parser (the selector check loads cheerio's slim build on first use).

/** A CSS selector the engine can run; the 400 names the selector that failed. */
const tagSelector = z
  .string()
  .min(1, 'a selector may not be empty')
  .max(500)
  .superRefine((sel, ctx) => {
    if (selectorComplexityProblem(sel)) return refineSelectorComplexity(sel, ctx);
    if (!cssSelector.safeParse(sel).success) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(sel)} is not a valid CSS selector` });
  });

/** zod shape of the content options, spread into each input schema that takes them. */
export const contentOptionsShape = {
  only_main_content: z
    .boolean()
    .optional()
    .describe('markdown: the main content only, without navigation, headers, footers, sidebars, related links, comments or share bars (default true); false: the whole page')
    // Declared for forms and the OpenAPI document (the console shows "Default: on"); parsing
    // still leaves it absent, so the engine's own default applies as before.
    .meta({ default: true }),
  include_tags: z
    .array(tagSelector)
    .max(50)
    .optional()
    .describe('CSS selectors: only the elements they match become markdown (overrides the main-content guess)'),
  exclude_tags: z.array(tagSelector).max(50).optional().describe('CSS selectors: elements removed before markdown is made'),
};

/** The content options as the engine takes them (ScrapeOptions fields). */
export interface ContentOptions {
  only_main_content?: boolean;
  include_tags?: string[];
  exclude_tags?: string[];
}

/** The content options of a validated input, without the absent ones. */
export function contentOptionsOf(input: ContentOptions): ContentOptions {
  const out: ContentOptions = {};
  if (input.only_main_content !== undefined) out.only_main_content = input.only_main_content;
  if (input.include_tags?.length) out.include_tags = input.include_tags;
  if (input.exclude_tags?.length) out.exclude_tags = input.exclude_tags;
  return out;
}
