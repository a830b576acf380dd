import * as z from 'zod';
import { lazyEngine } from '../lazy-engine.js';
import { refineSelectorComplexity } from '../limits/selector-limits.js';

type SelectorEngine = typeof import('./selector-engine.js');

/**
 * cheerio's slim build, loaded on the first selector check rather than at import: many functions
 * import these schemas (to list runs, runbooks, scrapers) but check no selector on most requests,
 * and evaluating cheerio with its HTML parser and entity tables cost each ~15 ms of init.
 */
const selectorEngine = lazyEngine<SelectorEngine>(import.meta.url, 'cheerio/slim', () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild's lazy module init (lazy-engine.ts)
  require('./selector-engine.js'),
);

/** An absolute http(s) URL (the egress guard still decides whether it may be reached). */
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048);

/** Engine override shared by every scraper input. */
export const engineChoice = z.enum(['auto', 'http', 'browser']);

/** How a site crawl or a site map uses the site's sitemaps (API.md "Sitemaps and site maps"). */
export const sitemapMode = z.enum(['include', 'skip', 'only']);

/**
 * A CSS selector cheerio can parse (checked so a typo is a 400, not an empty result), within the
 * static limits on relational pseudo-classes and combinators (limits/selector-limits.ts: 422
 * `selector_too_complex`).
 */
export const cssSelector = z.string().min(1).max(500).superRefine(refineSelectorComplexity).superRefine(refineSelectorSyntax);

/**
 * Why the selector engine cannot parse `sel` (its own words: "Attribute selector didn't
 * terminate"), or null when it can. An invalid selector is a 400 naming the field (issue 41
 * item 4), never an empty result.
 */
export function selectorSyntaxProblem(sel: string): string | null {
  try {
    selectorEngine().load('<p></p>')(sel);
    return null;
  } catch (e) {
    return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 200) || 'it cannot be parsed';
  }
}

/** A zod refinement: an issue "is not a valid CSS selector: <why>" for a selector that does not parse. */
export function refineSelectorSyntax(sel: string, ctx: { addIssue(issue: { code: 'custom'; message: string }): void }): void {
  const problem = selectorSyntaxProblem(sel);
  if (problem) ctx.addIssue({ code: 'custom', message: `is not a valid CSS selector: ${problem}` });
}

/** Per-page timeout in ms. */
// The engine's default (pipeline.ts) is declared for forms and OpenAPI; parsing leaves it absent.
export const timeoutMs = z.int().min(1_000).max(120_000).meta({ default: 30_000, description: 'How long one page may take, in milliseconds' });

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
