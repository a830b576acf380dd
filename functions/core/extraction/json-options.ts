import * as z from 'zod';

/** Limits of a caller's JSON Schema (API.md "Model extraction"). */
export const SCHEMA_LIMITS = { maxBytes: 32 * 1024, maxDepth: 10 } as const;
/** Longest caller prompt, in characters. */
export const MAX_PROMPT_CHARS = 4000;

/** Keywords whose value is a map of names to subschemas: the map itself is not a level. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * Nesting depth of a schema, counted in subschemas: `{ "type": "string" }` is 1, an object with
 * string properties is 2, each nested object or array item one more. Keyword maps (`properties`,
 * `$defs`...) and arrays (`anyOf`, `enum`...) are not levels of their own. Iterative, so a hostile
 * schema nested thousands deep cannot overflow the stack before the limit refuses it.
 */
export function schemaDepth(schema: unknown): number {
  let max = 0;
  // [value, subschema depth, raw JSON nesting]: the raw nesting bounds what is not a subschema
  // (an `enum` or `default` of arrays nested thousands deep), which later steps would recurse into.
  const stack: Array<[unknown, number, number]> = [[schema, 0, 0]];
  while (stack.length) {
    const [v, d, raw] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (raw > MAX_RAW_NESTING) return Number.POSITIVE_INFINITY;
    if (Array.isArray(v)) {
      for (const child of v) stack.push([child, d, raw + 1]);
      continue;
    }
    const depth = d + 1;
    if (depth > max) max = depth;
    if (depth > SCHEMA_LIMITS.maxDepth) return depth; // already over: no need to walk on
    for (const [k, child] of Object.entries(v)) {
      if (SCHEMA_MAPS.has(k) && child && typeof child === 'object' && !Array.isArray(child)) for (const sub of Object.values(child)) stack.push([sub, depth, raw + 2]);
      else stack.push([child, depth, raw + 1]);
    }
  }
  return max;
}

/** JSON nesting allowed anywhere in a schema (10 subschemas take at most ~30). */
const MAX_RAW_NESTING = 64;

/**
 * The structural checks of a caller's schema, cheap enough for request validation: a JSON object
 * with `type: "object"` at the top, at most 32 KB and 10 subschemas deep. Whether it is a valid JSON
 * Schema at all is checked at submit by compiling it (schema-compile.ts, loaded on demand).
 */
export function schemaShapeError(schema: Record<string, unknown>): string | null {
  if (schema.type !== 'object') return 'must be a JSON Schema with "type": "object" at the top';
  // Depth first: it is iterative, while serialising a hostile nesting would overflow the stack.
  if (schemaDepth(schema) > SCHEMA_LIMITS.maxDepth) return `is nested more than ${SCHEMA_LIMITS.maxDepth} levels deep`;
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > SCHEMA_LIMITS.maxBytes) return `is ${bytes} bytes; the limit is ${SCHEMA_LIMITS.maxBytes} bytes (32 KB)`;
  return null;
}

/** `json_options` of a scrape or a run input: the caller's schema (fixed by the caller) and prompt. */
export const jsonOptionsSchema = z.strictObject({
  schema: z
    .record(z.string(), z.unknown())
    .superRefine((s, ctx) => {
      const err = schemaShapeError(s);
      if (err) ctx.addIssue({ code: 'custom', message: `json_options.schema ${err}` });
    })
    .describe('JSON Schema of the object to extract ("type": "object" at the top; at most 32 KB and 10 levels deep)'),
  prompt: z.string().min(1).max(MAX_PROMPT_CHARS).optional().describe('What to extract, in your words (at most 4000 characters)'),
});
export type JsonOptions = z.infer<typeof jsonOptionsSchema>;

/**
 * `formats` and `json_options` go together: `json` needs its options, and options without `json`
 * would be silently unused. For a strict object schema with both fields (`.superRefine(...)`).
 */
export function checkJsonFormat(v: { formats?: readonly string[]; json_options?: unknown }, ctx: z.RefinementCtx): void {
  const asked = v.formats?.includes('json') ?? false;
  if (asked && v.json_options === undefined)
    ctx.addIssue({ code: 'custom', path: ['json_options'], message: 'formats includes "json": give json_options { schema, prompt? } with the JSON Schema of the object to extract' });
  if (!asked && v.json_options !== undefined)
    ctx.addIssue({ code: 'custom', path: ['formats'], message: 'json_options is given but formats does not include "json"' });
}

/** The json fields a run item's data carries (page-content, site-crawl), when json was asked for. */
export function jsonItemFields(page: { json?: unknown; json_usage?: unknown; json_error?: unknown }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (page.json !== undefined) out.json = page.json;
  if (page.json_error !== undefined) out.json_error = page.json_error;
  if (page.json_usage !== undefined) out.json_usage = page.json_usage;
  return out;
}
