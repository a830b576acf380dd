import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { RE2JS } from 're2js';
import { lazyEngine } from '../lazy-engine.js';
import { createHash } from 'node:crypto';
import { badRequest } from '../errors.js';
import { tooComplex } from '../limits/budget.js';
import { schemaComplexityProblem } from './schema-complexity.js';

// Loaded on demand (a dynamic import from readiness.ts, a static one from the worker's extractor):
// ajv and its formats are needed only when a caller asks for the json format.

type Re2Engine = typeof import('../scrapers/re2-engine.js');
const re2Engine = lazyEngine<Re2Engine>(import.meta.url, 're2js', () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild's lazy module init (lazy-engine.ts)
  require('../scrapers/re2-engine.js'),
);

/**
 * `pattern` and `patternProperties` come from tenants and are tested against model output in a
 * shared worker, so they run on RE2 (linear time), as crawl URL patterns do: a hostile pattern
 * cannot stall the event loop. Patterns RE2 cannot run (backreferences, lookaround) are refused.
 */
function re2RegExp(pattern: string, flags: string): { test(s: string): boolean } {
  const { RE2JS: R } = re2Engine();
  const rx: RE2JS = R.compile(pattern, flags.includes('i') ? R.CASE_INSENSITIVE : 0);
  return { test: (s: string) => rx.matcher(s).find() };
}
re2RegExp.code = 're2';

// ajv-formats is CommonJS with `module.exports = formatsPlugin` plus a `default`; both spellings.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const OPTIONS: Options = {
  // Unknown keywords (titles, vendor extensions, OpenAPI's `example`) are allowed; the schema
  // itself must still be a valid JSON Schema (checked against the meta-schema).
  strict: false,
  // Tenants' schemas share one instance: a schema's $id must not be remembered, or the next
  // tenant's schema with the same $id would be refused (or resolve a $ref to someone else's).
  addUsedSchema: false,
  allErrors: true,
  validateFormats: true,
  code: { regExp: re2RegExp as unknown as NonNullable<Options['code']>['regExp'] },
  // Each $ref is a function call, never a copy of its target: inlining made `N properties that
  // each $ref a definition of N properties` compile to N² checks (issue 27).
  inlineRefs: false,
};

let draft7: Ajv | undefined;
let draft2020: Ajv | undefined;
/** draft 2020-12 when the schema says so, else draft-07 (ajv's default, also reading draft-06/04 style). */
function ajvFor(schema: Record<string, unknown>): Ajv {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/2020-12|2019-09/.test(declared)) return (draft2020 ??= addFormats(new Ajv2020(OPTIONS) as unknown as Ajv));
  return (draft7 ??= addFormats(new Ajv(OPTIONS)));
}

/** Compiled schemas kept (least recently used first out): ~11 KB each, so a few hundred KB at most. */
export const SCHEMA_CACHE_SIZE = 64;
const cache = new Map<string, ValidateFunction>();

/** The cache's key: a digest of the schema's text (the text itself may be 32 KB). */
const keyOf = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * Compile a caller's JSON Schema (cached by a digest of its text, a small LRU). Refuses, before
 * ajv sees it, a schema whose static estimate is too much (422 `schema_too_complex`, naming the
 * limit: schema-complexity.ts). Throws 400 `invalid_request` naming what is wrong when it is not
 * a valid JSON Schema, references something it does not contain, or uses a pattern RE2 cannot run.
 * Runs on a budget thread (limits/budget-tasks.ts), which also bounds the compile's time and heap.
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema);
  const key = keyOf(text);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const problem = schemaComplexityProblem(schema);
  if (problem) throw tooComplex('schema', problem);
  let validate: ValidateFunction;
  try {
    // A copy: ajv keeps (and may annotate) what it compiles; the caller's schema stays as given.
    validate = ajvFor(schema).compile(JSON.parse(text) as Record<string, unknown>);
  } catch (e) {
    if (e instanceof RangeError) throw tooComplex('schema', 'compiling it never ends (a $ref cycle)');
    const why = (e as Error).message.replace(/\s+/g, ' ').slice(0, 300);
    throw badRequest(`json_options.schema is not a usable JSON Schema: ${why}`, [{ path: 'json_options.schema', message: why }]);
  }
  // ajv keeps every schema it compiled too: drop its copy, ours is the only cache.
  ajvFor(schema).removeSchema(validate.schema as never);
  if (cache.size >= SCHEMA_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, validate);
  return validate;
}

/** Entries in the compiled-schema cache (tests). */
export const schemaCacheSize = (): number => cache.size;

/**
 * `json` against `schema`: valid, or the problems a model (and a person) can act on. A schema
 * whose validation cannot finish (a `$ref` cycle that never reaches data: `{"$ref": "#"}`) is 422
 * `schema_too_complex`, not a crash.
 */
export function validateAgainst(schema: Record<string, unknown>, json: unknown): { valid: boolean; problems: string[] } {
  const validate = compileSchema(schema);
  let valid: boolean;
  try {
    valid = validate(json) as boolean;
  } catch (e) {
    if (e instanceof RangeError) throw tooComplex('schema', 'validating a value against it never ends (a $ref cycle)');
    throw e;
  }
  return { valid, problems: valid ? [] : describeErrors(validate.errors) };
}

const quoteName = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** ajv's errors as short lines a model (and a person) can act on: `/price: must be number`. */
export function describeErrors(errors: ErrorObject[] | null | undefined, max = 10): string[] {
  const lines = (errors ?? []).map((e) => {
    // Paths and property names come from the answer (page-steerable): quoted, one line, cut short.
    const where = e.instancePath ? quoteName(e.instancePath) : '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` (${quoteName(String((e.params as { additionalProperty?: string }).additionalProperty))})`
      : e.keyword === 'required' ? '' : e.keyword === 'enum' ? `: ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}` : '';
    return `${where}: ${e.message ?? e.keyword}${extra}`;
  });
  const unique = [...new Set(lines)];
  return unique.length > max ? [...unique.slice(0, max), `…and ${unique.length - max} more`] : unique;
}
