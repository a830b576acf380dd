import { createRequire } from 'node:module';
import * as z from 'zod';

type SelectorEngine = typeof import('./selector-engine.js');
let engine: SelectorEngine | undefined;

/**
 * cheerio's slim build, loaded on the first selector check rather than at import: many functions
 * import these schemas (to list runs, runbooks, scrapers) but check no selector on most requests,
 * and evaluating cheerio with its HTML parser and entity tables cost each ~15 ms of init. In a
 * bundle, esbuild turns this `require` of a bundled module into a lazy initialiser of that module
 * (the same ESM cheerio the engine uses, its code run on this first call). Run from source (tsx,
 * vitest: this file is .ts, ESM has no `require`), Node's require loads cheerio's CommonJS build
 * of the same version.
 */
function selectorEngine(): SelectorEngine {
  engine ??= import.meta.url.endsWith('.ts')
    ? (createRequire(import.meta.url)('cheerio/slim') as SelectorEngine)
    : // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild's lazy module init (see above)
      (require('./selector-engine.js') as SelectorEngine);
  return engine;
}

/** An absolute http(s) URL (the egress guard still decides whether it may be reached). */
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048);

/** Engine override shared by every scraper input. */
export const engineChoice = z.enum(['auto', 'http', 'browser']);

/** A CSS selector cheerio can parse (checked so a typo is a 400, not an empty result). */
export const cssSelector = z
  .string()
  .min(1)
  .max(500)
  .refine((sel) => {
    try {
      selectorEngine().load('<p></p>')(sel);
      return true;
    } catch {
      return false;
    }
  }, 'is not a valid CSS selector');

/** Per-page timeout in ms. */
export const timeoutMs = z.int().min(1_000).max(120_000);

const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

/**
 * JSON Schema of an input schema, as the API lists it (input side: defaults make fields optional).
 * Computed on first use and kept: scrapers expose it through a getter, so a function that only
 * validates inputs never pays for the conversion at cold start.
 */
export function toInputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete json.$schema;
    jsonSchemas.set(schema, json);
  }
  return json;
}
