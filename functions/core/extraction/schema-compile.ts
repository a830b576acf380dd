import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { RE2JS } from 're2js';
import { lazyEngine } from '../lazy-engine.js';
import { badRequest } from '../errors.js';

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
};

let draft7: Ajv | undefined;
let draft2020: Ajv | undefined;
/** draft 2020-12 when the schema says so, else draft-07 (ajv's default, also reading draft-06/04 style). */
function ajvFor(schema: Record<string, unknown>): Ajv {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/2020-12|2019-09/.test(declared)) return (draft2020 ??= addFormats(new Ajv2020(OPTIONS) as unknown as Ajv));
  return (draft7 ??= addFormats(new Ajv(OPTIONS)));
}

const cache = new Map<string, ValidateFunction>();

/**
 * Compile a caller's JSON Schema (cached by its text, a few hundred at most). Throws 400
 * `invalid_request` naming what is wrong when it is not a valid JSON Schema, references something
 * it does not contain, or uses a pattern RE2 cannot run.
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema);
  const hit = cache.get(text);
  if (hit) return hit;
  let validate: ValidateFunction;
  try {
    // A copy: ajv keeps (and may annotate) what it compiles; the caller's schema stays as given.
    validate = ajvFor(schema).compile(JSON.parse(text) as Record<string, unknown>);
  } catch (e) {
    const why = (e as Error).message.replace(/\s+/g, ' ').slice(0, 300);
    throw badRequest(`json_options.schema is not a usable JSON Schema: ${why}`, [{ path: 'json_options.schema', message: why }]);
  }
  if (cache.size >= 500) cache.delete(cache.keys().next().value!);
  cache.set(text, validate);
  return validate;
}

/** ajv's errors as short lines a model (and a person) can act on: `/price: must be number`. */
export function describeErrors(errors: ErrorObject[] | null | undefined, max = 10): string[] {
  const lines = (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
      : e.keyword === 'required' ? '' : e.keyword === 'enum' ? `: ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}` : '';
    return `${where}: ${e.message ?? e.keyword}${extra}`;
  });
  const unique = [...new Set(lines)];
  return unique.length > max ? [...unique.slice(0, max), `…and ${unique.length - max} more`] : unique;
}
