import * as z from 'zod';
import { cssSelector } from '../scrapers/input-fields.js';

// The field-extraction contract, apart from the cheerio code that evaluates it (extract.ts). A
// field's selector is checked like every other (scrapers/input-fields.ts: parsed by the selector
// engine, loaded on the first check; within the static limits), so `h3[[bad` is a 400 naming the
// field rather than a field that finds nothing (issue 41 item 4).

/** One field to extract: a CSS selector, optionally an attribute, optionally every match. */
export interface FieldSpec {
  selector: string;
  /** Attribute to read instead of the text (`href`/`src` are made absolute). */
  attr?: string;
  /** Return every match as an array instead of the first match. */
  all?: boolean;
}

/** Extracted value: a string (or null when nothing matched), or an array when `all`. */
export type FieldValue = string | null | string[];

/** zod schema of a field map, shared by the scrape endpoint, css-extract and runbooks. */
export const fieldSpecSchema = z
  .object({
    selector: cssSelector,
    attr: z.string().min(1).max(100).optional(),
    // The default is declared (forms say "Default: off"); parsing still leaves it absent.
    all: z.boolean().optional().meta({ default: false, description: 'Every match, as a list; off: the first match only' }),
  })
  .strict();

export const fieldsSchema = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, 'field names are identifiers'), fieldSpecSchema)
  .refine((f) => Object.keys(f).length >= 1 && Object.keys(f).length <= 50, 'between 1 and 50 fields');
