import * as z from 'zod';
import { cssSelector } from '../scrapers/input-fields.js';
import { lazyEngine } from '../lazy-engine.js';
import type { LineFilter } from './normalize-text.js';

// `change_options` of POST /v1/scrape, page-content, css-extract and site-crawl (API.md "Change
// tracking"). Validated here so a bad selector or regex is a 400 naming the field.

type Re2Engine = typeof import('../scrapers/re2-engine.js');
/** The project's RE2 engine (linear time: a tenant's pattern cannot hang a worker), loaded on first use. */
const re2Engine = lazyEngine<Re2Engine>(import.meta.url, 're2js', () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild's lazy module init (lazy-engine.ts)
  require('../scrapers/re2-engine.js'),
);
const re2 = (): Re2Engine['RE2JS'] => re2Engine().RE2JS;

/** Why an ignore pattern does not compile, or null. */
export function ignorePatternError(p: string): string | null {
  try {
    re2().compile(p);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

const ignorePattern = z
  .string()
  .min(1)
  .max(500)
  .superRefine((p, ctx) => {
    const err = ignorePatternError(p);
    if (err) ctx.addIssue({ code: 'custom', message: `is not a valid RE2 regular expression: ${err}` });
  });

/** An RFC 6901 JSON pointer: `/product/price` (`~0` for ~, `~1` for /). */
const jsonPointer = z
  .string()
  .min(2)
  .max(500)
  .regex(/^(\/([^~/]|~[01])*)+$/, 'must be a JSON pointer such as /product/price (~0 for ~, ~1 for /)');

export const changeOptionsSchema = z
  .strictObject({
    tag: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9._:-]+$/, 'use letters, digits and . _ : - only')
      .optional()
      .describe('Baseline family: pages are compared with the last snapshot of the same URL under the same tag (default "default")'),
    ignore_tags: z.array(cssSelector).max(20).optional().describe('CSS selectors removed from the page before it is compared'),
    ignore_patterns: z.array(ignorePattern).max(20).optional().describe('RE2 regular expressions whose matches are removed from the text before it is compared'),
    watch: z.array(jsonPointer).min(1).max(20).optional().describe('JSON pointers (/product/price, /product/availability): the page is "changed" only when one of these values changed'),
  })
  .describe('Change tracking (formats includes "changes")');
export type ChangeOptions = z.infer<typeof changeOptionsSchema>;

/** The fields every input with change tracking adds. */
export const changeOptionsShape = { change_options: changeOptionsSchema.optional() };

/** Inputs ask for change tracking with the `changes` format; change_options alone is an error. */
export function checkChangesFormat(v: { formats?: readonly string[]; change_options?: unknown }, ctx: z.RefinementCtx): void {
  if (v.change_options !== undefined && !(v.formats?.includes('changes') ?? false))
    ctx.addIssue({ code: 'custom', path: ['formats'], message: 'change_options is given but formats does not include "changes"' });
}

/** Does this input ask for change tracking? */
export const wantsChanges = (v: { formats?: readonly string[] }): boolean => v.formats?.includes('changes') ?? false;

/** The tag of a tracked input (default "default"). */
export const tagOf = (o?: ChangeOptions): string => o?.tag ?? 'default';

/** The tenant's ignore patterns as line filters (each match removed). */
export function compileFilters(o?: ChangeOptions): LineFilter[] {
  return (o?.ignore_patterns ?? []).map((p) => {
    const re = re2().compile(p);
    return (line: string) => re.matcher(line).replaceAll('');
  });
}

/** Content options with `ignore_tags` added to `exclude_tags`: what the compared markdown is made from. */
export function withIgnoredTags<T extends { exclude_tags?: string[] }>(opts: T, o?: ChangeOptions): T {
  if (!o?.ignore_tags?.length) return opts;
  return { ...opts, exclude_tags: [...(opts.exclude_tags ?? []), ...o.ignore_tags] };
}
