import * as z from 'zod';
import { fieldsSchema } from '../engine/field-spec.js';
import { cssSelector, engineChoice, httpUrl, timeoutMs, toInputJsonSchema } from './input-fields.js';
import type { ScraperSpec } from './types.js';
import { changeOptionsShape, checkChangesFormat } from '../changes/change-options.js';
import { TYPED_FORMATS } from '../typed/types.js';
import { checkTypedFormat, typedOptionsShape } from '../typed/typed-options.js';

// What the API needs of css-extract (validation, listing), apart from the cheerio code that runs it.

const inputSchema = z.strictObject({
  url: httpUrl.describe('First page'),
  fields: fieldsSchema.describe('Field name -> { selector, attr?, all? }'),
  item_selector: cssSelector
    .optional()
    .describe('One item per element matching this selector, fields relative to it; without it, one item per page'),
  next_page: cssSelector.optional().describe('Selector of the link to the next page'),
  max_pages: z.int().min(1).max(100).optional().describe('Pages to visit (default 10 with next_page, else 1)'),
  engine: engineChoice.default('auto'),
  wait_for: cssSelector.optional(),
  timeout_ms: timeoutMs.optional(),
  formats: z
    .array(z.enum(['changes', ...TYPED_FORMATS]))
    .min(1)
    .max(1 + TYPED_FORMATS.length)
    .optional()
    .describe('"changes": compare each page\'s records with their last snapshot (field changes by JSON pointer); "product", "product_list", "article", "job_posting": add the page\'s typed data to each record'),
  ...changeOptionsShape,
  ...typedOptionsShape,
}).superRefine((v, ctx) => {
  checkChangesFormat(v, ctx);
  checkTypedFormat(v, ctx);
});

/** Input of {@link cssExtractSpec} (css-extract). */
export type CssExtractInput = z.infer<typeof inputSchema>;

/** `css-extract`: field selectors on a page, optionally following a next-page link. */
export const cssExtractSpec: ScraperSpec<CssExtractInput> = {
  scraper_id: 'css-extract',
  name: 'CSS extract',
  description:
    'Extracts fields with CSS selectors (text or an attribute, first match or all) from a page, one item per page or per item_selector match, following a next-page link up to max_pages.',
  engine: 'auto',
  builtin: true,
  inputSchema,
  get input_schema() {
    return toInputJsonSchema(inputSchema);
  },
};
